"""Saving and loading the model as a file on the Model page: the versioned JSON download, and
an upload that opens a model file (never a pickle)."""

from __future__ import annotations

from typing import Any

import streamlit as st

from nbapp.errors import DataError
from ui.state import data_stem, import_model, model_key, shared_download, work
from ui.text import md

__all__ = ["model_file_ui"]


def model_file_ui(model: Any) -> None:
    ss = st.session_state
    st.subheader("Save or load the model")
    left, right = st.columns(2)
    try:
        model_json = shared_download("model_json", model_key(), lambda: model.to_json().encode("utf-8"))
    except DataError as err:          # a file the loader would refuse is never offered
        left.error(md(err))
    else:
        left.download_button("Download the model (JSON)", model_json,
                             file_name=f"{data_stem()}_naive_bayes.json", mime="application/json",
                             key="model.json_download")
    left.caption("A versioned JSON file: counts and settings, never pickle (pickles can run code).")
    upload = right.file_uploader("Load a model file (JSON)", type=["json", "pkl", "pickle", "joblib"],
                                 key="model.json_upload")
    if upload is not None and ss.get("model_upload_seen") != upload.file_id:
        ss["model_upload_seen"] = upload.file_id
        try:
            import_model(upload.name, upload.getvalue())
        except DataError as err:
            right.error(md(err))
        else:
            st.rerun()
    if not work().source.has_rows:
        right.info(f"The model file {md(work().source.name)} is open without data: the settings above "
                   "smooth its own counts again; Evaluate predicts a new file with it.")
    elif work().imported is not None:
        right.info(f"Using the model imported from {md(work().imported.name)} (target "
                   f"{md(work().imported.model.target_)}); change any setting or the data to go back to fitting.")
