"""A model file (JSON, ``nbapp.persist``): opened alone it is the work's source (no data: Model
and Explain work from its statistics, smoothed again under the work's settings; Evaluate predicts
a new file); imported beside data it is the work's ``imported`` model, standing in for the fit
until the work changes. One value, one route to a model: :meth:`ModelFile.model_of`."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any, ClassVar

import pandas as pd
import streamlit as st

import nbapp
from nbapp.errors import DataError
from nbapp.persist import model_from_json
from ui.sources.base import CACHE_TTL, MODEL_CACHE_SIZE, Opened, Source
from ui.text import counted, md
from ui.work import Work


def read_model(name: str, data: bytes) -> Any:
    try:
        return model_from_json(data, name=name)      # the library's pickle refusal, size cap and schema
    except DataError as err:
        raise DataError(f"{name!r} is not a model file this app can read: {err}") from err


@st.cache_data(show_spinner=False, max_entries=16, max_size=MODEL_CACHE_SIZE, ttl=CACHE_TTL)
def _refit_stats(key: tuple, _model: Any) -> Any:
    """The statistics of a model opened alone (``_model``) under the work's specs and settings in
    ``key`` (:meth:`Work.model_key`: the file's key first)."""
    _source, _target, feature_items, _weight, config = key
    return nbapp.NaiveBayes.from_settings(dict(feature_items), config).fit_stats(_model.stats_, _model.target_,
                                                                             _model.weight_)


@dataclass(frozen=True)
class ModelFile(Source):
    """A model file: ``model`` the NaiveBayes read from it, ``data`` its bytes (kept for the
    address; neither is compared: ``sha256`` says which file)."""

    model: Any = field(default=None, compare=False, repr=False)
    data: bytes = field(default=b"", compare=False, repr=False)

    has_rows: ClassVar[bool] = False
    types_fixed: ClassVar[bool] = True
    described: ClassVar[str] = "model file"

    @classmethod
    def of(cls, name: str, data: bytes) -> "ModelFile":
        """The model file ``name`` (DataError for a pickle or a file nbapp cannot read)."""
        return cls(name=name, sha256=hashlib.sha256(data).hexdigest(), model=read_model(name, data), data=data)

    # -- opened alone ------------------------------------------------------------------------------
    def open(self) -> Opened:
        model = self.model
        columns = [*model.features_, model.target_]
        work = Work(source=self, target=model.target_, features=dict(model.features_), settings=model.settings)
        return Opened(pd.DataFrame({c: pd.Series(dtype=object) for c in columns}), (), work,
                      {c: "set by the model file" for c in model.features_})

    def model_of(self, work: Work) -> Any:
        """The model in use: imported beside data, the file's model as it was read; opened alone,
        its statistics under the work's specs and settings."""
        if work.imported == self:
            return self.model
        return _refit_stats(work.model_key(), _model=self.model)

    def fit(self, work: Work, frame: pd.DataFrame) -> Any:
        return self.model_of(work)

    def classes(self, work: Work, frame: pd.DataFrame) -> list[Any]:
        return list(self.model.classes_)

    def address(self, store: Any) -> tuple[dict[str, str], str | None]:
        """model=<sha256>&name=<file>: opened alone."""
        if not self.data or not store.keep(self.sha256, self.data):
            return {}, "the model file is too big to keep"
        return {"model": self.sha256, "name": self.name}, None

    def address_beside(self, store: Any) -> dict[str, str]:
        """model=<sha256>&model_name=<file>: imported beside the data (nothing when not kept)."""
        if self.data and store.keep(self.sha256, self.data):
            return {"model": self.sha256, "model_name": self.name}
        return {}

    @classmethod
    def from_address(cls, query: dict[str, str]) -> "ModelFile | None":
        if not query.get("model") or query.get("example") or query.get("data"):
            return None
        from ui.remember import kept_file

        data, name = kept_file(query["model"], query.get("name"), what="model file")
        return cls.of(name, data)

    @classmethod
    def beside(cls, query: dict[str, str]) -> "ModelFile | None":
        """The model file the address imports beside its data, if any."""
        if not query.get("model") or not (query.get("example") or query.get("data")):
            return None
        from ui.remember import kept_file

        data, name = kept_file(query["model"], query.get("model_name"), what="imported model file")
        return cls.of(name, data)

    # -- the pages ---------------------------------------------------------------------------------
    def sidebar_line(self, frame: pd.DataFrame) -> str:
        return f"**Data:** none: the model file {md(self.name)} is open alone"

    def in_use(self) -> str:
        return f"The model file {md(self.name)}"

    def without_rows_ui(self) -> None:
        """A model file open without data: say so, and how to get back to data."""
        import ui

        model = self.model
        st.info(f"No data is in use: the model file {md(self.name)} is open alone (target "
                f"{md(model.target_)}, {counted(len(model.classes_), 'class', 'classes')}, "
                f"{counted(len(model.features_), 'feature')}). The Model "
                "and Explain pages work from the file; Evaluate predicts a new file with the model's columns. "
                "Pick an example or upload a file above to work with data again.")
        st.button("Back to the built-in example", key="data.leave_model",
                  on_click=lambda: ui.load_example_into_state(st.session_state.get("last_example")
                                                              or ui.DEFAULT_EXAMPLE))
