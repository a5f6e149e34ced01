"""Models as versioned JSON: settings plus sufficient statistics, never pickle.

A model file is untrusted input. It is checked against one written schema before anything
is built from it: size (before parsing), no NaN / Infinity literals, no duplicate keys,
bounded nesting, no name or other string longer than MAX_NAME_CHARS, a known format name and
version, no unknown keys, and every statistic's type, shape, finiteness and sign, with lengths
that agree with the classes and categories.
Anything else is refused with a DataError that names the field path, e.g.
``feature 'Outlook': counts[2][1] is -3; counts cannot be negative``.

Format (version 3)::

    {"format": "nbapp.NaiveBayes", "version": 3,
     "settings": {"features": {column: {"kind": ..., options}}, "alpha", "smoothing",
                  "prior_alpha", "priors", "var_smoothing", "variance", "var_smoothing_mode"},
     (every field but "features" is nbapp.Settings' JSON form, Settings.to_dict / from_dict)
     "target": str, "weight": str | null,
     "classes": [distinct strings or numbers], "class_counts": [numbers >= 0, not all 0],
     "blocks": [{"kind", "columns", "stats": the block's statistics (Stats.to_state)}]}

Version 1 files (nbapp before statistics were values) keep each block's statistics under
"state" in the same layout; they are read by the same checks. Version 2 files list every bin
of a KDE or discretized column's grid, the empty ones too (no "keys"); version 3 lists the
non-empty bins only (:class:`nbapp.blocks.grid.GridStats`), and reads version 2's grids as
they are.
"""

from __future__ import annotations

import gc
import json
import re
import sys
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache
from itertools import chain, compress, repeat
from typing import Any, Iterator, Mapping

import numpy as np

from nbapp.blocks.base import check_class_sums, state_vector
from nbapp._limits import MAX_BYTES, MAX_NAME_CHARS
from nbapp.errors import DataError
from nbapp.settings import Settings
from nbapp.specs import spec_from_dict, spec_to_dict
from nbapp.stats import ModelStats

__all__ = ["model_to_json", "model_from_json", "stats_to_json", "stats_from_json", "refuse_pickle", "FORMAT", "VERSION",
           "MAX_BYTES", "MAX_NAME_CHARS"]

FORMAT = "nbapp.NaiveBayes"
VERSION = 3
READABLE_VERSIONS = (1, 2, 3)
_MAX_DEPTH = 32                   # the format nests 6 levels; deeper is not a model file
_NUMBER_CACHE = 1 << 16           # distinct number literals shared while parsing (a bounded cache)
_FLOAT_DIGITS = 309               # the digits of the largest float, about 1.8e308
# A positive count below this share of its total is lost when added to it (float64's epsilon).
_RESOLUTION = float(np.finfo(float).eps)
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
_TOP_KEYS = {"format", "version", "settings", "target", "weight", "classes", "class_counts", "blocks"}
PICKLE_SUFFIXES = (".pkl", ".pickle", ".joblib")


def model_to_json(model: Any) -> str:
    data = {
        "format": FORMAT,
        "version": VERSION,
        "settings": {"features": {c: spec_to_dict(s) for c, s in model.features_.items()},
                     **model.settings.to_dict()},
        "target": model.target_,
        "weight": model.weight_,
        "classes": model.classes_,
        "class_counts": model.class_counts_.tolist(),
        "blocks": [{"kind": b.kind, "columns": b.columns, "stats": b.state()} for b in model.blocks_],
    }
    long = _long_string(data)
    if long is not None:            # never write a file model_from_json would refuse
        raise DataError(f"The model cannot be saved: {long}")
    text = json.dumps(data, allow_nan=False)
    if len(text) > MAX_BYTES:          # ASCII (json.dumps escapes the rest): characters are bytes
        raise _too_big_to_save(len(text), data["blocks"])
    return text


def _too_big_to_save(size: int, blocks: list[dict[str, Any]]) -> DataError:
    """Never write a file :func:`model_from_json` would refuse: say which columns fill it."""
    largest = max(blocks, key=lambda b: len(json.dumps(b["stats"])))
    share = len(json.dumps(largest["stats"]))
    names = ", ".join(repr(c) for c in largest["columns"])
    return DataError(
        f"The model file would be {size / 2**20:.0f} MB, beyond the {MAX_BYTES // 2**20} MB a model file may "
        f"have, so nbapp would not open it again; it was not saved. Column {names} takes "
        f"{share / 2**20:.0f} MB of it: fit it with fewer distinct values or terms (for a text column a "
        "smaller n-gram range, stop words or stemming; min_df and max_features do not shrink the "
        "statistics), or with fewer classes, or type it 'ignore'."
    )


def refuse_pickle(name: str | None, data: bytes | str) -> None:
    """The one pickle refusal: by file name or by the bytes a pickle starts with."""
    head = data[:2] if isinstance(data, bytes) else b""
    if (name is not None and name.lower().endswith(PICKLE_SUFFIXES)) or head[:1] == b"\x80" \
            or head in (b"cc", b"(d", b"(l"):
        raise DataError("Pickle files are refused: nbapp loads models from JSON only, because unpickling "
                        "a file can run any code on this machine. Save the model as JSON (Download the "
                        "model) and load that file instead.")


def model_from_json(text: str | bytes, name: str | None = None) -> Any:
    from nbapp.model import NaiveBayes

    refuse_pickle(name, text)
    data = _parse(text)
    _only(data, _TOP_KEYS, "the model file")
    settings = _get(data, "settings", dict)
    features = _get(settings, "features", dict, "settings")
    model = NaiveBayes.from_settings(
        {c: spec_from_dict(s, f"feature {c!r}") for c, s in features.items()},
        Settings.from_dict({k: v for k, v in settings.items() if k != "features"}, "settings"))
    key = "state" if data["version"] == 1 else "stats"
    stats = _stats(model, data, key)
    target = _get(data, "target", str)
    weight = data.get("weight")
    if weight is not None and not isinstance(weight, str):
        raise DataError(f"weight is {weight!r}; it should be a column name or null.")
    model.fit_stats(stats, target, weight)
    model._prior_values()    # given priors must name exactly the model's classes
    return model


def stats_to_json(stats: ModelStats) -> str:
    """A model's statistics as JSON, to send between processes (the Spark and Dask fits)."""
    return json.dumps({"classes": list(stats.classes), "class_counts": stats.class_counts.tolist(),
                       "blocks": [s.to_state() for s in stats.blocks]}, allow_nan=False)


def stats_from_json(model: Any, text: str) -> ModelStats:
    """Statistics sent by :func:`stats_to_json`, checked against the model's blocks."""
    data = json.loads(text, parse_constant=_reject_constant)
    return _stats(model, {**data, "blocks": [{"kind": cls.kind, "columns": list(columns), "stats": state}
                                             for (cls, columns, _), state in zip(model._layout, data["blocks"])]},
                  "stats")


def _stats(model: Any, data: dict[str, Any], key: str) -> ModelStats:
    """The classes, class counts and every block's statistics of a document, each checked."""
    classes = _classes(_get(data, "classes", list))
    k = len(classes)
    class_counts = state_vector(data.get("class_counts"), k, "class_counts")
    check_class_sums(class_counts, "class_counts")
    if not class_counts.sum() > 0:
        raise DataError("class_counts are all 0; a fitted model has seen at least one row.")
    lost = np.flatnonzero((class_counts > 0) & (class_counts < _RESOLUTION * class_counts.sum()))
    if len(lost):
        i = int(lost[0])
        raise DataError(f"class_counts[{i}] is {class_counts[i]:g} beside a total of {class_counts.sum():g}: too "
                        "small to be part of that total in float64, so no fit counted it; set it to 0 or to the "
                        "class's count of rows.")
    blocks = _get(data, "blocks", list)
    if len(blocks) != len(model._layout):
        raise DataError(f"blocks: the file has {len(blocks)} feature blocks; its features make {len(model._layout)}.")
    saved_by_columns = {}
    for i, saved in enumerate(blocks):      # matched by kind and columns: format 1 ordered them otherwise
        if not isinstance(saved, dict) or not isinstance(saved.get("kind"), str) \
                or not isinstance(saved.get("columns"), list) or not all(isinstance(c, str) for c in saved["columns"]):
            raise DataError(f"blocks[{i}] is {_describe(saved)}; a block has a kind, columns and statistics.")
        saved_by_columns[(saved.get("kind"), tuple(saved["columns"]))] = (i, saved)
    stats = []
    for cls, columns, _ in model._layout:
        if (cls.kind, columns) not in saved_by_columns:
            raise DataError(f"blocks: the file has no {cls.kind} block of {list(columns)}, which its features make.")
        i, saved = saved_by_columns[(cls.kind, columns)]
        where = f"blocks[{i}]"
        _only(saved, {"kind", "columns", key}, where)
        state = _Read(_get(saved, key, dict, where))
        label = f"feature {columns[0]!r}" if len(columns) == 1 else f"the {cls.kind} features"
        stats.append(cls.stats_type.from_state(state, k, label, columns=len(columns)))
        _only(state, state.read | ({"positive"} if key == "state" else set()), label)
        _check_rows_counted(stats[-1], classes, class_counts, label, columns)
    return ModelStats(tuple(classes), class_counts, tuple(stats))


def _check_rows_counted(stats: Any, classes: list[Any], class_counts: np.ndarray, label: str,
                        columns: tuple[str, ...]) -> None:
    """A block counts no more rows of a class than the class has (a categorical count of 1e308
    beside 3 rows), nor a positive weight too small to be part of the class's count in float64
    (a Gaussian n of 1e-300): neither comes from a fit, and both change the answers."""
    counted = stats.rows_counted()
    if counted is None:
        return
    field, rows = counted
    limit = class_counts[:, None]
    excess = np.argwhere(rows > limit * (1 + 1e-9) + 1e-12 * class_counts.sum())
    tiny = np.argwhere((rows > 0) & (rows < _RESOLUTION * limit))
    for cells, problem in ((excess, "more than the class's {} rows"),
                           (tiny, "too small a share of the class's {} rows to be counted in float64")):
        if len(cells):
            c, a = (int(i) for i in cells[0])
            column = f" (column {columns[a]!r})" if len(columns) > 1 else ""
            raise DataError(f"{label}: {field} of class {classes[c]!r}{column} is {rows[c, a]:g}, "
                            f"{problem.format(f'{class_counts[c]:g}')} (class_counts[{c}]); no fit makes that: "
                            "correct the file or fit the model again.")


class _Read(dict):
    """A block's state that remembers which keys its from_state read: any other key is unknown
    (asking the statistics for to_state() instead rebuilt every table as lists to learn its keys)."""

    def __init__(self, state: dict[str, Any]) -> None:
        super().__init__(state)
        self.read: set[str] = set()

    def get(self, key: str, default: Any = None) -> Any:
        self.read.add(key)
        return super().get(key, default)

    def __getitem__(self, key: str) -> Any:
        self.read.add(key)
        return super().__getitem__(key)

    def __contains__(self, key: object) -> bool:
        self.read.add(key)  # type: ignore[arg-type]
        return super().__contains__(key)


def _parse(text: str | bytes) -> dict[str, Any]:
    if len(text) > MAX_BYTES:      # characters of a str are at least bytes: one cap for both
        raise DataError(f"The model file is larger than {MAX_BYTES // 2**20} MB; this is not an nbapp model.")
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise DataError("The model file is not UTF-8 text; nbapp model files are JSON.") from None
    text = text.removeprefix("\ufeff")          # a byte-order mark some editors add
    try:
        with _collector_paused():
            data = json.loads(text, parse_constant=_reject_constant, object_pairs_hook=_reject_duplicates,
                              # one object per distinct number: a table of counts repeats a few
                              # values millions of times, and a float object each cost 4 times the text
                              parse_float=lru_cache(maxsize=_NUMBER_CACHE)(float),
                              parse_int=lru_cache(maxsize=_NUMBER_CACHE)(_parse_int))
    except RecursionError:
        raise DataError("The model file nests too deeply to be an nbapp model.") from None
    except json.JSONDecodeError as exc:
        raise DataError(f"The model file is not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg}).") from None
    _check_tree(data, check_text=_may_hold_surrogates(text))
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise DataError(f"This JSON is not an nbapp model file (no \"format\": \"{FORMAT}\").")
    version = data.get("version")
    if isinstance(version, bool) or version not in READABLE_VERSIONS:
        raise DataError(f"The model file has version {version!r}; this nbapp reads versions "
                        f"{', '.join(map(str, READABLE_VERSIONS))}.")
    return data


@contextmanager
def _collector_paused() -> Iterator[None]:
    """The cyclic garbage collector (process-wide) off while json builds the document: it makes
    only new, acyclic lists and dicts, and a table's million row lists would otherwise start full
    collections again and again (4 times the parse itself on a document of small lists). Other
    threads run little meanwhile (json holds the GIL but in its hooks); it is turned on again
    only if it was on."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()


@dataclass(frozen=True)
class _TooLarge:
    """Stands in for an integer literal beyond any float (Python would refuse to read one of more
    than 4,300 digits with a ValueError); :func:`_check_tree` refuses it naming its field."""

    digits: int


def _parse_int(text: str) -> int | _TooLarge:
    digits = len(text.lstrip("-"))
    if digits > _FLOAT_DIGITS:
        return _TooLarge(digits)
    value = int(text)
    return value if abs(value) <= sys.float_info.max else _TooLarge(digits)


def _may_hold_surrogates(text: str) -> bool:
    """Could a parsed string hold a lone surrogate (an escape such as \\ud800, or one in a str
    given directly)? Such a string is no Unicode text: it fails when written out or shown."""
    # a backslash looked for first (memchr, a tenth of the regex's time on a 30 MB name): no
    # backslash, no escape
    escaped = "\\" in text and _SURROGATE_ESCAPE.search(text) is not None
    return escaped or not text.isascii() and not _is_text(text)


def _is_text(value: str) -> bool:
    if value.isascii():
        return True
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _reject_constant(name: str) -> None:
    raise DataError(f"The model file holds {name}, which is not a number JSON allows.")


def _reject_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out = dict(pairs)
    if len(out) != len(pairs):
        seen: set[str] = set()
        dup = next(k for k, _ in pairs if k in seen or seen.add(k))
        raise DataError(f"The model file repeats the key {dup!r}.")
    return out


def _check_tree(data: Any, *, check_text: bool) -> None:
    """Refuse nesting deeper than the format's, an integer beyond any float, a string or key longer
    than :data:`MAX_NAME_CHARS` and (``check_text``) one that is not Unicode text. The document is
    checked a level at a time with C-speed maps over each level (a table's million rows cost no
    Python loop); a bad value sends the walk to :func:`_locate`, which names its field."""
    level = [data]
    for depth in range(1, _MAX_DEPTH + 2):
        types = set(map(type, level))
        if _TooLarge in types or check_text and not _all_text(level, types) or not _all_short(level, types):
            raise DataError(_locate(data))
        if list not in types and dict not in types:
            return
        if depth > _MAX_DEPTH:
            break
        keys = list(chain.from_iterable(_only_type(level, dict)))
        if check_text and not all(map(_is_text, keys)) or max(map(len, keys), default=0) > MAX_NAME_CHARS:
            raise DataError(_locate(data))
        level = list(chain(chain.from_iterable(_only_type(level, list)),
                           chain.from_iterable(map(dict.values, _only_type(level, dict)))))
    raise DataError("The model file nests too deeply to be an nbapp model.")


def _only_type(level: list[Any], kind: type) -> Iterator[Any]:
    return compress(level, map(isinstance, level, repeat(kind)))


def _all_text(level: list[Any], types: set[type]) -> bool:
    return str not in types or all(map(_is_text, _only_type(level, str)))


def _all_short(level: list[Any], types: set[type]) -> bool:
    return str not in types or max(map(len, _only_type(level, str))) <= MAX_NAME_CHARS


def _long_string(data: Any) -> str | None:
    """The sentence for a string or key of ``data`` longer than :data:`MAX_NAME_CHARS` (None if
    there is none), by the level walk of :func:`_check_tree`."""
    try:
        _check_tree(data, check_text=False)
    except DataError as err:
        return str(err)
    return None


def _locate(data: Any) -> str:
    """The sentence for the first value _check_tree refuses, with its field path (a slow walk,
    taken only when there is one)."""
    stack: list[tuple[list[Any], Any]] = [([], data)]
    while stack:
        path, value = stack.pop()
        if isinstance(value, _TooLarge):
            return (f"{_field(path)} is an integer of {value.digits:,} digits; no count, setting or class in an "
                    "nbapp model is that large.")
        if isinstance(value, str) and len(value) > MAX_NAME_CHARS:
            return _too_long(path, value)
        if isinstance(value, str) and not _is_text(value):
            return (f"{_field(path)} is {_describe(value)}, which holds a lone surrogate and is not Unicode "
                    "text; fix that name in the file or save the model again.")
        if isinstance(value, dict):
            long = next((k for k in value if len(k) > MAX_NAME_CHARS), None)
            if long is not None:
                return _too_long(path, long, key=True)
            bad = next((k for k in value if not _is_text(k)), None)
            if bad is not None:
                return (f"{_field(path)} has the key {bad!r}, which holds a lone surrogate and is not Unicode "
                        "text; fix that name in the file or save the model again.")
            stack.extend(([*path, k], v) for k, v in reversed(value.items()))
        elif isinstance(value, list):
            stack.extend(([*path, i], v) for i, v in reversed(list(enumerate(value))))
    return "The model file holds a value nbapp cannot read."


def _too_long(path: list[Any], name: str, *, key: bool = False) -> str:
    """Names the field and quotes the name's start only: the message of a 30 MB name stays short."""
    where = f"{_field(path)} has a key of" if key else f"{_field(path)} is a name of"
    return (f"{where} {len(name):,} characters, starting {_describe(name[:40])}; names, labels and "
            f"other text in an nbapp model file are at most {MAX_NAME_CHARS:,} characters. Shorten it in the "
            "data (or the file) and fit or save the model again.")


def _field(keys: list[Any]) -> str:
    """A field path as the messages write it: blocks[0].stats.counts[2], settings.features['a b']."""
    out = ""
    for key in keys:
        if key is None:
            continue
        if isinstance(key, int):
            out += f"[{key}]"
        elif key.isidentifier():
            out += f".{key}" if out else key
        else:
            out += f"[{key!r}]"
    return out or "the model file"


def _only(data: Mapping[str, Any], allowed: set[str], where: str) -> None:
    unknown = sorted(set(data) - allowed)
    if unknown:
        raise DataError(f"{where}: unknown key {unknown[0]!r}; this is not a field of an nbapp model file.")


def _get(data: dict[str, Any], key: str, kind: Any, where: str = "") -> Any:
    path = f"{where}.{key}" if where else key
    if key not in data:
        raise DataError(f"The model file has no {path!r}.")
    value = data[key]
    if not isinstance(value, kind) or isinstance(value, bool) and kind is not bool:
        raise DataError(f"{path} is {_describe(value)}; it has the wrong type.")
    return value


def _describe(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _classes(values: list[Any]) -> list[Any]:
    for i, c in enumerate(values):
        if not isinstance(c, (str, int, float)) or isinstance(c, float) and not np.isfinite(c):
            raise DataError(f"classes[{i}] is {_describe(c)}; a class is a string, a finite number or a boolean.")
    if len(set(values)) != len(values):
        seen: set[Any] = set()
        dup = next(c for c in values if c in seen or seen.add(c))
        raise DataError(f"classes: {dup!r} is listed twice; each class is listed once.")
    if not values:
        raise DataError("classes is empty; a fitted model has at least one class.")
    return values
