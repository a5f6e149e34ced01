"""Sources whose rows stay where they are stored (files on the server, a database table): the pages
show a sample, while the statistics are counted where the rows are, once per statistics key, and
Evaluate cross-validates there too. What is common to them is here; each says how it counts
(:meth:`CountedWhereStored.count`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

import pandas as pd
import streamlit as st

from ui.sources.base import Source
from ui.work import Work

__all__ = ["CountedWhereStored"]


@dataclass(frozen=True)
class CountedWhereStored(Source):
    """A source counted where its rows are. The model of the session is kept under the session key
    "stored_models" (one such model per session at a time): its statistics are counted again only
    when the work's statistics key changes; a change of smoothing or priors rebuilds the model
    from them without reading the rows."""

    sampled: ClassVar[bool] = True
    folds_where_stored: ClassVar[bool] = True

    def count(self, model: Any, work: Work) -> tuple[Any, int]:
        """Fit ``model`` on every row where they are (with a progress bar): the model and the rows
        it saw."""
        raise NotImplementedError

    def fit(self, work: Work, frame: pd.DataFrame) -> Any:
        store = st.session_state.setdefault("stored_models", {})
        if store.get("stats_key") != work.stats_key():
            store.clear()
            model, rows = self.count(work.make_model(), work)
            store.update(stats_key=work.stats_key(), rows=rows, model_key=work.model_key(), model=model)
        elif store["model_key"] != work.model_key():
            base = store["model"]
            store.update(model_key=work.model_key(),
                         model=work.make_model().fit_stats(base.stats_, base.target_, base.weight_))
        return store["model"]

    def _counted(self, work: Work) -> dict[str, Any] | None:
        store = st.session_state.get("stored_models", {})
        return store if store.get("stats_key") == work.stats_key() else None

    def rows_fitted(self, work: Work) -> int | None:
        counted = self._counted(work)
        return None if counted is None else counted["rows"]

    def rows_seen(self, work: Work) -> str:
        """"all 1,000,000 rows" once counted, else "every row": what the model saw, in words."""
        rows = self.rows_fitted(work)
        return f"all {rows:,} rows" if rows is not None else "every row"

    def classes(self, work: Work, frame: pd.DataFrame) -> list[Any]:
        """The fitted model's classes (every row's), else the sample's."""
        counted = self._counted(work)
        return list(counted["model"].classes_) if counted is not None else super().classes(work, frame)

    def opened(self) -> None:
        """Opened (again): the next fit reads the rows now, not a model of an earlier opening."""
        st.session_state.pop("stored_models", None)
