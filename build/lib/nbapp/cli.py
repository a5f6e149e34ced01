"""The ``nbapp`` command line, for analysts and batch jobs.

    nbapp fit DATA --target y --types Outlook=categorical,Temp=gaussian [--alpha 1] --out model.json
    nbapp predict model.json DATA --out predictions.csv
    nbapp explain model.json --row '{"Outlook": "Sunny", "Temp": 21}'

DATA is read by :func:`nbapp.load_table` (CSV, TSV, Excel) with the same checks and notes as
the app. Bad input is one line on stderr and exit code 2; the model file is versioned JSON.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Sequence

from nbapp.errors import DataError

__all__ = ["main"]

EXIT_BAD_INPUT = 2


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        return args.run(args)
    except DataError as err:
        print(f"nbapp: {err}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except OSError as err:
        print(f"nbapp: {err.strerror or err}: {err.filename}", file=sys.stderr)
        return EXIT_BAD_INPUT


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="nbapp", description="Naive Bayes with explanations.")
    commands = parser.add_subparsers(required=True, metavar="COMMAND")

    fit = commands.add_parser("fit", help="fit a model on a table and save it as JSON")
    fit.add_argument("data", help="a CSV, TSV or Excel file")
    fit.add_argument("--target", required=True, help="the column to predict")
    fit.add_argument("--types", help="column=type,... (categorical, bernoulli, multinomial, gaussian, text, "
                                     "poisson, ignore); the rest as nbapp proposes")
    fit.add_argument("--alpha", type=float, default=1.0, help="Lidstone smoothing l (0 = MLE)")
    fit.add_argument("--weight", help="a column of row weights")
    fit.add_argument("--out", required=True, help="where to write the model (JSON)")
    fit.set_defaults(run=_fit)

    predict = commands.add_parser("predict", help="predict every row of a table")
    predict.add_argument("model", help="a model file (JSON)")
    predict.add_argument("data", help="a CSV, TSV or Excel file")
    predict.add_argument("--out", required=True, help="where to write the predictions (CSV)")
    predict.set_defaults(run=_predict)

    explain = commands.add_parser("explain", help="the step-by-step posterior of one example")
    explain.add_argument("model", help="a model file (JSON)")
    explain.add_argument("--row", required=True, help='the example as JSON, e.g. \'{"Outlook": "Sunny"}\'')
    explain.set_defaults(run=_explain)
    return parser


def _fit(args: argparse.Namespace) -> int:
    from nbapp.io import load_table
    from nbapp.model import NaiveBayes
    from nbapp.propose import propose_feature_types

    given = _types(args.types)
    table = load_table(Path(args.data).read_bytes(), Path(args.data).name)
    for note in table.notes:
        print(f"note: {note}", file=sys.stderr)
    proposal = propose_feature_types(table.frame, args.target)
    types = dict(zip(proposal["column"], proposal["type"]))
    types.update(given)
    types.pop(args.target, None)
    if args.weight:
        types.pop(args.weight, None)
    model = NaiveBayes(types, alpha=args.alpha).fit(table.frame, args.target, weight=args.weight)
    Path(args.out).write_text(model.to_json(), encoding="utf-8")
    print(f"fitted {len(table.frame):,} rows, classes {model.classes_}; wrote {args.out}", file=sys.stderr)
    return 0


def _types(text: str | None) -> dict[str, str]:
    out: dict[str, str] = {}
    for item in filter(None, (text or "").split(",")):
        column, sep, kind = item.partition("=")
        if not sep:
            raise DataError(f"--types takes column=type pairs separated by commas; {item!r} has no '='.")
        out[column.strip()] = kind.strip()
    return out


def _load_model(path: str):
    from nbapp.persist import model_from_json

    return model_from_json(Path(path).read_bytes(), name=Path(path).name)


def _predict(args: argparse.Namespace) -> int:
    from nbapp.io import load_table, predictions_frame, safe_csv_bytes

    model = _load_model(args.model)
    table = load_table(Path(args.data).read_bytes(), Path(args.data).name)
    out = predictions_frame(model, table.frame)
    Path(args.out).write_bytes(safe_csv_bytes(out))
    print(f"predicted {len(out):,} rows; wrote {args.out}", file=sys.stderr)
    return 0


def _explain(args: argparse.Namespace) -> int:
    import pandas as pd

    model = _load_model(args.model)
    try:
        row = json.loads(args.row)
    except json.JSONDecodeError as err:
        raise DataError(f"--row is not valid JSON ({err.msg} at column {err.colno}).") from None
    if not isinstance(row, dict):
        raise DataError("--row must be a JSON object of column -> value.")
    e = model.explain(row)
    with pd.option_context("display.width", 160, "display.max_columns", 50):
        print(e.factors[["kind", "value", "status", *[c for c in e.factors.columns if c.startswith("log[")]]])
        print()
        print(pd.DataFrame({"joint log": e.joint_log, "posterior": e.posterior}))
    print(f"\nprediction: {'undetermined' if e.undetermined else e.prediction}")
    for note in e.notes:
        print(f"note: {note}")
    return 0
