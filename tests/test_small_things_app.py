"""Small things a new user met (issue 25, item 6): tiny probabilities in scientific notation,
nouns that agree with their number, the Data page naming the file in use, the logistic
regression toggle kept across pages, the model file named after the data, and no "Tune on the
development data" for a model opened alone."""

from __future__ import annotations

import json
import re

import numpy as np
import pandas as pd
import pytest

import nbapp
from nbapp.examples import example, load_example
from ui.text import counted

from apptest_helpers import ROOT, import_model, no_exception, open_page, start, texts, upload
from apptest_helpers import clear_caches, downloads  # noqa: F401 (fixtures)
from ui.sources import ModelFile

WEATHER = b"outlook,temp,humidity,windy,play\nsunny,85,85,false,no\nsunny,80,90,true,no\n" \
          b"overcast,83,86,false,yes\nrainy,70,96,false,yes\nrainy,68,80,false,yes\n" \
          b"rainy,65,70,true,no\novercast,64,65,true,yes\nsunny,72,95,false,no\n"


def test_counted_makes_the_noun_agree():
    assert counted(1, "feature") == "1 feature"
    assert counted(2, "feature") == "2 features"
    assert counted(1, "class", "classes") == "1 class" and counted(3, "class", "classes") == "3 classes"
    assert counted(1500, "row") == "1,500 rows"


def test_one_feature_is_one_feature_on_the_data_page():
    at = start("bikes")                                   # the bikes example models one column, color
    shown = " ".join(texts(at, "success"))
    assert "2 classes, 1 feature." in shown and "1 features" not in shown


def test_batch_predictions_show_tiny_probabilities_in_scientific_notation():
    at = open_page(start(), "Evaluate")
    at.file_uploader(key="eval.batch").set_value(("days.csv", (ROOT / "sample_data" / "tennis14.csv").read_bytes(),
                                                  "text/csv")).run()
    no_exception(at)
    grid = [d for d in at.dataframe if "predicted" in d.value.columns and "P(No)" in d.value.columns][-1]
    config = json.loads(grid.proto.columns)
    for column in ("P(No)", "P(Yes)"):
        assert config[column]["type_config"]["format"] == "%.4g"    # 1.234e-12, not 0.000000000


def test_the_data_page_says_which_upload_is_in_use_when_you_come_back():
    at = upload(start(), "weather.csv", WEATHER)
    open_page(at, "Model")
    open_page(at, "Data")
    assert any("Loaded weather.csv" in s and "It is the data in use" in s for s in texts(at, "success"))


def test_the_logistic_regression_toggle_stays_on_when_you_leave_evaluate():
    at = open_page(start(), "Evaluate")
    at.toggle(key="eval.compare").set_value(True).run()
    no_exception(at)
    open_page(at, "Model")
    open_page(at, "Evaluate")
    assert at.toggle(key="eval.compare").value is True
    assert any("Logistic regression" in " ".join(map(str, d.value.index)) for d in at.table)


def test_the_model_file_is_named_after_the_data(downloads):
    open_page(start(), "Model")
    assert downloads["Download the model (JSON)"][1] == "tennis14_naive_bayes.json"


def test_a_model_opened_alone_offers_no_tuning_on_development_data():
    ex = example("tennis14")
    model = nbapp.NaiveBayes(features=ex.features, alpha=1.0).fit(load_example("tennis14"), target=ex.target)
    at = upload(start(), "other.csv", b"a,b\n1,x\n2,y\n3,x\n")
    no_exception(import_model(open_page(at, "Model"), "tennis14_naive_bayes.json", model))
    assert isinstance(at.session_state["work"].source, ModelFile)
    open_page(at, "Evaluate")
    assert not [b for b in at.button if b.key == "eval.three_run"]
    open_page(at, "Data")
    open_page(at, "Model")


def test_a_model_opened_alone_is_downloaded_under_its_own_name(downloads):
    ex = example("tennis14")
    model = nbapp.NaiveBayes(features=ex.features, alpha=1.0).fit(load_example("tennis14"), target=ex.target)
    at = upload(start(), "other.csv", b"a,b\n1,x\n2,y\n3,x\n")
    no_exception(import_model(open_page(at, "Model"), "days_naive_bayes.json", model))
    no_exception(at.run())
    assert downloads["Download the model (JSON)"][1] == "days_naive_bayes.json"


def test_a_smoothing_change_does_not_redo_the_naive_assumption_check(monkeypatch):
    import nbapp.dependence

    calls = []
    original = nbapp.dependence.conditional_mutual_information
    monkeypatch.setattr(nbapp.dependence, "conditional_mutual_information",
                        lambda *a, **k: calls.append(1) or original(*a, **k))
    at = open_page(start(), "Model")
    assert calls == []                        # its section is closed: nothing computed
    at.session_state["model.dependence_open"] = True
    no_exception(at.run())
    assert len(calls) == 1
    at.number_input(key="_model_alpha").set_value(2.0).run()
    no_exception(at)
    assert len(calls) == 1                    # I(X_a; X_b | C) reads the data and the types, not l


# -- number formats (issue 33, item 5): one rule, nbapp.decimals ---------------------------------
def test_one_rule_writes_numbers_with_significant_digits_and_whole_numbers_bare():
    from nbapp.decimals import input_format, number_text, value_text

    assert number_text(0.000000000000007) == "7e-15"                  # not 0.000000000000007
    assert number_text(7.33984375e-07) == "7.34e-07" and number_text(0.123456) == "0.1235"
    assert number_text(2.0) == "2" and number_text(float("nan")) == "–" and number_text(-float("inf")) == "−∞"
    assert value_text(181.0) == "181" and value_text(2975) == "2975"    # a flipper in mm, not 181.0
    assert value_text(39.099999999999994) == "39.1" and value_text(47.5) == "47.5"
    assert value_text(True) == "True" and value_text("Biscoe") == "Biscoe"
    assert input_format(43.92192982456141) == "%.6g" and input_format(1234567.25) == "%.7g"


def _no_query(at):
    at.session_state["work"] = at.session_state["work"].replace(query={})
    return at


def test_explain_number_inputs_show_six_digits_of_the_exact_default():
    at = open_page(_no_query(start("penguins")), "Explain")
    inputs = {n.label: n for n in at.number_input if n.key.startswith("_q::")}
    assert set(inputs) == {"bill_length_mm", "bill_depth_mm", "flipper_length_mm", "body_mass_g"}
    mass = inputs["body_mass_g"]
    assert mass.proto.format == "%.6g"                 # "%g" showed 4201.754385964912, every digit
    assert len(repr(mass.value)) > 10                  # the mixture's mean, exact, kept for computing


def test_custom_prior_inputs_start_at_the_exact_priors_shown_with_six_digits():
    at = open_page(start("penguins"), "Model")
    at.radio(key="_model_priors").set_value("custom").run()
    prior = at.number_input(key="_model_prior::0")
    assert prior.value == at.session_state["model"].priors_.iloc[0] and len(repr(prior.value)) > 10   # 152/344
    assert prior.proto.format == "%.6g"                # "%g" showed 0.4418604651162791


def test_explain_and_the_exercises_write_whole_measurements_without_a_decimal_point():
    at = open_page(start("penguins"), "Explain")       # the query: flipper 217.0, body mass 5000.0
    values = [str(v) for d in at.dataframe if "value" in d.value.columns for v in d.value["value"]]
    assert "217" in values and "5000" in values and "217.0" not in values and "5000.0" not in values
    at.switch_page("pages/7_Exercises.py").run()
    sheet = " ".join(texts(at, "markdown"))
    assert "flipper_length_mm = " in sheet
    assert not re.search(r"\b\d+\.0\b", sheet), re.search(r".{40}\b\d+\.0\b", sheet)[0]


@pytest.mark.parametrize(("example", "page"), [("gender", "Model"), ("sms_spam", "Text")])
def test_no_grid_writes_a_tiny_number_with_all_its_decimals(example, page):
    """Streamlit's grid writes 7.3e-07 as 0.000000733984375 unless told a format: the Gaussian
    table's epsilon (var_smoothing x the variance) and the Text page's posterior were."""
    at = open_page(start(example), page)
    unformatted = []
    for grid in at.dataframe:
        config = json.loads(grid.proto.columns or "{}")
        for column in grid.value.columns:
            x = pd.to_numeric(grid.value[column], errors="coerce").to_numpy(dtype=float)
            tiny = np.any((x != 0) & (np.abs(x) < 1e-4))
            if grid.value[column].dtype.kind == "f" and tiny and not config.get(str(column), {}).get(
                    "type_config", {}).get("format"):
                unformatted.append(column)
    assert not unformatted, unformatted


def test_a_table_in_presentation_mode_writes_a_tiny_posterior_by_the_same_rule():
    """st.table's own format has 4 decimals: the Text page's posterior of ham, 2e-08, read 0.0000."""
    import pyarrow as pa

    at = open_page(start("sms_spam"), "Text")
    at.sidebar.toggle(key="_presentation").set_value(True).run()
    table = [t for t in at.table if any("posterior" in c for c in t.value.columns)][-1]
    shown = pa.ipc.open_stream(table.proto.arrow_data.styler.display_values).read_all().to_pandas()
    posterior = dict(zip(shown.iloc[:, 0], shown.iloc[:, -1]))
    expected = table.value.set_index(table.value.columns[0]).iloc[:, -1]
    assert posterior == {"ham": f"{expected['ham']:.4g}", "spam": "1"} and "e-" in posterior["ham"]
