"""Models as versioned JSON: settings plus sufficient statistics, never pickle.

A model file is untrusted input. It is parsed strictly: no NaN / Infinity literals, no
duplicate keys, bounded size and nesting, a known format name and version, every key
checked. Anything else is refused with a DataError that says what is wrong.
"""

from __future__ import annotations

import json
from typing import Any

from nbapp.errors import DataError
from nbapp.smoothing import BetaPrior, Lidstone, MEstimate
from nbapp.specs import spec_from_dict, spec_to_dict

__all__ = ["model_to_json", "model_from_json", "FORMAT", "VERSION"]

FORMAT = "nbapp.NaiveBayes"
VERSION = 1
_MAX_BYTES = 200 * 1024 * 1024   # larger than any model of a 50,000-word, 1,000-class corpus
_MAX_DEPTH = 32                   # the format nests 6 levels; deeper is not a model file
_SMOOTHINGS = {"Lidstone": Lidstone, "MEstimate": MEstimate, "BetaPrior": BetaPrior}


def model_to_json(model: Any) -> str:
    smoothing = model.smoothing
    data = {
        "format": FORMAT,
        "version": VERSION,
        "settings": {
            "features": {c: spec_to_dict(s) for c, s in model.features_.items()},
            "alpha": model.alpha,
            "smoothing": None if smoothing is None else {"type": type(smoothing).__name__, **vars(smoothing)},
            "prior_alpha": model.prior_alpha,
            "priors": model.priors if isinstance(model.priors, str) else
            {"classes": list(model.priors), "values": list(model.priors.values())},
            "var_smoothing": model.var_smoothing,
            "variance": model.variance,
        },
        "target": model.target_,
        "weight": model.weight_,
        "classes": model.classes_,
        "class_counts": model.class_counts_.tolist(),
        "blocks": [{"kind": b.kind, "columns": b.columns, "state": b.state()} for b in model._blocks],
    }
    return json.dumps(data, allow_nan=False)


def model_from_json(text: str | bytes) -> Any:
    from nbapp.model import NaiveBayes

    data = _parse(text)
    settings = _get(data, "settings", dict)
    try:
        model = NaiveBayes(
            {c: spec_from_dict(s) for c, s in _get(settings, "features", dict).items()},
            alpha=_get(settings, "alpha", (int, float)),
            smoothing=_smoothing(settings.get("smoothing")),
            prior_alpha=_get(settings, "prior_alpha", (int, float)),
            priors=_priors(settings.get("priors")),
            var_smoothing=_get(settings, "var_smoothing", (int, float)),
            variance=_get(settings, "variance", str),
        )
        model.classes_ = list(_get(data, "classes", list))
        counts = _get(data, "class_counts", list)
        import numpy as np

        model.class_counts_ = np.asarray(counts, dtype=float)
        if model.class_counts_.shape != (len(model.classes_),) or (model.class_counts_ < 0).any():
            raise DataError("The model file's class counts do not match its classes.")
        blocks = _get(data, "blocks", list)
        if len(blocks) != len(model._blocks):
            raise DataError("The model file's feature blocks do not match its features.")
        for block, saved in zip(model._blocks, blocks):
            if not isinstance(saved, dict) or saved.get("kind") != block.kind or saved.get("columns") != block.columns:
                raise DataError("The model file's feature blocks do not match its features.")
            block.load_state(_get(saved, "state", dict), len(model.classes_))
        model.target_ = _get(data, "target", str)
        model.weight_ = data.get("weight")
    except DataError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise DataError(f"The model file is malformed ({type(exc).__name__}: {exc}).") from None
    return model


def _parse(text: str | bytes) -> dict[str, Any]:
    if isinstance(text, bytes):
        if text[:1] == b"\x80" or text[:2] in (b"cc", b"(d", b"(l"):
            raise DataError("This looks like a Python pickle file; nbapp loads models from JSON only, "
                            "because unpickling a file can run any code on this machine.")
        if len(text) > _MAX_BYTES:
            raise DataError("The model file is larger than 200 MB; this is not an nbapp model.")
        try:
            text = text.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise DataError("The model file is not UTF-8 text; nbapp model files are JSON.") from None
    try:
        data = json.loads(text, parse_constant=_reject_constant, object_pairs_hook=_reject_duplicates)
    except RecursionError:
        raise DataError("The model file nests too deeply to be an nbapp model.") from None
    except json.JSONDecodeError as exc:
        raise DataError(f"The model file is not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg}).") from None
    if _depth(data) > _MAX_DEPTH:
        raise DataError("The model file nests too deeply to be an nbapp model.")
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise DataError(f"This JSON is not an nbapp model file (no \"format\": \"{FORMAT}\").")
    if data.get("version") != VERSION:
        raise DataError(f"The model file has version {data.get('version')!r}; this nbapp reads version {VERSION}.")
    return data


def _reject_constant(name: str) -> None:
    raise DataError(f"The model file holds {name}, which is not a number JSON allows.")


def _reject_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    keys = [k for k, _ in pairs]
    if len(set(keys)) != len(keys):
        dup = next(k for k in keys if keys.count(k) > 1)
        raise DataError(f"The model file repeats the key {dup!r}.")
    return dict(pairs)


def _depth(value: Any) -> int:
    stack, deepest = [(value, 1)], 0
    while stack:
        item, d = stack.pop()
        deepest = max(deepest, d)
        if isinstance(item, dict):
            stack.extend((v, d + 1) for v in item.values())
        elif isinstance(item, list):
            stack.extend((v, d + 1) for v in item if isinstance(v, (dict, list)))
    return deepest


def _get(data: dict[str, Any], key: str, kind: Any) -> Any:
    if key not in data:
        raise DataError(f"The model file has no {key!r}.")
    value = data[key]
    if not isinstance(value, kind) or isinstance(value, bool) and kind != bool:
        raise DataError(f"The model file's {key!r} has the wrong type.")
    return value


def _smoothing(data: Any) -> Any:
    if data is None:
        return None
    if not isinstance(data, dict) or data.get("type") not in _SMOOTHINGS:
        raise DataError("The model file's smoothing is not one nbapp knows.")
    return _SMOOTHINGS[data["type"]](**{k: v for k, v in data.items() if k != "type"})


def _priors(data: Any) -> Any:
    if isinstance(data, str):
        return data
    if isinstance(data, dict) and isinstance(data.get("classes"), list) and isinstance(data.get("values"), list):
        return dict(zip(data["classes"], data["values"]))
    raise DataError("The model file's priors are malformed.")
