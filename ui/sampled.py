"""The rows the Model page's plots and checks are drawn from: every row up to
:data:`MAX_SHOWN_ROWS`, a seeded sample beyond, said in a caption under the plot. Buttons that
cross-validate use every row."""

from __future__ import annotations

import pandas as pd
import streamlit as st

__all__ = ["MAX_SHOWN_ROWS", "shown_rows", "sample_caption"]

# A page of a 1,000,000-row upload opens in about a second with its plots drawn from this many rows.
MAX_SHOWN_ROWS = 100_000


def shown_rows(df: pd.DataFrame) -> pd.DataFrame:
    return df if len(df) <= MAX_SHOWN_ROWS else df.sample(n=MAX_SHOWN_ROWS, random_state=0)


def sample_caption(df: pd.DataFrame) -> None:
    if len(df) > MAX_SHOWN_ROWS:
        st.caption(f"Drawn from a random sample of {MAX_SHOWN_ROWS:,} of the {len(df):,} rows.")
