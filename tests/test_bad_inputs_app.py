"""Bad files through the app (AppTest's file uploader), issue 5.

Every bad upload is answered in place: no exception, one st.error naming the file and the problem,
and the data in use before the upload stays in use (nothing is lost). Hostile column names and
labels (HTML, Markdown, spreadsheet formulas) are shown as text on every page: wherever Streamlit
renders markdown (alerts, captions, labels, metrics) they appear only escaped.
"""

from __future__ import annotations

import codecs
import gzip
import io
import json
import pickle
import zipfile

import pytest
from streamlit.testing.v1 import AppTest

from apptest_helpers import PAGES as APP_PAGES, open_page, start, unescape, upload
from apptest_helpers import clear_caches  # noqa: F401 (autouse fixture)
from ui.sources import Example

PAGES = {name: APP_PAGES[name] for name in ("Model", "Explain", "Evaluate")}     # the pages past Data

SCRIPT = "<script>alert(1)</script>"
BOLD = "**bold**"
FORMULA = '=HYPERLINK("http://evil.example","click")'
LINK = "[a](javascript:alert(1))"
# Text that markdown would turn into markup if it reached a markdown element unescaped.
RAW_MARKUP = (SCRIPT, BOLD, "**B**", LINK, "<b>")


def errors(at: AppTest) -> list[str]:
    return [unescape(e.value) for e in at.error]


# -- generated bad files -------------------------------------------------------------------------


def _zip(members: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in members.items():
            z.writestr(name, data)
    return buf.getvalue()


def _bomb() -> bytes:
    """A class-folder corpus whose one member expands about 1,000-fold (40 MB of one byte)."""
    return _zip({"spam/a.txt": b"a" * (40 << 20), "ham/b.txt": b"hello there"})


REFUSED = [
    # (file name, bytes, phrases the error must contain)
    ("random.csv", bytes(range(256)) * 64, ["binary data"]),
    ("report.csv", b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Type /Catalog >>\nendobj\n", ["PDF"]),
    ("export.csv", gzip.compress(b"a,b\n1,2\n3,4\n"), ["gzip"]),
    ("empty.csv", b"", ["empty"]),
    ("header.csv", b"outlook,temp,play\n", ["no data rows"]),
    ("ragged.csv", b"a,b,c\n1,2,3\n4,5\n6,7,8,9\n", ["wrong number of fields", "line 3", "line 4"]),
    ("quote.csv", b'a,b\n1,"oops\n2,3\n4,5\n', ["never closed", "line 2"]),
    ("nul.csv", b"a,b\n" + b"\x00" * 40 + b"1,2\n3,4\n", ["are NUL"]),
    ("traversal.zip", _zip({"../../etc/spam/a.txt": b"buy now", "ham/b.txt": b"hi"}), []),
]


@pytest.mark.parametrize(("name", "data", "phrases"), REFUSED, ids=[r[0] for r in REFUSED])
def test_a_bad_upload_is_refused_with_one_message_and_the_data_in_use_stays(name, data, phrases):
    at = upload(start(), name, data)
    shown = errors(at)
    assert len(shown) == 1, shown
    assert repr(name) in shown[0] or name in shown[0], shown[0]
    for phrase in phrases:
        assert phrase in shown[0], shown[0]
    # nothing lost: the example loaded before the upload is still the data in use, and the page says so
    assert isinstance(at.session_state["work"].source, Example)
    assert any("Nothing of" in w.value and "is still" in w.value for w in at.warning)


def test_a_zip_bomb_corpus_is_refused_before_it_is_unpacked():
    at = upload(start(), "bomb.zip", _bomb(), "application/zip")
    shown = errors(at)
    assert len(shown) == 1 and "bomb.zip" in shown[0] and "zip bomb" in shown[0], shown
    assert isinstance(at.session_state["work"].source, Example)


def test_utf16_with_bom_loads_with_a_note_naming_the_encoding():
    cities = ["Zürich", "Köln", "Malmö"]
    text = "city,play\n" + "".join(f"{cities[i % 3]},{'yes' if i % 2 else 'no'}\n" for i in range(8))
    at = upload(start(), "excel.csv", codecs.BOM_UTF16_LE + text.encode("utf-16-le"))
    assert not at.error, errors(at)
    assert any("Loaded excel.csv: 8 rows" in unescape(s.value) for s in at.success)
    assert any("UTF-16" in unescape(i.value) for i in at.info), [i.value for i in at.info]
    assert at.session_state["frame"]["city"].iloc[0] == "Zürich"


def test_a_bad_upload_after_a_good_one_keeps_the_good_one():
    good = b"outlook,windy,play\nsunny,no,no\nrainy,yes,yes\nsunny,yes,no\nrainy,no,yes\n"
    at = upload(start(), "good.csv", good)
    assert at.session_state["work"].source.name == "good.csv"
    at.file_uploader(key="data.uploader").set_value(("bad.csv", b"", "text/csv")).run()
    assert not at.exception
    assert "empty" in errors(at)[0]
    assert at.session_state["work"].source.name == "good.csv"
    assert at.session_state["frame"].shape == (4, 3)


# -- model files ---------------------------------------------------------------------------------


def _model_page() -> AppTest:
    return open_page(start(), "Model", check_title=False)


def test_a_pickle_model_file_is_refused_with_a_message():
    at = _model_page()
    payload = pickle.dumps({"classes": ["yes", "no"]})
    at.file_uploader(key="model.json_upload").set_value(("model.pkl", payload, "application/octet-stream")).run()
    assert not at.exception
    assert any("Pickle files are refused" in e for e in errors(at)), errors(at)
    assert at.session_state["work"].imported is None


def test_a_pickle_renamed_to_json_is_refused_too():
    at = _model_page()
    payload = pickle.dumps([1, 2, 3], protocol=4)
    at.file_uploader(key="model.json_upload").set_value(("model.json", payload, "application/json")).run()
    assert not at.exception
    assert any("Pickle" in e for e in errors(at)), errors(at)
    assert at.session_state["work"].imported is None


def test_a_model_file_with_nan_literals_is_refused_by_name():
    at = _model_page()
    good = json.loads(at.session_state["model"].to_json())
    text = json.dumps(good).replace("1.0", "NaN", 1)
    if text == json.dumps(good):  # no 1.0 to replace: add a NaN at the top level instead
        text = json.dumps({**good, "bad": float("nan")})
    at.file_uploader(key="model.json_upload").set_value(("nan.json", text.encode(), "application/json")).run()
    assert not at.exception
    shown = errors(at)
    assert any("nan.json" in e for e in shown), shown
    assert at.session_state["work"].imported is None


# -- hostile names and labels --------------------------------------------------------------------


def hostile_csv() -> bytes:
    header = f'"{SCRIPT}",{BOLD},"{FORMULA.replace(chr(34), chr(34) * 2)}",{LINK},label\n'
    rows = []
    for i in range(16):
        label = f'"{SCRIPT}"' if i % 2 else "**B**"
        rows.append(f"v{i % 3},{'**x**' if i % 4 < 2 else '<b>y</b>'},{i % 5},w{i % 2},{label}")
    return (header + "\n".join(rows) + "\n").encode()


def markdown_texts(at: AppTest) -> list[str]:
    """Everything on screen that Streamlit renders as markdown: alerts, captions, labels, metrics."""
    texts: list[str] = []
    for kind in ("title", "header", "subheader", "markdown", "caption", "error", "warning", "info",
                 "success", "toast"):
        texts += [el.value for el in getattr(at, kind)]
    for kind in ("selectbox", "radio", "number_input", "checkbox", "text_area", "text_input", "slider",
                 "multiselect", "metric", "expander", "file_uploader"):
        texts += [str(el.label) for el in getattr(at, kind) if getattr(el, "label", None) is not None]
    return texts


def assert_shown_as_text(at: AppTest, page: str) -> None:
    assert not at.exception, (page, [e.value for e in at.exception])
    for text in markdown_texts(at):
        for raw in RAW_MARKUP:
            assert raw not in text, f"{page}: {raw!r} reaches markdown unescaped in {text!r}"
    for el in at.markdown:  # st.markdown / st.caption: HTML never allowed
        assert not el.proto.allow_html, (page, el.value)
    for chart in at.get("plotly_chart"):  # plotly reads <b>, <a href> in labels
        spec = chart.proto.spec
        assert SCRIPT not in spec and "<b>" not in spec, f"{page}: raw HTML in a plotly figure"


def test_hostile_column_names_and_labels_are_shown_as_text_on_every_page():
    at = upload(start(), "hostile.csv", hostile_csv())
    assert not at.error, errors(at)
    frame = at.session_state["frame"]
    assert list(frame.columns) == [SCRIPT, BOLD, FORMULA, LINK, "label"]
    assert at.session_state["work"].target == "label"
    # the names reach the screen: escaped in labels, literal in the data table
    assert any(SCRIPT in df.value.columns for df in at.dataframe)
    assert any(unescape(s.label) == f"Type of {BOLD}" for s in at.selectbox)
    assert_shown_as_text(at, "Data")
    for page, path in PAGES.items():
        at.switch_page(path).run()
        assert at.title[0].value == page
        assert_shown_as_text(at, page)


def test_a_refusal_that_names_a_hostile_column_shows_it_as_text():
    """check_target's DataError quotes the column name; the alert must not render it as markdown."""
    data = (f'{BOLD},"{SCRIPT}",label\n' + "".join(f"same,v{i % 3},{'yes' if i % 2 else 'no'}\n"
                                                    for i in range(8))).encode()
    at = upload(start(), "onevalue.csv", data)
    at.selectbox(key="_data_target").set_value(BOLD).run()
    assert not at.exception
    shown = errors(at)
    assert any("only one class" in e and BOLD in e for e in shown), shown
    assert_shown_as_text(at, "Data (target with one class)")


def test_a_bad_file_to_predict_on_the_evaluate_page_is_refused_with_a_message():
    at = open_page(start(), "Evaluate", check_title=False)
    at.file_uploader(key="eval.batch").set_value(("new.csv", gzip.compress(b"x,y\n1,2\n"), "text/csv")).run()
    assert not at.exception
    shown = errors(at)
    assert any("new.csv" in e and "gzip" in e for e in shown), shown
