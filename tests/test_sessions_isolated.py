"""Many users at once (issue 15): eight sessions, each uploading its own file and fitting, never
see another's data, columns or model, though they share the process and its caches. (AppTest
is not thread-safe, so the sessions are interleaved here; tests/e2e/test_concurrency.py runs
eight real browser sessions against one server at once.)"""

from __future__ import annotations

import streamlit as st

from apptest_helpers import start, upload


def _csv(i: int) -> bytes:
    rows = "\n".join(f"v{i}_{r % 3},{r % 5 + i},c{i}_{r % 2}" for r in range(40))
    return f"colour_{i},size_{i},label_{i}\n{rows}\n".encode()


def _session(i: int):
    at = upload(start(), f"user{i}.csv", _csv(i), check=False)
    if at.selectbox(key="_data_target").value != f"label_{i}":
        at.selectbox(key="_data_target").set_value(f"label_{i}").run()
    return at


def _own(at, i: int) -> None:
    assert not at.exception, [e.value for e in at.exception]
    model = at.session_state["model"]
    assert model.target_ == f"label_{i}"
    assert set(model.features_) <= {f"colour_{i}", f"size_{i}"}
    assert model.classes_ == [f"c{i}_0", f"c{i}_1"]
    assert list(at.session_state["frame"].columns) == [f"colour_{i}", f"size_{i}", f"label_{i}"]


def test_eight_interleaved_sessions_keep_their_own_data_and_models():
    st.cache_data.clear()
    sessions = [_session(i) for i in range(8)]
    for i, at in enumerate(sessions):      # every session re-runs after all the others loaded
        at.run()
        _own(at, i)
