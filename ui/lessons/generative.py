"""Lesson 6: generative vs discriminative (the Lessons page; numbers from nbapp, drawn here)."""

from __future__ import annotations

from typing import Any

import streamlit as st

import nbapp
import ui
from nbapp.errors import DataError
from ui import charts, lessons
from ui.presentation import frame_ui, projected

ss = st.session_state


def render(model: Any) -> None:
    st.subheader("Generative vs discriminative")
    st.write("Naive Bayes is generative: it estimates p(x | y) p(y) by counting. Logistic regression is "
             "discriminative: it fits p(y | x) directly. Both give a linear log-odds and tend to the same model"
             f"{ui.ref('seed 000, section 3 and Eq. 20')}, but Naive Bayes reaches its asymptote with far "
             "fewer rows and trains faster; with plenty of data logistic regression is often more accurate. "
             "Both are trained here on the same growing subsets of the current data and scored on the same held-out "
             "rows.")
    _generative_fragment(model)


@st.fragment
def _generative_fragment(model: Any) -> None:
    from nbapp.baseline import baseline_encodings

    repeats = st.slider("Repeats (each a new seeded split)", 1, 5, 3, key=lessons.wkey("lc_repeats"))
    try:
        encodings = baseline_encodings(model.features_)   # a column logistic regression cannot read is refused
        curve = lessons.cached_learning_curve(ui.model_key(), model.target_, model.weight_, int(repeats),
                                              _make_model=lambda: nbapp.NaiveBayes(**model.params()),
                                              _frame=lessons.training_data(), _features=dict(model.features_))
    except ImportError:
        st.info("The comparison needs scikit-learn, which is not installed here.")
        return
    except DataError as err:
        ui.show_error(err)
        return
    summary = curve.summary
    largest = summary[summary["train_size"] == summary["train_size"].max()].set_index("model")
    cols = st.columns(len(largest))
    for col, (name, r) in zip(cols, largest.iterrows()):
        col.metric(f"{name}: accuracy at {int(r['train_size'])} rows", f"{r['accuracy_mean']:.3f}")
    st.caption(f"Scored on {curve.test_rows:,} held-out rows per repeat. Logistic regression reads every column "
               "of the model, each as its type says:")
    frame_ui(st, encodings, hide_index=True, key="lessons.lc_encodings")
    for note in curve.notes:
        st.caption(ui.md(note))
    left, right = st.columns(2)
    charts.show(left, projected(lessons.learning_curve_figure(summary, "accuracy", "Accuracy on held-out rows")),
                key="lessons.lc_accuracy")
    charts.show(right, projected(lessons.learning_curve_figure(summary, "fit_seconds", "Training time", log_y=True)),
                key="lessons.lc_time")
    frame_ui(st, summary, hide_index=True, key="lessons.lc_table")
