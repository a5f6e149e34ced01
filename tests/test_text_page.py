"""AppTest: the Text page (issue 4) and the text settings of the Model page.

Numbers on screen are compared with nbapp computed here from the same data and settings.
"""

from __future__ import annotations

import json
import re

import numpy as np
import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

import nbapp
from nbapp.examples import load_example
from nbapp.text.stopwords import ENGLISH_STOP_WORDS
from nbapp.text import TextOptions
from apptest_helpers import open_page, shown_table, start, table
from ui.text import fmt_log as ui_log, fmt_number as ui_number
from apptest_helpers import clear_caches  # noqa: F401 (autouse fixture)

SPAM_QUERY = "WINNER! You have won a free prize, call now to claim it"
ABSENT = "(absent vocabulary words)"


def words_table(at: AppTest) -> pd.DataFrame:
    return table(at, lambda df: "status" in df.columns and any(c.startswith("contribution[") for c in df.columns))


def spam_model(**text) -> nbapp.NaiveBayes:
    spec = nbapp.Text(**text) if text else "text"
    return nbapp.NaiveBayes(features={"text": spec}, alpha=1.0).fit(load_example("sms_spam"), target="label")


@pytest.mark.parametrize("key", ["sms_spam", "sentiment"])
def test_text_page_runs_on_the_text_examples(key):
    at = open_page(start(key), "Text")
    assert not at.info or all("no text feature" not in i.value for i in at.info)
    labels = {m.label: m.value for m in at.metric}
    assert int(labels["Tokens in the corpus"].replace(",", "")) > int(labels["Types in the corpus"].replace(",", ""))
    # top words (one chart per class), informative words and the token strip (Zipf's waits to be opened)
    assert len(at.get("plotly_chart")) == len(at.session_state["model"].classes_) + 2
    assert len(words_table(at)) > 0


def test_tokens_and_types_of_the_corpus_are_nbapp_s():
    at = open_page(start("sentiment"), "Text")
    labels = {m.label: m.value for m in at.metric}
    docs = list(load_example("sentiment")["text"])
    tokens, types = nbapp.text.tokens_and_types(docs, TextOptions())
    assert (labels["Tokens in the corpus"], labels["Types in the corpus"]) == (f"{tokens:,}", f"{types:,}")


def test_the_pipeline_shows_the_stop_words_removed_from_the_sample_document():
    at = open_page(start("sms_spam"), "Model")
    at.radio(key="_model_text::0::stop").set_value("english").run()
    assert not at.exception
    at = open_page(at, "Text")
    assert at.text_area(key="_text_doc").value == SPAM_QUERY
    steps = table(at, lambda df: "step" in df.columns).set_index("step")
    assert list(steps.loc["stop words", "removed"]) == ["you", "have", "a", "now", "to", "it"]
    assert list(steps.loc["stop words", "tokens"]) == ["winner", "won", "free", "prize", "call", "claim"]
    assert list(steps.loc["tokenise", "removed"]) == ["!", ","]


def test_a_typed_document_goes_through_the_pipeline():
    at = open_page(start("sms_spam"), "Text")
    at.text_area(key="_text_doc").set_value("Helping HELPFUL helps").run()
    steps = table(at, lambda df: "step" in df.columns).set_index("step")
    assert list(steps.loc["lowercase", "tokens"]) == ["helping", "helpful", "helps"]
    assert {m.label: m.value for m in at.metric}["Tokens in the document"] == "3"


def test_the_top_spam_words_are_the_model_s_and_include_call():
    at = open_page(start("sms_spam"), "Text")
    shown = table(at, lambda df: {"rank", "log_weight"} <= set(df.columns))
    expected = spam_model().top_words("text", 15)
    spam_shown = list(shown.loc[shown["class"] == "spam", "term"])
    assert spam_shown == list(expected.loc[expected["class"] == "spam", "term"])
    assert "call" in spam_shown


def test_the_informative_words_have_counts_and_put_claim_first_for_spam():
    at = open_page(start("sms_spam"), "Text")
    informative = table(at, lambda df: "log_ratio" in df.columns)
    assert informative.iloc[0]["term"] == "claim"
    assert {"count[spam]", "count[ham]"} <= set(informative.columns)
    assert informative["log_ratio"].is_monotonic_decreasing


def test_the_word_by_word_contributions_sum_to_the_text_factor_nbapp_gives():
    at = open_page(start("sms_spam"), "Text")
    words = words_table(at)
    factor = table(at, lambda df: "text factor log P(document | c)" in df.columns).set_index("class")
    explained = spam_model().explain({"text": SPAM_QUERY})
    for cls in ("ham", "spam"):
        expected = float(explained.factors.loc["text", f"log[{cls}]"])
        assert words[f"contribution[{cls}]"].sum() == pytest.approx(expected, abs=1e-9)
        assert factor.loc[cls, "text factor log P(document | c)"] == pytest.approx(expected, abs=1e-9)
    tokens = table(at, lambda df: "log_odds" in df.columns)
    assert tokens["log_odds"].sum() == pytest.approx(
        float(explained.factors.loc["text", "log[spam]"] - explained.factors.loc["text", "log[ham]"]), abs=1e-9)


def test_bernoulli_on_the_model_page_changes_the_model_and_adds_the_absent_words_row():
    at = open_page(start("sms_spam"), "Text")
    assert ABSENT not in list(words_table(at)["term"])
    open_page(at, "Model")
    at.radio(key="_model_text::0::event_model").set_value("bernoulli").run()
    assert not at.exception
    assert at.session_state["model"].features_["text"].event_model == "bernoulli"
    at = open_page(at, "Text")
    words = words_table(at).set_index("term")
    assert words.loc[ABSENT, "status"] == "absent"
    expected = spam_model(event_model="bernoulli").explain({"text": SPAM_QUERY})
    assert words["contribution[spam]"].sum() == pytest.approx(float(expected.factors.loc["text", "log[spam]"]))


def test_tokens_are_marked_removed_unseen_and_unk():
    at = open_page(start("sms_spam"), "Model")
    at.radio(key="_model_text::0::stop").set_value("english").run()
    at = open_page(at, "Text")
    at.text_area(key="_text_doc").set_value("the prize zzqxv").run()
    tokens = table(at, lambda df: "log_odds" in df.columns)
    assert list(tokens["status"]) == ["removed", "used", "unseen"]
    open_page(at, "Model")
    at.radio(key="_model_text::0::vocabulary").set_value("per_class_unk").run()
    at = open_page(at, "Text")
    tokens = table(at, lambda df: "log_odds" in df.columns)
    assert list(tokens["status"]) == ["removed", "used", "UNK"]
    assert tokens["log_odds"].iloc[2] != 0


def test_complement_nb_from_the_model_page_matches_nbapp():
    at = open_page(start("sms_spam"), "Model")
    at.checkbox(key="_model_text::0::complement").check().run()
    assert not at.exception
    assert at.session_state["model"].features_["text"].complement
    at = open_page(at, "Text")
    expected = spam_model(complement=True).explain({"text": SPAM_QUERY})
    assert words_table(at)["contribution[spam]"].sum() == pytest.approx(
        float(expected.factors.loc["text", "log[spam]"]))


def test_a_bad_token_pattern_shows_an_error_and_keeps_the_model():
    at = open_page(start("sms_spam"), "Model")
    at.text_input(key="_model_text::0::pattern").set_value("(unclosed").run()
    assert not at.exception
    errors = [e.value for e in at.error]
    assert any("not a valid regular expression" in re.sub(r"\\(.)", r"\1", e) for e in errors), errors
    assert at.text_input(key="_model_text::0::pattern").value == "(unclosed"
    assert at.session_state["model"].block_of("text").options.token_pattern == r"(?u)\w+"
    at.text_input(key="_model_text::0::pattern").set_value(r"[a-z]+").run()
    assert not at.error
    assert at.session_state["model"].block_of("text").options.token_pattern == "[a-z]+"


def test_text_settings_key_the_fit_cache():
    at = open_page(start("sms_spam"), "Model")
    at.number_input(key="_model_text::0::min_df").set_value(3).run()
    pruned = at.session_state["model"]
    assert len(pruned.block_of("text").vocabulary_terms()) == len(spam_model(options=TextOptions(min_df=3))
                                                                   .block_of("text").vocabulary_terms())
    at.number_input(key="_model_text::0::min_df").set_value(1).run()
    assert len(at.session_state["model"].block_of("text").vocabulary_terms()) > len(
        pruned.block_of("text").vocabulary_terms())


def test_stemming_and_bigrams_reach_the_model():
    at = open_page(start("sentiment"), "Model")
    at.checkbox(key="_model_text::0::stem").check().run()
    at.radio(key="_model_text::0::ngrams").set_value(2).run()
    options = at.session_state["model"].block_of("text").options
    assert options.stem and options.ngram_range == (1, 2)
    assert "book is" in at.session_state["model"].block_of("text").vocabulary_terms()


def test_an_edited_stop_word_list_is_used():
    at = open_page(start("sms_spam"), "Model")
    at.radio(key="_model_text::0::stop").set_value("english").run()
    at.text_area(key="_model_text::0::stop_list").set_value("free, call\nnow").run()
    assert not at.exception
    assert at.session_state["model"].block_of("text").options.stop_words == frozenset({"free", "call", "now"})
    vocabulary = set(at.session_state["model"].block_of("text").vocabulary_terms())
    assert "the" in ENGLISH_STOP_WORDS and "the" in vocabulary  # the edited list replaced the built-in one
    assert "free" not in vocabulary


def test_a_page_without_a_text_feature_offers_the_corpora_and_loads_sms_spam():
    at = open_page(start(), "Text")
    assert any("no text feature" in i.value for i in at.info)
    assert not at.dataframe
    at.button(key="text.load.sms_spam").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.session_state["work"].source.example == "sms_spam"
    assert not any("no text feature" in i.value for i in at.info)
    assert len(words_table(at)) > 0


def test_a_row_of_the_data_can_be_the_sample_document():
    at = open_page(start("sms_spam"), "Text")
    at.radio(key="_text_doc_mode").set_value("A row of the data").run()
    at.number_input(key="_text_row").set_value(2).run()
    assert not at.exception
    document = load_example("sms_spam")["text"].iloc[2]
    assert at.code[0].value == document
    tokens = table(at, lambda df: "log_odds" in df.columns)
    assert list(tokens["token"]) == re.findall(r"(?u)\w+", document)
    assert np.isfinite(tokens["log_odds"]).all()


HOSTILE = ("<script>alert(1)</script>", "**bold**", "[a](javascript:alert(1))", "<b>")


def hostile_corpus() -> bytes:
    rows = ["review,label"]
    for i in range(12):
        text = f"<b>great</b> **bold** [a](javascript:alert(1)) <script>alert(1)</script> item {i % 3} ok"
        rows.append(f'"{text}",{"<b>good</b>" if i % 2 else "**bad**"}')
    return ("\n".join(rows) + "\n").encode()


def test_hostile_tokens_and_labels_are_shown_as_text_on_the_text_page():
    at = start()
    at.radio(key="_data_mode").set_value("Upload a file").run()
    at.file_uploader(key="data.uploader").set_value(("hostile.csv", hostile_corpus(), "text/csv")).run()
    at.selectbox(key="_type::0").set_value("text").run()
    assert not at.exception, [e.value for e in at.exception]
    open_page(at, "Model")
    at.text_input(key="_model_text::0::pattern").set_value(r"\S+").run()  # tokens keep < > * [ ]
    at = open_page(at, "Text")
    assert "<script>alert(1)</script>" in list(table(at, lambda df: "log_odds" in df.columns)["token"])
    shown = [el.value for kind in ("markdown", "caption", "info", "error", "success", "subheader")
             for el in getattr(at, kind)]
    shown += [str(el.label) for kind in ("selectbox", "radio", "text_area", "metric") for el in getattr(at, kind)]
    for text in shown:
        assert not any(raw in text for raw in HOSTILE), text
    assert all(not el.proto.allow_html for el in at.markdown)
    for chart in at.get("plotly_chart"):  # plotly reads <b>, <a href> in labels: only escaped forms may reach it
        spec = json.dumps(json.loads(chart.proto.spec), ensure_ascii=False)
        assert "<script>" not in spec and "<b>" not in spec
        assert "&lt;script&gt;" in spec or "&lt;b&gt;" in spec


def test_an_imported_text_model_is_explained_on_the_text_page():
    model = spam_model(event_model="bernoulli")
    at = open_page(start("sms_spam"), "Model")
    at.file_uploader(key="model.json_upload").set_value(("spam.json", model.to_json().encode(), "application/json"))
    at.run()
    assert at.session_state["work"].imported is not None
    at = open_page(at, "Text")
    words = words_table(at).set_index("term")
    assert words.loc[ABSENT, "status"] == "absent"
    expected = model.explain({"text": SPAM_QUERY})
    assert words["contribution[ham]"].sum() == pytest.approx(float(expected.factors.loc["text", "log[ham]"]))


def test_loading_other_data_forgets_the_typed_document_and_a_refused_pattern():
    at = open_page(start("sms_spam"), "Model")
    at.text_input(key="_model_text::0::pattern").set_value("(unclosed").run()
    at = open_page(at, "Text")
    at.text_area(key="_text_doc").set_value("free prize").run()
    open_page(at, "Data")
    at.selectbox(key="_data_example").set_value("sentiment").run()
    at = open_page(at, "Text")
    assert at.text_area(key="_text_doc").value == "just had my first cheeto ever it was awesome"
    open_page(at, "Model")
    assert not at.error
    assert at.text_input(key="_model_text::0::pattern").value == r"(?u)\w+"


def test_a_click_on_a_word_shows_its_factor_per_class_and_its_pull():
    """Issue 25: a word of the document is a click away from its P(w | c) in every class and its
    share of the log-odds; the numbers are the model's."""
    at = open_page(start("sms_spam"), "Text")
    at.text_area(key="_text_doc").set_value(SPAM_QUERY).run()
    words = at.button_group(key="text.word")
    assert list(words.options[:5]) == ["winner", "you", "have", "won", "a"]   # the document's words, in order
    assert words.value == "winner"
    words.set_value("free").run()
    assert not at.exception
    model = spam_model()
    detail = shown_table(at.table[-1].value)
    log_p = model.explain({"text": SPAM_QUERY}).words["text"].set_index("term")
    for cls in ("ham", "spam"):
        assert detail.loc["decimal", cls] == ui_number(np.exp(log_p.loc["free", f"log[{cls}]"]))
    pull = log_p.loc["free", "log[spam]"] - log_p.loc["free", "log[ham]"]
    sentence = next(m.value for m in at.markdown if m.value.startswith("**free**"))
    assert f"adds {ui_log(pull)} to log P(spam | x) / P(ham | x), towards spam" in sentence


def test_zipf_s_law_is_drawn_when_its_section_is_opened():
    at = open_page(start("sms_spam"), "Text")
    zipf = [c for c in at.get("plotly_chart") if "Zipf" in c.proto.spec]
    assert zipf == []                                     # closed: not computed, not sent
    at.session_state["text.zipf_open"] = True
    at.run()
    assert not at.exception
    assert [c for c in at.get("plotly_chart") if "Zipf" in c.proto.spec]
