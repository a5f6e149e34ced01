"""The command line: fit, predict and explain without the app.

    nbapp fit DATA --target y [--types col=gaussian,col2=categorical] [--alpha 1] --out model.json
    nbapp fit --sql "SELECT ..." --url postgresql://user@host:port/db --target y --out model.json
    nbapp predict model.json DATA --out predictions.csv
    nbapp explain model.json --row '{"Outlook": "Sunny"}'

DATA is a CSV or Parquet file, a glob or a folder; fitting hands its statistics to DuckDB
(:func:`nbapp.fit_file`) and predicting streams it (:func:`nbapp.predict_file`), so it may be
larger than memory. ``--sql`` fits from a table or a query in a database instead, computing
the statistics inside it (:func:`nbapp.fit_sql`). Bad input gives one line on stderr and exit
code 2; a progress bar is drawn on stderr when it is a terminal.

An output is never an input: --out naming the data (its file, a file in its folder or one its
glob matches) or the model file is refused before any work, and every output is written to a
temporary name beside it and renamed at the end, so a failed run leaves no file behind.
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
import threading
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Iterator, Sequence, TextIO

import pandas as pd

from nbapp.blocks import feature_types
from nbapp.errors import DataError

__all__ = ["main"]

BAD_INPUT = 2
# Enough rows to propose a type per column, few enough to read in a moment.
SAMPLE_ROWS = 10_000


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; returns the exit code (0, or 2 for bad input)."""
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        with _ended_by_signals():
            args.run(args)
    except DataError as exc:
        print(f"nbapp: {' '.join(str(exc).split())}", file=sys.stderr)
        return BAD_INPUT
    return 0


@contextmanager
def _ended_by_signals() -> Iterator[None]:
    """SIGTERM and SIGHUP end the command as Ctrl-C does, by an exception, so a temporary output
    is removed on the way out (atomic_output) instead of staying beside --out (issue 31, item 13);
    the exit code is 128 + the signal's number, as a shell reports it. SIGKILL cannot be caught:
    it leaves the hidden ``.NAME.xxxxxxxx.tmp`` (see the README)."""
    if threading.current_thread() is not threading.main_thread():
        yield                    # Python lets only the main thread set handlers
        return

    def end(signum: int, frame: Any) -> None:
        raise SystemExit(128 + signum)

    previous = {s: signal.signal(s, end) for s in (signal.SIGTERM, signal.SIGHUP)}
    try:
        yield
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="nbapp", description="Naive Bayes with mixed feature types.")
    commands = parser.add_subparsers(required=True, metavar="command")

    fit = commands.add_parser("fit", help="fit a model on a CSV / Parquet file, glob or folder, or a database table")
    fit.add_argument("data", nargs="?", help="a CSV / Parquet file, glob or folder (or --sql)")
    fit.add_argument("--sql", help="a table name or a SELECT query, fitted inside the database at --url")
    fit.add_argument("--url", default="duckdb://", help="the database of --sql: duckdb:///abs/path.db, "
                                                        "postgresql://user@host:port/db (default duckdb://, in memory)")
    fit.add_argument("--target", required=True)
    fit.add_argument("--types", help=f"col=type,... ({', '.join(feature_types())}); without it every type is "
                                     "proposed from the first rows")
    fit.add_argument("--weight")
    fit.add_argument("--alpha", type=float, default=1.0)
    fit.add_argument("--out", required=True, help="model file (.json)")
    fit.set_defaults(run=_fit)

    predict = commands.add_parser("predict", help="predict every row of a file into CSV or Parquet")
    predict.add_argument("model")
    predict.add_argument("data")
    predict.add_argument("--out", required=True, help="predictions file (.csv or .parquet)")
    predict.add_argument("--keep", default="", help="input columns to copy, e.g. an id: col1,col2")
    predict.set_defaults(run=_predict)

    explain = commands.add_parser("explain", help="the factor table of one example")
    explain.add_argument("model")
    explain.add_argument("--row", required=True, help='the example as JSON, e.g. \'{"Outlook": "Sunny"}\'')
    explain.set_defaults(run=_explain)
    return parser


# -- commands -------------------------------------------------------------------------------------
def _fit(args: argparse.Namespace) -> None:
    from nbapp.io._export import atomic_output, writable_path
    from nbapp.model import NaiveBayes
    from nbapp.scale._files import resolve_sources, fit_file

    if (args.data is None) == (args.sql is None):
        raise DataError("Give the data to fit: a file, glob or folder (DATA), or a table or query with --sql and "
                        "--url, not both.")
    inputs = [args.data] if args.data is not None else []
    out = writable_path(args.out, inputs=inputs, suffixes=(".json",), what="model file")
    if args.sql is not None:
        from nbapp.scale._sql import fit_sql, sample_sql

        sample = None if args.types else sample_sql(args.sql, args.url, SAMPLE_ROWS)
        types = parse_types(args.types) or _proposed_types(sample, "the query", args.target, args.weight)
        model = NaiveBayes(types, alpha=args.alpha)
        with _bar("fit") as progress:
            fit_sql(model, args.sql, args.target, url=args.url, weight=args.weight, progress=progress)
    else:
        from nbapp.scale._files import sample_rows

        files = resolve_sources(args.data).files     # resolved once: the rows proposed from are of the files fitted
        sample = None if args.types else sample_rows(files, SAMPLE_ROWS)
        types = parse_types(args.types) or _proposed_types(sample, repr(args.data), args.target, args.weight)
        model = NaiveBayes(types, alpha=args.alpha)
        with _bar("fit") as progress:
            fit_file(model, files, args.target, args.weight, progress)
    text = model.to_json()
    try:
        with atomic_output(out) as temporary:
            temporary.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise DataError(f"Cannot write the model file {args.out!r} ({exc.strerror or exc}); choose another --out.") \
            from None
    print(f"Fitted {model!r} -> {args.out}")


def _predict(args: argparse.Namespace) -> None:
    from nbapp.io._export import writable_path
    from nbapp.scale._files import PREDICTION_SUFFIXES, predict_file

    # The model file is an input too; predict_file checks again (and writes the file whole).
    writable_path(args.out, inputs=[args.model, args.data], suffixes=PREDICTION_SUFFIXES, what="predictions")
    model = _load_model(args.model)
    keep = [c for c in args.keep.split(",") if c.strip()]
    with _bar("predict") as progress:
        out = predict_file(model, args.data, args.out, progress, keep=keep)
    print(f"Predictions -> {out}")


def _explain(args: argparse.Namespace) -> None:
    model = _load_model(args.model)
    try:
        row = json.loads(args.row)
    except json.JSONDecodeError as exc:
        raise DataError(f"--row is not valid JSON ({exc.msg} at character {exc.pos}); "
                        'write it as \'{"column": "value", ...}\'.') from None
    if not isinstance(row, dict):
        raise DataError('--row must be a JSON object such as \'{"Outlook": "Sunny"}\'.')
    unknown = [c for c in row if c not in model.features_ and c != model.target_]
    if unknown:        # a misspelt column would otherwise silently leave its factor out
        print(f"nbapp: note: {', '.join(map(repr, unknown))} not among the model's features "
              f"({', '.join(map(repr, list(model.features_)[:10]))}{' ...' if len(model.features_) > 10 else ''}); "
              "left out.", file=sys.stderr)
    explanation = model.explain(row)
    with pd.option_context("display.width", 200, "display.max_columns", 50):
        print(explanation.factors.to_string())
        print()
        print("P(c | x):", ", ".join(f"{c} {p:.6g}" for c, p in explanation.posterior.items()))
        print("prediction:", explanation.prediction)
        for note in explanation.notes:
            print("note:", note)


# -- helpers --------------------------------------------------------------------------------------
def parse_types(text: str | None) -> dict[str, str]:
    """'a=gaussian,b=categorical' -> {'a': 'gaussian', 'b': 'categorical'}."""
    if not text:
        return {}
    types = {}
    for item in text.split(","):
        column, sep, kind = item.partition("=")
        if not sep or not column.strip() or not kind.strip():
            raise DataError(f"--types takes column=type pairs separated by commas; {item!r} is not one.")
        types[column.strip()] = kind.strip()
    return types


def _proposed_types(sample: pd.DataFrame, data: str, target: str, weight: str | None) -> dict[str, str]:
    """Types proposed (nbapp.propose_feature_types) from the first rows of the data."""
    from nbapp.propose import propose_feature_types

    if weight and weight not in sample.columns:
        raise DataError(f"The weight column {weight!r} is not in {data}; its columns are "
                        f"{list(sample.columns)[:10]}.")
    proposed = propose_feature_types(sample.drop(columns=[weight] if weight else []), target)
    print("Types proposed from the first rows (set them with --types): " +
          ", ".join(f"{c}={t}" for c, t in zip(proposed["column"], proposed["type"])), file=sys.stderr)
    return dict(zip(proposed["column"], proposed["type"]))


def _load_model(path: str) -> Any:
    from nbapp.model import NaiveBayes

    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise DataError(f"Cannot read the model file {path!r} ({exc.__class__.__name__}); give a model .json "
                        "written by nbapp fit.") from None
    return NaiveBayes.from_json(text)


class _bar:
    """A progress bar on stderr when it is a terminal; otherwise nothing."""

    def __init__(self, label: str, stream: TextIO | None = None) -> None:
        self.label, self.stream = label, stream or sys.stderr

    def __enter__(self) -> Callable[[int, int], None] | None:
        return self.draw if self.stream.isatty() else None

    def draw(self, done: int, total: int) -> None:
        share = done / total if total else 1.0
        filled = int(30 * share)
        self.stream.write(f"\r{self.label} [{'#' * filled}{'.' * (30 - filled)}] {done:,}/{total:,} rows")
        self.stream.flush()

    def __exit__(self, *exc: Any) -> None:
        if self.stream.isatty():
            self.stream.write("\n")
