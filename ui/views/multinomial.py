"""The multinomial type in the app: all count columns form one block; a column's factor is its
θ_ac raised to the count, θ_ac a smoothed cell of the whole block's counts   [seed 000, Eq. 9-11]."""

from __future__ import annotations

from typing import Any, Sequence

import pandas as pd

from ui import formulas
from ui.state import is_missing
from ui.text import fmt_number, latex_text
from ui.views.base import CountedView

__all__ = ["MultinomialView"]


class MultinomialView(CountedView):
    repeatable = True
    @property
    def in_cpt_section(self) -> bool:
        return False

    def word_columns(self, columns: Sequence[Any]) -> list[Any]:
        return list(columns)[:1]        # the first column names the whole block

    def counts_table(self, model: Any, column: Any) -> pd.DataFrame:
        """The whole block's counts (one row per column): θ_ac divides by every count of class c."""
        block = model.block_of(column)     # its fitted counts_: one row per column of the block
        return pd.DataFrame(block.counts_, index=pd.Index(block.columns, dtype=object),
                            columns=model.counts(column).columns)

    def counts_key(self, model: Any, column: Any) -> Any:
        return id(model.block_of(column))

    def factor_counts(self, model: Any, column: Any, value: Any, cls: Any, counts: pd.DataFrame | None) -> str:
        raw = super().factor_counts(model, column, column, cls, counts)
        return f"({raw})^{fmt_number(float(value))}"

    def cell_latex(self, model: Any, column: Any, value: Any, cls: Any) -> str:
        return formulas.cell_latex(self.counts_table(model, column), column, cls, model.smoothing_of(column),
                                   decimal=float(model.cpt(column).iloc[0][cls]),
                                   left=rf"\theta_{{{latex_text(column)}, {latex_text(cls)}}}")

    def repeated(self, value: Any, times: int) -> Any:
        return value if is_missing(value) else value * times
