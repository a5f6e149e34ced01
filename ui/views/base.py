"""What the app shows of a feature type: the generic view, from the block protocol alone.

Every page asks a type's view (``ui.views.view_of(kind)``) instead of testing the type's name:
its Model-page section, its column options, its Explain input, its factor "as counted" and its
equations. :class:`TypeView` answers from the block's declarations (``value_kind``, ``title``,
``description``) and the model's own tables, so a type registered with one line and no view
module (``nbapp.blocks.register``) still works on every page. A built-in type's module in this
package overrides what it shows better (a CPT with counts next to fractions, a density with its
numbers). :class:`CountedView` is the shared part of the types whose estimates are smoothed
cells of a count table.
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import streamlit as st

import nbapp.blocks as blocks
from nbapp.blocks.base import CATEGORY, COUNT, NUMBER, TEXT
from nbapp.decimals import input_format, value_text
from nbapp.errors import DataError
from ui import charts, formulas, teaching
from ui.classes import labelled_rows, labels_of
from ui.numbers import number_columns
from ui.state import as_float, is_missing
from ui.text import latex_text, md
from ui.widgets import synced

__all__ = ["TypeView", "CountedView", "Store", "short", "pick_column"]

#: Changes fields of one column's spec in the work: ``store(bins=3)`` (``ui.state.offer_change``
#: bound to the column: a change nbapp refuses is shown under the column's options).
Store = Callable[..., None]


class TypeView:
    """The generic view of feature type ``kind``."""

    #: does the type's column join the Model page's numeric-type comparison (Gaussian, KDE, Poisson)?
    numeric_choice: bool | None = None      # None: when its cells hold numbers
    #: how its fitted density is drawn beside the others in that comparison
    line_dash: str = "solid"
    #: does the type have per-column options (drawn in the Model page's "Column options")?
    has_options: bool = False
    #: does a value grow into many factors when repeated (a document, word counts: the underflow lesson)?
    repeatable: bool = False

    def __init__(self, kind: str) -> None:
        self.kind = kind

    # -- what the block declares ---------------------------------------------------------------------
    @property
    def block(self) -> type:
        return blocks.block_class(self.kind)

    @property
    def title(self) -> str:
        return self.block.title

    @property
    def description(self) -> str:
        return self.block.description

    @property
    def value_kind(self) -> str:
        return self.block.value_kind

    # -- the Data page and the sidebar ---------------------------------------------------------------
    def data_note(self, columns: Sequence[Any]) -> str | None:
        """A sentence under the Data page's types when some columns have this type."""
        return None

    def summary(self, spec: Any) -> str | None:
        """A column's settings in a few words for the sidebar (None: nothing to say)."""
        return None

    # -- the Model page, before the fit --------------------------------------------------------------
    def settings_ui(self, work: Any) -> None:
        """Model-wide settings that concern this type only (drawn when the model has one)."""

    def options_section(self, columns: Sequence[Any], work: Any, frame: pd.DataFrame) -> None:
        """A section of its own for this type's columns' settings (drawn before the fit)."""

    def options_ui(self, column: Any, spec: Any, values: pd.Series, store: Store) -> None:
        """One row of pickers for one column's options (:attr:`has_options`); a choice is stored
        with ``store(option=value)``."""

    # -- the Model page, after the fit ---------------------------------------------------------------
    def fitted_options_ui(self, model: Any, columns: Sequence[Any], frame: pd.DataFrame) -> None:
        """Choices that need the fitted model (the Bernoulli "1")."""

    @property
    def in_cpt_section(self) -> bool:
        """Does the column join the Model page's table of P(x = v | c) with its counts?"""
        return self.value_kind == CATEGORY

    @property
    def in_numeric_choice(self) -> bool:
        return self.value_kind == NUMBER if self.numeric_choice is None else self.numeric_choice

    def word_columns(self, columns: Sequence[Any]) -> list[Any]:
        """The columns that name a block of words (the Model page's top words)."""
        return list(columns) if self.value_kind == TEXT else []

    def words_label(self, spec: Any) -> str:
        """What the top words' probability column holds for one of :meth:`word_columns`."""
        return "P(w | c)"

    def cpt_caption(self, spec: Any) -> str | None:
        """What the Model page says under the column's CPT (its domain, its unseen values)."""
        return None

    def cell_latex(self, model: Any, column: Any, value: Any, cls: Any) -> str:
        """One cell P(x = v | c): its smoothing formula with the model's counts, or (a type without
        counts) its value."""
        left = rf"P({latex_text(column)} = {latex_text(value)} \mid {latex_text(cls)})"
        decimal = float(model.cpt(column).loc[value, cls])
        counts = self.counts_table(model, column)
        if counts is None:
            return rf"{left} = {formulas.num(decimal)}"
        return formulas.cell_latex(counts, value, cls, model.smoothing_of(column), decimal=decimal, left=left)

    def model_section(self, model: Any, columns: Sequence[Any], frame: pd.DataFrame) -> None:
        """The type's own section: its table per column, and the fitted density over the data
        (nothing for a type whose table is in the CPT section)."""
        if self.in_cpt_section:
            return
        st.subheader(f"{self.title}: {self.description}")
        column = pick_column(columns, f"model.{self.kind}_feature")
        try:
            table = labelled_rows(model.parameters(column))      # a row per class
        except DataError:
            table = model.cpt(column)
            table = table.set_axis(labels_of(table.columns), axis=1)
        st.dataframe(table, key=f"model.{self.kind}_table", column_config=number_columns(table))
        figure = self._density_figure(model, column, frame)
        if figure is not None:
            charts.show(st, figure, key=f"model.{self.kind}_chart")

    def _density_figure(self, model: Any, column: Any, frame: pd.DataFrame) -> go.Figure | None:
        x = pd.to_numeric(frame[column], errors="coerce") if column in frame else pd.Series(dtype=float)
        x = x[np.isfinite(x.to_numpy(dtype=float, na_value=np.nan))]
        if x.empty:
            return None
        lo, hi = float(x.min()), float(x.max())
        pad = max((hi - lo) * 0.1, 1e-9)
        grid = np.linspace(lo - pad, hi + pad, 300)
        try:
            density = model.gaussian_density(column, grid)
        except DataError:
            return None
        return charts.density_curves(grid, density, column)

    # -- the Explain page ----------------------------------------------------------------------------
    @property
    def wide_input(self) -> bool:
        """Does the Explain input take a line of its own (a document)?"""
        return self.value_kind == TEXT

    def explain_input(self, model: Any, column: Any, current: Any, key: str, on_set: Callable[[Any], None]) -> Any:
        """The Explain page's input for one value of ``column`` (kept across pages by ``on_set``)."""
        label = md(column)
        if self.value_kind == TEXT:
            text = "" if current is None or is_missing(current) else str(current)
            return synced(st.text_area, label, key=key, value=text, height=100, on_set=on_set)
        options = self._values(model, column)
        if options is not None:
            if current is None or is_missing(current):
                current = options[0]
            if current not in options:
                options.append(current)  # a value the model never saw: explained as "unseen"
            return synced(st.selectbox, label, key=key, value=current, options=options, format_func=str,
                          on_set=on_set)
        default = as_float(current, self._typical(model, column))
        if self.value_kind == COUNT:
            return synced(st.number_input, label, key=key, value=max(default, 0.0), min_value=0.0, step=1.0,
                          format=input_format(default), on_set=on_set)
        return synced(st.number_input, label, key=key, value=default, format=input_format(default), on_set=on_set)

    def form_input(self, model: Any, column: Any, key: str) -> Any:
        """A plain input for one value inside a form (the incremental-learning lesson's new row)."""
        label = md(column)
        if self.value_kind == TEXT:
            return st.text_input(label, value="", key=key)
        options = self._values(model, column)
        if options is not None:
            return st.selectbox(label, options, format_func=str, key=key)
        return st.number_input(label, value=0.0, format="%g", key=key)

    def _values(self, model: Any, column: Any) -> list[Any] | None:
        """The values a category input offers (the model's, in the notes' order), or None."""
        if self.value_kind != CATEGORY:
            return None
        try:
            values = list(model.cpt(column).index)
        except DataError:
            return None
        return teaching.display_values(column, values)

    @staticmethod
    def _typical(model: Any, column: Any) -> float:
        try:
            return float(model.typical_value(column))
        except DataError:
            return 0.0

    def counts_table(self, model: Any, column: Any) -> pd.DataFrame | None:
        """The counts the column's factor is a smoothed cell of (None: not a counted type)."""
        if not self.in_cpt_section:
            return None
        try:
            return model.counts(column)
        except DataError:
            return None

    def counts_key(self, model: Any, column: Any) -> Any:
        """What :meth:`counts_table` depends on: the column (a table shared by a block's columns:
        the block)."""
        return column

    def factor_counts(self, model: Any, column: Any, value: Any, cls: Any, counts: pd.DataFrame | None) -> str:
        """The factor table's "as counted" cell: '3/9', 'N(6; 5.855, 0.02628)'; '' where none."""
        return ""

    def shown_value(self, model: Any, column: Any, value: Any) -> str:
        """The factor table's value cell."""
        return short(value)

    def equations(self, model: Any, column: Any, value: Any, cls: Any) -> list[str]:
        """Explain's equations for the factor of ``value`` in class ``cls``: its density at the
        value where the block has one, with the type's own formula where it writes one
        (``Block.density_latex``)."""
        try:
            density = float(model.gaussian_density(column, np.array([float(value)]))[cls].iloc[0])
        except (DataError, TypeError, ValueError):
            return []
        block = model.block_of(column)
        formula = block.density_latex(column, value, list(model.classes_).index(cls), formulas.num)
        shown = "" if formula is None else f"{formula} = "
        return [rf"p({latex_text(column)} = {formulas.num(float(value))} \mid {latex_text(cls)}) = "
                rf"{shown}{formulas.num(density)}"]

    # -- lessons -------------------------------------------------------------------------------------
    def repeated(self, value: Any, times: int) -> Any:
        """The value as if the document (or the counts) were ``times`` as long (the underflow
        lesson; :attr:`repeatable` types only)."""
        return value


class CountedView(TypeView):
    """A type whose factor is a smoothed cell of its own count table (categorical, Bernoulli,
    discretised, a text column's words): counts next to fractions, the cell's formula."""

    def counts_table(self, model: Any, column: Any) -> pd.DataFrame | None:
        return model.counts(column)

    def model_section(self, model: Any, columns: Sequence[Any], frame: pd.DataFrame) -> None:
        """Nothing of its own: its counts and estimates are in the CPT section (or its words in the
        top-words section)."""

    def factor_counts(self, model: Any, column: Any, value: Any, cls: Any, counts: pd.DataFrame | None) -> str:
        counts = self.counts_table(model, column) if counts is None else counts
        terms = formulas.cell_terms_of(counts, value, cls, model.smoothing_of(column))
        return formulas.unreduced(terms).split(" = ")[0]


def pick_column(columns: Sequence[Any], key: str) -> Any:
    """The column a section shows, chosen in a select box."""
    return st.selectbox("Feature", list(columns), format_func=str, key=key)


def short(v: Any, limit: int = 40) -> str:
    if v is None or (not isinstance(v, str) and pd.isna(v)):
        return ""
    s = value_text(v)
    return s if len(s) <= limit else s[: limit - 1] + "…"

