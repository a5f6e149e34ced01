"""Issue 13, the app side: every class visible on Explain, work that survives a reload, models
that travel without their data, and words for analysts (AppTest; the browser journey is in
tests/e2e/test_analyst_journey.py)."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from apptest_helpers import import_model, no_exception, open_page, start, tables, texts, unescape, upload
from apptest_helpers import clear_caches  # noqa: F401 (autouse fixture)
import drawn_svg
from ui.sources import Example, LocalPath, ModelFile, Table


def metric_labels(at: AppTest) -> list[str]:
    return [unescape(m.label) for m in at.metric]


def weather_like(n_classes: int, rows_per_class: int = 6, seed: int = 0, spread: float = 1.0) -> bytes:
    """Classes named so that the most frequent one sorts last ("zsun"), one numeric and one
    categorical feature that separate the classes."""
    rng = np.random.default_rng(seed)
    names = [f"c{i:02d}" for i in range(n_classes - 1)] + ["zsun"]
    rows = []
    for i, name in enumerate(names):
        n = rows_per_class * (3 if name == "zsun" else 1)
        for _ in range(n):
            rows.append({"temp": round(float(rng.normal(10 * i, spread)), 3), "sky": f"s{i % 7}", "weather": name})
    return pd.DataFrame(rows).to_csv(index=False).encode()


def plot_titles(at: AppTest) -> list[str]:
    """The titles of the charts on screen: plotly's, and the log-odds waterfall's (ui/svg_charts.py)."""
    drawn = [drawn_svg.title(svg) for svg in drawn_svg.drawn(at)]
    return [json.loads(el.proto.spec)["layout"].get("title", {}).get("text", "") for el in at.get("plotly_chart")] + drawn


# -- every class visible -----------------------------------------------------------------------------


def test_the_predicted_class_is_shown_even_when_it_sorts_last():
    at = upload(start(), "weather.csv", weather_like(5))
    open_page(at, "Explain")
    # the last row of the data is "zsun", the fifth class alphabetically
    at.session_state["explain.rows"] = {"selection": {"rows": [29], "columns": [], "cells": []}}
    at.run()
    assert not at.exception
    assert at.metric[0].value == "zsun"
    assert metric_labels(at)[1] == "P(zsun | x)"
    products = [s for s in texts(at, "latex") if r"\prod_a P(x_a \mid" in s and "= " in s]
    assert any(r"P(\text{zsun})\prod_a" in s for s in products), products


def test_nineteen_classes_are_all_listed_with_the_prediction_first():
    at = upload(start(), "many.csv", weather_like(19))
    open_page(at, "Explain")
    at.session_state["explain.rows"] = {"selection": {"rows": [7], "columns": [], "cells": []}}
    at.run()
    posterior = [t for t in tables(at) if "P(c | x)" in t.columns][0]
    assert len(posterior) == 19
    assert posterior["class"].iloc[0] == at.metric[0].value == "c01"
    assert posterior["P(c | x)"].is_monotonic_decreasing
    assert posterior["P(c | x)"].sum() == pytest.approx(1.0)


def test_the_log_odds_chart_follows_a_newly_clicked_row():
    at = upload(start(), "weather.csv", weather_like(5))
    open_page(at, "Explain")
    at.session_state["explain.rows"] = {"selection": {"rows": [0], "columns": [], "cells": []}}
    at.run()
    assert any(t.startswith("Contributions to log P(c00 | x) / P(") for t in plot_titles(at)), plot_titles(at)
    at.session_state["explain.rows"] = {"selection": {"rows": [29], "columns": [], "cells": []}}
    at.run()
    assert any(t.startswith("Contributions to log P(zsun | x) / P(") for t in plot_titles(at)), plot_titles(at)


def test_one_class_against_the_rest_gives_the_exact_total():
    at = upload(start(), "weather.csv", weather_like(5, spread=12.0))
    open_page(at, "Explain")
    at.radio(key="_explain_pair_mode").set_value("rest").run()
    assert not at.exception
    label = [m for m in at.metric if m.label.startswith("log P(")][0]
    posterior = [t for t in tables(at) if "P(c | x)" in t.columns][0]
    p = posterior["P(c | x)"].to_numpy()
    assert 0 < p[0] < 1
    assert float(label.value) == pytest.approx(np.log(p[0] / p[1:].sum()), rel=1e-4, abs=1e-4)


# -- models that travel ------------------------------------------------------------------------------


def tennis_model(**changes) -> "nbapp.NaiveBayes":
    import nbapp
    from nbapp.examples import example, load_example

    ex = example("tennis14")
    return nbapp.NaiveBayes(features=ex.features, **{"alpha": ex.alpha, **changes}).fit(
        load_example("tennis14"), target=ex.target)


def import_json(at: AppTest, name: str, model) -> AppTest:
    return no_exception(import_model(open_page(at, "Model"), name, model))


def test_an_imported_model_sets_every_input_to_its_own_values():
    at = import_json(start(), "l2.json", tennis_model(alpha=2.0, priors="uniform", prior_alpha=0.5))
    assert not at.error, [e.value for e in at.error]
    config = at.session_state["work"].settings
    assert (config.alpha, config.priors, config.prior_alpha) == (2.0, "uniform", 0.5)
    assert at.number_input(key="_model_alpha").value == 2.0
    assert at.radio(key="_model_priors").value == "uniform"
    assert any("Lidstone l = 2" in s for s in texts(at, "markdown")), "the sidebar shows the model's l"
    # the settings fit the same model again: going back to fitting changes no number
    imported = at.session_state["work"].imported.model
    at.session_state["work"] = at.session_state["work"].replace(imported=None)
    open_page(at, "Model")
    refit = at.session_state["model"]
    assert refit.cpt("Outlook").equals(imported.cpt("Outlook"))
    assert refit.priors_.equals(imported.priors_)


def test_an_imported_m_estimate_model_sets_the_m_estimate_inputs():
    import nbapp

    at = import_json(start(), "m.json", tennis_model(smoothing=nbapp.MEstimate(3.0, p=0.25)))
    config = at.session_state["work"].settings
    assert config.smoothing == nbapp.MEstimate(3.0, p=0.25)
    assert at.number_input(key="_model_m").value == 3.0


def test_a_model_opens_alone_and_predicts_a_new_file_without_its_data():
    at = start()
    at.selectbox(key="_data_example").set_value("gender").run()
    import_json(at, "tennis.json", tennis_model(alpha=1.0))
    assert isinstance(at.session_state["work"].source, ModelFile)
    assert any("open without data" in s for s in texts(at, "info"))
    open_page(at, "Explain")
    assert at.metric[0].value in ("Yes", "No")
    open_page(at, "Evaluate")
    assert any("open without its data" in s for s in texts(at, "info"))
    days = b"Outlook,Temperature,Humidity,Wind\nSunny,Hot,High,Weak\nOvercast,Cool,Normal,Strong\n"
    at.file_uploader(key="eval.batch").set_value(("days.csv", days, "text/csv")).run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    predictions = [d.value for d in at.dataframe if "predicted" in d.value.columns][0]
    expected = tennis_model(alpha=1.0).predict_proba(pd.read_csv(__import__("io").BytesIO(days)))
    assert np.allclose(predictions["P(Yes)"].to_numpy(dtype=float), expected["Yes"].to_numpy())
    open_page(at, "Data")
    assert any("No data is in use" in s for s in texts(at, "info"))


def test_a_model_alone_is_smoothed_again_from_its_own_counts():
    at = start()
    at.selectbox(key="_data_example").set_value("gender").run()
    import_json(at, "tennis.json", tennis_model(alpha=0.0))
    at.number_input(key="_model_alpha").set_value(1.0).run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    model = at.session_state["model"] if at.session_state["work"].imported is None else None
    assert model is not None
    assert model.cpt("Outlook").equals(tennis_model(alpha=1.0).cpt("Outlook"))


@pytest.mark.parametrize("key", ["tennis14", "gender", "sms_spam", "bikes", "penguins"])
def test_every_page_runs_on_a_model_opened_alone(key):
    import nbapp
    from nbapp.examples import example, load_example

    ex = example(key)
    model = nbapp.NaiveBayes(features=ex.features, alpha=max(ex.alpha, 1.0)).fit(
        load_example(key), target=ex.target, weight=ex.weight)
    at = upload(start(), "other.csv", b"a,b\n1,x\n2,y\n3,x\n")
    import_json(at, f"{key}.json", model)
    assert isinstance(at.session_state["work"].source, ModelFile)
    for name in ("Data", "Model", "Explain", "Evaluate"):
        open_page(at, name)
    for page in ("pages/6_Text.py", "pages/5_Lessons.py"):
        at.switch_page(page).run()
        assert not at.exception, [e.value for e in at.exception]


# -- work that survives a reload ---------------------------------------------------------------------


WEATHER = (b"outlook,temp,humidity,windy,play\nsunny,85,85,false,no\nsunny,80,90,true,no\n"
           b"overcast,83,86,false,yes\nrainy,70,96,false,yes\nrainy,68,80,false,yes\n"
           b"rainy,65,70,true,no\novercast,64,65,true,yes\nsunny,72,95,false,no\n")


def reload(at: AppTest) -> AppTest:
    """A new session opened on the address the old one wrote (what a browser reload does)."""
    params = {k: at.query_params[k] for k in at.query_params}
    assert params, "the work is in the address"
    return start(query={k: v[0] if isinstance(v, list) else v for k, v in params.items()})


def test_a_reload_restores_an_example_with_its_types_and_settings():
    at = open_page(start(), "Model")
    at.number_input(key="_model_alpha").set_value(2.0).run()
    open_page(at, "Data")
    at.selectbox(key="_type::0").set_value("ignore").run()
    column = next(iter(at.session_state["work"].kinds))
    fresh = reload(at)
    assert fresh.session_state["work"].source.example == "tennis14"
    assert fresh.session_state["work"].settings.alpha == 2.0
    assert fresh.session_state["work"].kinds[column] == "ignore"
    assert fresh.session_state["work"].settings == at.session_state["work"].settings


def test_a_reload_restores_an_upload_its_target_and_types():
    at = upload(start(), "weather.csv", WEATHER)
    at.selectbox(key="_data_target").set_value("windy").run()
    at.selectbox(key="_type::0").set_value("ignore").run()
    fresh = reload(at)
    assert not any("Not everything" in w.value for w in fresh.warning)
    ss = fresh.session_state
    assert ss["work"].source.name == "weather.csv" and isinstance(ss["work"].source, Table)
    assert ss["frame"].equals(at.session_state["frame"])
    assert ss["work"].target == "windy"
    assert ss["work"].kinds == at.session_state["work"].kinds


def test_a_reload_restores_a_model_opened_alone_and_its_settings():
    at = upload(start(), "other.csv", b"a,b\n1,x\n2,y\n3,x\n")
    import_json(at, "tennis.json", tennis_model(alpha=0.0))
    at.number_input(key="_model_alpha").set_value(1.5).run()
    fresh = reload(at)
    assert isinstance(fresh.session_state["work"].source, ModelFile)
    assert fresh.session_state["work"].settings.alpha == 1.5
    open_page(fresh, "Explain")
    assert fresh.metric[0].value in ("Yes", "No")


def test_a_link_to_a_file_no_longer_kept_says_so_and_shows_the_example():
    at = start(query={"data": "0" * 64, "name": "gone.csv", "reader": "table"})
    warnings = texts(at, "warning")
    assert any("gone.csv" in w and "upload it again" in w for w in warnings), warnings
    assert at.session_state["work"].source.example == "tennis14"


@pytest.mark.parametrize("data", ["../../etc/passwd", "/etc/passwd", "A" * 64, "0" * 63])
def test_the_address_names_no_path_only_a_kept_hash(data):
    at = start(query={"data": data, "name": "x.csv"})
    assert at.session_state["work"].source.example == "tennis14"
    assert any("no longer kept" in w for w in texts(at, "warning"))


def test_the_file_store_is_bounded_oldest_out_first():
    from ui.remember import FileStore

    store = FileStore(max_bytes=10)
    assert store.keep("a" * 64, b"12345") and store.keep("b" * 64, b"12345")
    assert store.keep("c" * 64, b"123")
    assert store.get("a" * 64) is None and store.get("b" * 64) == b"12345"
    assert not store.keep("d" * 64, b"x" * 11), "a file bigger than the store is not kept"


def test_damaged_or_inflating_work_in_the_address_is_refused():
    import base64
    import zlib

    from nbapp.errors import DataError
    from ui.remember import pack, unpack

    assert unpack(pack({"a": [1, 2]})) == {"a": [1, 2]}
    bomb = base64.urlsafe_b64encode(zlib.compress(b"[" + b"0," * 5_000_000 + b"0]", 9)).decode()
    with pytest.raises(DataError, match="too long"):
        unpack(bomb)
    with pytest.raises(DataError, match="damaged"):
        unpack("not-base64-zlib")
    at = start(query={"example": "tennis14", "work": "garbage"})
    assert any("damaged" in w for w in texts(at, "warning"))


# -- a failed upload ---------------------------------------------------------------------------------


def test_a_failed_upload_hides_the_old_data_and_says_which_data_is_in_use():
    at = upload(start(), "broken.xlsx", b"this is not a spreadsheet",
                "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")
    assert at.error
    said = " ".join(texts(at, "warning"))
    assert "Nothing of broken.xlsx was loaded" in said and "tennis14.csv" in said
    assert not [d for d in at.dataframe if "Outlook" in d.value.columns], "the example's table is out of view"
    assert any("broken.xlsx failed" in e for e in texts(at, "warning")), "the sidebar says so on every page"
    at.button(key="data.keep_after_error").click().run()
    assert [d for d in at.dataframe if "Outlook" in d.value.columns]


# -- words for analysts ------------------------------------------------------------------------------


def test_several_columns_get_one_type_at_once():
    at = upload(start(), "weather.csv", WEATHER)
    at.multiselect(key="data.batch_columns").set_value(["temp", "humidity"])
    at.selectbox(key="data.batch_type").set_value("categorical")
    at.button(key="data.batch_set").click().run()
    assert not at.exception
    types = at.session_state["work"].kinds
    assert types["temp"] == types["humidity"] == "categorical"
    assert at.session_state["model"].features_["temp"].kind == "categorical"


def test_a_chosen_pair_is_drawn_until_a_new_row_is_clicked():
    at = upload(start(), "weather.csv", weather_like(5, spread=12.0))
    open_page(at, "Explain")
    at.radio(key="_explain_pair_mode").set_value("pair").run()
    at.selectbox(key="explain.wf_a").set_value("c02").run()
    at.selectbox(key="explain.wf_b").set_value("c03").run()
    assert "Contributions to log P(c02 | x) / P(c03 | x)" in plot_titles(at)
    at.session_state["explain.rows"] = {"selection": {"rows": [29], "columns": [], "cells": []}}
    at.run()
    assert at.radio(key="_explain_pair_mode").value == "runner_up"
    predicted = at.metric[0].value
    assert any(t.startswith(f"Contributions to log P({predicted} | x) / P(") for t in plot_titles(at))


def test_an_imported_pooled_variance_model_shows_its_variance_setting():
    import nbapp
    from nbapp.examples import example, load_example

    ex = example("gender")
    model = nbapp.NaiveBayes(features=ex.features, variance="pooled", var_smoothing=1e-6).fit(
        load_example("gender"), target=ex.target)
    at = start()
    at.selectbox(key="_data_example").set_value("gender").run()
    import_json(at, "pooled.json", model)
    assert at.radio(key="_model_variance").value == "pooled"
    assert at.number_input(key="_model_var_smoothing").value == pytest.approx(1e-6)


def variance_options(at: AppTest) -> list[str]:
    return list(at.radio(key="_model_variance").options)


def test_lecture_references_show_for_examples_hide_for_uploads_and_follow_the_toggle():
    at = start()
    at.selectbox(key="_data_example").set_value("gender").run()
    open_page(at, "Model")
    assert any("seed 000, Eq. 14" in o for o in variance_options(at))
    at = upload(start(), "weather.csv", WEATHER)
    open_page(at, "Model")
    assert variance_options(at), "the upload has Gaussian columns"
    assert not any("seed" in o for o in variance_options(at))
    at.toggle(key="_lecture_refs").set_value(True).run()
    assert any("seed 000, Eq. 14" in o for o in variance_options(at))
    open_page(at, "Explain")          # the choice is kept for every page
    assert at.toggle(key="_lecture_refs").value is True
    assert any("seed 000, Eq. 22" in c for c in texts(at, "caption"))


def test_library_sentences_lose_their_references_when_hidden():
    at = upload(start(), "weather.csv", WEATHER)
    open_page(at, "Explain")
    at.checkbox(key="_qm::0").check().run()
    assert any(n.endswith("is missing: no value: left out of the product.") for n in texts(at, "info")), \
        texts(at, "info")
    assert not any("seed 0" in s for kind in ("caption", "info", "markdown", "warning") for s in texts(at, kind))


def test_messages_show_numbers_as_numbers_not_python_types():
    from nbapp.errors import shown

    assert shown(np.int64(2013)) == "2013" and shown(np.float64(2.5)) == "2.5" and shown("a") == "'a'"
    rows = [(2013, 0 if i % 2 == 0 else 1 + i % 3, "sun" if i % 3 else "rain", "yes" if i % 2 == 0 else "no")
            for i in range(8)]
    csv = pd.DataFrame(rows, columns=["year", "code", "sky", "play"]).to_csv(index=False).encode()
    at = upload(start(), "years.csv", csv)
    reasons = at.session_state["type_reasons"]
    assert reasons["year"] == "constant (always 2013) -> ignore"
    at.selectbox(key="_type::1").set_value("categorical").run()   # code 0 only ever with "yes"
    open_page(at, "Model")
    at.number_input(key="_model_alpha").set_value(0.0).run()
    open_page(at, "Explain")
    at.session_state["explain.rows"] = {"selection": {"rows": [0], "columns": [], "cells": []}}
    at.run()
    notes = texts(at, "info")
    assert any("P(code = 0 | class) = 0 for class 'no'" in n for n in notes), notes


def test_a_reload_restores_an_imported_model_beside_its_data():
    at = import_json(start(), "l2.json", tennis_model(alpha=2.0))
    assert isinstance(at.session_state["work"].source, Example)
    fresh = reload(at)
    assert fresh.session_state["work"].imported.name == "l2.json"
    assert fresh.session_state["work"].imported.sha256 == at.session_state["work"].imported.sha256
    assert fresh.session_state["work"].settings.alpha == 2.0


def test_leaving_a_model_opened_alone_returns_to_the_example_of_before():
    at = start()
    at.selectbox(key="_data_example").set_value("gender").run()
    import_json(at, "tennis.json", tennis_model())
    open_page(at, "Data")
    at.button(key="data.leave_model").click().run()
    assert at.session_state["work"].source.example == "gender"


def test_a_local_path_is_never_written_into_the_address_and_the_sidebar_says_so(tmp_path, monkeypatch):
    monkeypatch.setenv("NBAPP_DATA_ROOT", str(tmp_path))
    path = tmp_path / "weather.csv"
    path.write_bytes(WEATHER)
    at = start()
    at.radio(key="_data_mode").set_value("Open a local path").run()
    at.text_input(key="_data_path").set_value(str(path)).run()
    at.button(key="data.open_path").click().run()
    assert isinstance(at.session_state["work"].source, LocalPath)
    assert not any(str(tmp_path) in str(at.query_params.get(k, "")) for k in at.query_params)
    assert any("A reload of this page loses this work" in w for w in texts(at, "warning"))


def test_an_imported_model_brings_its_bernoulli_positives_and_m_estimate_form():
    import nbapp

    ex_model = nbapp.NaiveBayes(
        features={"Outlook": "categorical", "Temperature": "categorical", "Humidity": "categorical",
                  "Wind": nbapp.Bernoulli(positive="Weak")},
        smoothing=nbapp.MEstimate(2.0, p=0.3, normalised=True))
    from nbapp.examples import load_example

    ex_model.fit(load_example("tennis14"), target="Play")
    at = import_json(start(), "weak.json", ex_model)
    work = at.session_state["work"]
    assert {c: s.positive for c, s in work.specs.items() if s.kind == "bernoulli"} == {"Wind": "Weak"}
    assert work.settings.smoothing == nbapp.MEstimate(2.0, p=0.3, normalised=True)
    fresh = reload(at)
    assert fresh.session_state["work"].settings == work.settings
    assert fresh.session_state["work"].specs == work.specs


def test_a_reload_restores_the_chosen_sheet_of_a_workbook():
    import io

    buffer = io.BytesIO()
    with pd.ExcelWriter(buffer) as writer:
        pd.DataFrame({"note": ["a", "b"]}).to_excel(writer, sheet_name="About", index=False)
        pd.read_csv(io.BytesIO(WEATHER)).to_excel(writer, sheet_name="Days", index=False)
    at = upload(start(), "book.xlsx", buffer.getvalue(),
                "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")
    at.selectbox(key="_data_sheet").set_value("Days").run()
    assert at.session_state["work"].source.sheet == "Days"
    fresh = reload(at)
    assert fresh.session_state["work"].source.sheet == "Days"
    assert fresh.session_state["frame"].equals(at.session_state["frame"])


def test_an_imported_model_brings_its_gaussian_epsilon_mode():
    import nbapp
    from nbapp.examples import example, load_example

    ex = example("gender")
    model = nbapp.NaiveBayes(features=ex.features, var_smoothing_mode="per_feature").fit(
        load_example("gender"), target=ex.target)
    at = start()
    at.selectbox(key="_data_example").set_value("gender").run()
    import_json(at, "eps.json", model)
    assert at.session_state["work"].settings.var_smoothing_mode == "per_feature"
