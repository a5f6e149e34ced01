"""AppTest: text for teachers (issue 23, item 5): the Text page's per-word table has a status per
class (seed 004's UNK is per class) and P(w | c) as counted; n and V per class stand beside
P(UNK | c); Explain's word table has P(w | c) filled in with the per-class vocabulary too; "Use
this document on the Explain page" goes there with the document."""

from __future__ import annotations

import nbapp
from apptest_helpers import no_exception, open_page, start, table
from apptest_helpers import clear_caches  # noqa: F401 (autouse fixture)
from nbapp.examples import load_example

SPAM_QUERY = "WINNER! You have won a free prize, call now to claim it"


def per_class_unk(at):
    """The session's sms_spam work with seed 004's per-class vocabulary (one UNK word per class)."""
    work = at.session_state["work"]
    at.session_state["work"] = work.with_feature("text", nbapp.Text(vocabulary="per_class_unk"))
    return no_exception(at.run())


def spam_model() -> nbapp.NaiveBayes:
    return nbapp.NaiveBayes(features={"text": nbapp.Text(vocabulary="per_class_unk")}, alpha=1.0).fit(
        load_example("sms_spam"), target="label")


def test_the_text_page_gives_each_word_a_status_and_p_w_c_per_class_and_n_v_beside_unk():
    at = per_class_unk(open_page(start("sms_spam"), "Text"))
    words = table(at, lambda df: "ham status" in df.columns).set_index("word")
    model = spam_model()
    counts = model.counts("text")
    assert counts.loc["winner", "ham"] == 0 and counts.loc["winner", "spam"] > 0
    assert words.loc["winner", "ham status"] == "UNK" and words.loc["winner", "spam status"] == "used"
    n_ham = int(counts["ham"].sum())
    v_ham = int((counts["ham"] > 0).sum())
    assert words.loc["winner", "ham P(w | c)"] == f"1/{n_ham + 1 * (v_ham + 1)}"       # α / (n + α(V + 1)), α = 1
    spam = int(counts.loc["winner", "spam"])
    assert words.loc["winner", "spam P(w | c)"].startswith(f"{spam + 1}/")
    sizes = table(at, lambda df: "n (tokens in the class)" in df.index)
    assert sizes.loc["n (tokens in the class)", "ham"] == f"{n_ham}"
    assert sizes.loc["V (word types)", "ham"] == f"{v_ham}"
    assert sizes.loc["P(UNK | c)", "ham"] == f"1/{n_ham + v_ham + 1}"
    assert sorted(sizes.columns) == ["ham", "spam"]


def sizes_v_is(at, v: int) -> bool:
    sizes = table(at, lambda df: "n (tokens in the class)" in df.index)
    return set(sizes.loc["V (word types)"]) == {str(v)}


def test_the_global_vocabulary_says_used_in_both_classes_and_has_no_unk():
    at = open_page(start("sms_spam"), "Text")
    words = table(at, lambda df: "ham status" in df.columns).set_index("word")
    assert words.loc["winner", "ham status"] == "used"
    v = len(spam_model().counts("text"))
    assert words.loc["winner", "ham P(w | c)"].startswith("1/") and words.loc["winner", "ham decimal"] != ""
    assert sizes_v_is(at, v)
    sizes = table(at, lambda df: "n (tokens in the class)" in df.index)
    assert set(sizes.loc["P(UNK | c)"]) == {"–"}


def test_explain_fills_p_w_c_for_the_per_class_vocabulary():
    at = per_class_unk(open_page(start("sms_spam"), "Explain"))
    words = table(at, lambda df: "ham status" in df.columns).set_index("word")
    assert (words["ham P(w | c)"] != "").all() and (words["spam P(w | c)"] != "").all()
    assert words.loc["winner", "ham status"] == "UNK"


def test_use_this_document_goes_to_explain_with_the_document():
    at = open_page(start("sms_spam"), "Text")
    at.text_area(key="_text_doc").set_value("free prize call now").run()
    at.button(key="text.to_explain").click().run()
    no_exception(at)
    assert at.title[0].value == "Explain"
    assert at.session_state["work"].query["text"] == "free prize call now"
    assert "text" not in at.session_state["work"].missing
