"""The Exercises page's blocks (issue 23, item 3): the sheet's settings (choices of the work, so a
link hands out the same sheet), the questions with an answer field each, graded by
``nbapp.exercises.grade``, and the sheet as Markdown and LaTeX, with and without the answers.

Every question and answer is the library's (:func:`nbapp.exercises.exercises`); this module only
collects input and draws.
"""

from __future__ import annotations

import hashlib
from typing import Any, NamedTuple

import streamlit as st

from nbapp.errors import DataError
from nbapp.exercises import (KINDS, MAX_QUESTIONS, ExerciseSet, Question, exercises, grade, max_answer_chars, to_latex,
                             to_markdown)
from ui.lecture import plain
from ui.presentation import frame_ui
from ui.state import frame, model_key, set_choice, work
from ui.text import file_stem, md
from ui.widgets import show_error, synced

__all__ = ["SheetConfig", "sheet_config_ui", "exercise_set", "questions_ui", "downloads_ui", "KIND_LABELS",
           "N", "SEED", "KINDS_CHOICE"]

#: The work's choices of the sheet (scalars, so the address carries them).
N, SEED, KINDS_CHOICE = "exercises.n", "exercises.seed", "exercises.kinds"
KIND_LABELS = {"cpt": "a CPT cell", "prior": "a prior", "posterior": "a posterior", "winner": "which class wins",
               "unk": "UNK words", "parameters": "number of parameters"}
DEFAULT_N = 6


class SheetConfig(NamedTuple):
    """What the set is drawn from besides the model and its rows."""

    n: int
    seed: int
    kinds: tuple[str, ...]


MAX_SEED = 2**31 - 1


def _whole(value: Any, default: int, low: int, high: int) -> int:
    """A choice read back from the work (a link may carry anything): a whole number within
    [low, high], else ``default``."""
    if isinstance(value, bool) or not isinstance(value, int):
        return default
    return min(max(value, low), high)


def _kinds_of(text: Any) -> tuple[str, ...]:
    """The kinds a choice names ("cpt,prior"); every kind when it names none."""
    chosen = tuple(k for k in str(text or "").split(",") if k in KINDS)
    return chosen or KINDS


def sheet_config_ui(available: tuple[str, ...]) -> SheetConfig:
    """Number of questions, seed and kinds; kept in the work (a link opens the same sheet)."""
    current = work()
    left, middle, right = st.columns([1, 1, 3])
    n = synced(left.number_input, "Questions", key="_exercises_n", value=_whole(current.choice(N), DEFAULT_N, 1,
                                                                               MAX_QUESTIONS),
               min_value=1, max_value=MAX_QUESTIONS, step=1, on_set=lambda v: set_choice(N, int(v)))
    seed = synced(middle.number_input, "Seed", key="_exercises_seed", value=_whole(current.choice(SEED), 0, 0,
                                                                                   MAX_SEED),
                  min_value=0, max_value=MAX_SEED, step=1, on_set=lambda v: set_choice(SEED, int(v)),
                  help="The same seed gives the same sheet: hand out the seed, or this page's address.")
    chosen = [k for k in _kinds_of(current.choice(KINDS_CHOICE)) if k in available] or list(available)
    kinds = synced(right.multiselect, "Kinds of question", key="_exercises_kinds", value=chosen,
                   options=list(available), format_func=KIND_LABELS.get,
                   on_set=lambda v: set_choice(KINDS_CHOICE, ",".join(v)))
    return SheetConfig(int(n), int(seed), tuple(kinds) or tuple(available))


@st.cache_data(show_spinner="Drawing the questions…", max_entries=16)
def _cached_set(key: tuple, config: SheetConfig, title: str, _model: Any, _frame: Any) -> ExerciseSet:
    """The set of ``config`` for the model of ``key`` (ui.state.model_key) and its rows."""
    return exercises(_model, _frame, n=config.n, seed=config.seed, kinds=list(config.kinds), title=title)


def exercise_set(model: Any, config: SheetConfig) -> ExerciseSet | None:
    """The questions of the current model and data; None (with the reason on screen) when there are none."""
    source = work().source
    title = f"Naive Bayes exercises: {source.name}, predicting {model.target_}"
    rows = frame() if len(frame()) else None
    try:
        return _cached_set(model_key(), config, title, _model=model, _frame=rows)
    except DataError as err:
        show_error(err)
        return None


def available_kinds(model: Any) -> tuple[tuple[str, ...], dict[str, str]]:
    """The kinds the model can ask, and why the others cannot be asked (from the library)."""
    rows = frame() if len(frame()) else None
    unavailable = _cached_unavailable(model_key(), _model=model, _frame=rows)
    return tuple(k for k in KINDS if k not in unavailable), unavailable


@st.cache_data(show_spinner=False, max_entries=16)
def _cached_unavailable(key: tuple, _model: Any, _frame: Any) -> dict[str, str]:
    return dict(exercises(_model, _frame, n=1, seed=0).unavailable)


def _answer_key(exercise: ExerciseSet, i: int) -> str:
    """The answer field of question ``i`` of this set: a new set starts with empty fields."""
    digest = hashlib.sha256("\n".join(q.text for q in exercise.questions).encode()).hexdigest()[:12]
    return f"exercises.answer::{digest}::{i}"


def questions_ui(exercise: ExerciseSet) -> None:
    """Each question with its answer field; a typed answer is graded and its worked line shown."""
    for note in exercise.notes:
        st.info(md(note))
    if exercise.data is not None:
        with st.expander(f"The sheet's data: {len(exercise.data)} of {exercise.data_rows} rows, numbered as the "
                         "questions number them"):
            frame_ui(st, exercise.data)
    right = 0
    for i, q in enumerate(exercise.questions, start=1):
        with st.container(border=True):
            st.markdown(f"**{i}.** {md(plain(q.text))}")
            typed = st.text_input("Your answer", key=_answer_key(exercise, i), placeholder=_placeholder(q),
                                  max_chars=max_answer_chars(q))        # the most grade() reads (issue 31, item 1)
            if typed.strip():
                right += _verdict_ui(q, typed)
    answered = sum(1 for i in range(1, len(exercise.questions) + 1)
                   if str(st.session_state.get(_answer_key(exercise, i), "")).strip())
    if answered:
        st.metric("Right so far", f"{right} of {answered} answered ({len(exercise.questions)} questions)")


def _placeholder(q: Question) -> str:
    return {"winner": "a class", "unk": "words, separated by commas (or none)",
            "parameters": "a whole number"}.get(q.kind, "a fraction (3/4), a decimal (0.75) or a percentage")


def _verdict_ui(q: Question, typed: str) -> bool:
    verdict = grade(q, typed)
    if verdict.correct:
        st.success(f"Right: {md(verdict.given)} (the answer is {md(verdict.expected)}).", icon=":material/check:")
    else:
        st.error(f"Not right: {md(verdict.given)}; the answer is {md(verdict.expected)}.", icon=":material/close:")
    if verdict.note:
        st.caption(md(verdict.note))
    st.markdown(f"*Worked:* {md(plain(verdict.worked))}")
    return verdict.correct


def downloads_ui(exercise: ExerciseSet) -> None:
    """The sheet as Markdown and LaTeX, for the students (questions) and the teacher (answers)."""
    stem = f"exercises_{file_stem(work().source.name)}_seed{exercise.seed}"
    row = st.container(horizontal=True)       # each button as wide as its label, wrapped to a new line
    for label, data, name, mime in [
        ("Sheet (Markdown)", to_markdown(exercise), f"{stem}.md", "text/markdown"),
        ("Sheet with answers (Markdown)", to_markdown(exercise, answers=True), f"{stem}_answers.md", "text/markdown"),
        ("Sheet (LaTeX)", to_latex(exercise), f"{stem}.tex", "application/x-tex"),
        ("Sheet with answers (LaTeX)", to_latex(exercise, answers=True), f"{stem}_answers.tex", "application/x-tex"),
    ]:
        row.download_button(label, data, file_name=name, mime=mime, key=f"exercises.download::{name}",
                             icon=":material/download:")
