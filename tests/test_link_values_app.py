"""Nothing a stranger puts in a link crashes a page (issue 31, items 3, 7 and 8).

Each link below stopped its page with an exception before: a value out of its widget's range
(``evaluate.k``, ``evaluate.seed = -1``, ``evaluate.test_size``, ``text.row``), an Explain value
of 10^400, priors naming classes the data lacks, ``min_df`` of 10^400, a ``work=`` nested
100,000 levels deep. Now each value is checked as its widget would (ui.link_rules) and falls
back to its default with a sentence in the sidebar. Text options the text settings cannot
produce (an n-gram range of (1, 1500)) are held like a linked token pattern, and so are those of
a model file a link opens alone.
"""

from __future__ import annotations

import base64
import zlib

import pytest

import nbapp
from streamlit.testing.v1 import AppTest

from apptest_helpers import PAGES, ROOT, clear_caches, import_model, no_exception, open_page, start, texts  # noqa: F401
from nbapp.examples import load_example
from nbapp.text import TextOptions
from ui.link_rules import shown_value
from ui.remember import MAX_NOTES, decode_work, encode_work, pack, unpack
from ui.state import HELD
from ui.sources import Example, ModelFile
from ui.work import Work


def plain(text: str) -> str:
    return text.replace("\\", "")


def sidebar_note(at) -> str:
    return " ".join(plain(w.value) for w in at.sidebar.warning)


def link_of(example: str, edit) -> dict[str, str]:
    """The address of ``example``'s default work with ``edit`` applied to its decoded ``work=``."""
    work = start(example).session_state["work"]
    data = unpack(encode_work(work))
    edit(data)
    return {"example": example, "target": str(work.target), "work": pack(data)}


def choices(**values):
    return lambda data: data.update(choices={k.replace("__", "."): v for k, v in values.items()})


def explain_value(column, value):
    return lambda data: data.update(query=[[column, value]])


def given_priors(classes, values):
    return lambda data: data["settings"].update(priors={"classes": classes, "values": values})


def text_option(name, value):
    def edit(data):
        spec = data["features"][0][1]
        spec["options"] = {**TextOptions().to_dict(), **(spec["options"] or {}), name: value}
    return edit


CRASHING_LINKS = {
    "evaluate.k": ("tennis14", choices(evaluate__k="x"), "Evaluate", "Folds k ('x') is not a number; using 5"),
    "evaluate.seed": ("tennis14", choices(evaluate__seed=-1), "Evaluate", "Random seed (-1) is out of range"),
    "evaluate.test_size": ("tennis14", choices(evaluate__method="holdout", evaluate__test_size=5), "Evaluate",
                           "Test share (5) is out of range 0.1–0.9; using 0.3"),
    "text.row": ("sms_spam", choices(text__doc_mode="A row of the data", text__row="x"), "Text",
                 "the Text page's row ('x') is not a number; using 0"),
    "explain value": ("gender", explain_value("Height", 10**400), "Explain",
                      "column 'Height' (100000000000000000000000…) is not a number an input can show"),
    "priors": ("tennis14", given_priors(["nope", "zilch"], [0.5, 0.5]), "Model",
               "class priors do not fit this data"),
    "min_df": ("sms_spam", text_option("min_df", 10**400), "Text", "min_df (100000000000000000000000…)"),
}


@pytest.mark.parametrize("name", list(CRASHING_LINKS))
def test_a_link_value_its_widget_refuses_falls_back_to_the_default_with_a_note(name):
    example, edit, page, note = CRASHING_LINKS[name]
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    for key, value in link_of(example, edit).items():
        at.query_params[key] = value
    at.run()
    at.switch_page(PAGES[page]).run()
    no_exception(at)                                     # before: the page stopped with an exception
    assert at.title[0].value == page
    assert note in sidebar_note(at), sidebar_note(at)


def test_a_deeply_nested_work_is_refused_as_a_bad_link_quickly():
    nested = ("[" * 100_000 + "]" * 100_000).encode()
    work = base64.urlsafe_b64encode(zlib.compress(nested, 9)).decode().rstrip("=")
    at = start(query={"example": "tennis14", "work": work})
    assert "nested too deeply" in sidebar_note(at)
    assert at.session_state["work"].source.example == "tennis14"      # the rest of the link stands


def test_a_nesting_json_still_reads_is_refused_before_anything_walks_it():
    with pytest.raises(nbapp.DataError, match="nested too deeply"):
        unpack(pack({"v": 2, "features": [[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]}))


def test_good_values_in_a_link_are_kept():
    at = start(query=link_of("tennis14", choices(evaluate__k=7, evaluate__seed=3, evaluate__method="holdout",
                                                 evaluate__test_size=0.5)))
    assert not at.sidebar.warning
    assert {k: v for k, v in at.session_state["work"].choices.items() if k.startswith("evaluate.")} == \
        {"evaluate.k": 7, "evaluate.seed": 3, "evaluate.method": "holdout", "evaluate.test_size": 0.5}


# --------------------------------------------------------------------------- item 3: an n-gram range from a link


def test_a_linked_ngram_range_of_1500_words_is_not_fitted_and_the_page_says_so():
    at = start(query=link_of("sms_spam", text_option("ngram_range", [1, 1500])))
    assert (at.session_state["work"].specs["text"].options or TextOptions()).ngram_range == (1, 1)
    assert at.session_state["model"].block_of("text").options.ngram_range == (1, 1)
    said = sidebar_note(at) + " ".join(plain(w.value) for w in at.warning)
    assert "1500" in said                  # held until confirmed, or refused by the library's bound on max_n
    at = open_page(at, "Text")
    assert at.session_state["model"].block_of("text").options.ngram_range == (1, 1)


def test_a_linked_ngram_range_the_settings_do_not_offer_waits_for_the_visitor():
    at = start(query=link_of("sms_spam", text_option("ngram_range", [2, 2])))    # the settings offer (1, n) only
    assert at.session_state[HELD] == {"text": {"ngram_range": (2, 2)}}
    assert at.session_state["model"].block_of("text").options.ngram_range == (1, 1)
    assert "n-gram range" in sidebar_note(at) and "Until then the default is used" in sidebar_note(at)
    held = " ".join(plain(w.value) for w in at.warning)
    assert "n-gram range of the text column 'text'" in held and "(2, 2)" in held


def test_a_held_ngram_range_is_used_once_confirmed_and_dropped_on_the_default():
    link = link_of("sms_spam", text_option("ngram_range", [2, 2]))
    at = start(query=link)
    at.button(key="data.held.0.use").click().run()
    no_exception(at)
    assert not at.session_state[HELD]
    assert at.session_state["model"].block_of("text").options.ngram_range == (2, 2)
    at = start(query=link)
    at.button(key="data.held.0.default").click().run()
    no_exception(at)
    assert not at.session_state[HELD]
    assert at.session_state["work"].specs["text"].options.ngram_range == (1, 1)


# --------------------------------------------------------------------------- item 8: a model file opened alone


def pattern_model():
    """A model of the SMS example fitted with a token pattern that needs the regex engine."""
    options = TextOptions(token_pattern="[a-z]+")
    return nbapp.NaiveBayes({"text": nbapp.Text(options=options)}).fit(load_example("sms_spam"), "label")


def address(at, *keys) -> dict[str, str]:
    values = {k: at.query_params[k] for k in keys}
    return {k: v[0] if isinstance(v, list) else v for k, v in values.items()}


def assert_pattern_held(at) -> None:
    assert at.session_state[HELD] == {"text": {"token_pattern": "[a-z]+"}}
    assert at.session_state["work"].specs["text"].options.token_pattern == TextOptions.token_pattern
    assert at.session_state["model"].block_of("text").options.token_pattern == TextOptions.token_pattern
    assert "token pattern" in sidebar_note(at)


def test_a_model_file_opened_alone_by_a_link_without_work_holds_its_token_pattern():
    at = open_page(start(), "Model")
    no_exception(import_model(at, "sms_model.json", pattern_model()))    # tennis has no column 'text': opened alone
    assert isinstance(at.session_state["work"].source, ModelFile)
    fresh = start(query=address(at, "model", "name"))                     # no work=: the file's own options
    assert isinstance(fresh.session_state["work"].source, ModelFile)
    assert_pattern_held(open_page(fresh, "Model"))


def test_a_model_file_a_link_imports_beside_its_data_holds_its_token_pattern():
    at = open_page(start("sms_spam"), "Model")
    no_exception(import_model(at, "sms_model.json", pattern_model()))
    assert at.session_state["work"].imported is not None
    link = address(at, "example", "target", "model", "model_name")       # no work=
    fresh = start(query=link)
    assert fresh.session_state["work"].imported is None                        # left behind until confirmed
    assert_pattern_held(fresh)
    fresh.button(key="data.held.0.use").click().run()
    no_exception(fresh)
    assert fresh.session_state["model"].block_of("text").options.token_pattern == "[a-z]+"


# --------------------------------------------------------------------------- the rules themselves


SETTINGS = nbapp.Settings().to_dict()


def tennis_work() -> Work:
    return Work(source=Example("tennis14.csv", "0" * 64, example="tennis14"), target="Play",
                features={"Outlook": "categorical"})


@pytest.mark.parametrize("value", [True, 2.0, "5", 1, 51, None])
def test_folds_k_from_a_link_must_be_a_whole_number_its_input_takes(value):
    work, notes = decode_work(pack({"v": 2, "settings": SETTINGS, "choices": {"evaluate.k": value}}), tennis_work())
    assert "evaluate.k" not in work.choices
    assert len(notes) == 1 and notes[0].startswith(f"the link's value for Folds k ({shown_value(value)})")


def test_a_link_of_many_bad_values_gets_a_few_sentences():
    choices = {"evaluate.seed": -1, "exercises.n": 0, "board.step": -1, "text.row": -1,
               "evaluate.k": 0, "evaluate.test_size": 2, "app.presentation": 1, "evaluate.method": "x"}
    work, notes = decode_work(pack({"v": 2, "settings": SETTINGS, "choices": choices}), tennis_work())
    assert not work.choices
    assert len(notes) == MAX_NOTES + 1 and notes[-1] == "2 more values of this link could not be used"


def test_the_sidebar_says_both_what_could_not_be_read_and_what_waits_until_it_is_settled():
    def edit(data):
        text_option("ngram_range", [2, 2])(data)
        choices(evaluate__seed=-1)(data)
    at = start(query=link_of("sms_spam", edit))
    assert "Random seed (-1)" in sidebar_note(at) and "n-gram range" in sidebar_note(at)
    at.button(key="data.held.0.default").click().run()
    assert "Random seed (-1)" in sidebar_note(at) and "n-gram range" not in sidebar_note(at)
