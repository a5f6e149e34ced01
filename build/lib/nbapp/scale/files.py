"""Files bigger than memory, through DuckDB: fit and predict in streamed batches.

DuckDB reads the CSV or Parquet file(s) — one file, a glob, or a folder — in parallel and
hands them over as Arrow record batches of ``batch_rows`` rows; each batch becomes a pandas
frame that ``NaiveBayes.summarize`` turns into statistics, which are added up. Memory is
bounded by one batch plus the statistics (the model's size), whatever the file's size.

Types: DuckDB's sniffer decides numbers as pandas would (integers, decimals); columns it would
read as booleans, dates or times are read as text, as ``nbapp.load_table`` keeps them, so the
model's classes and categories are the ones an in-memory fit sees.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

import pandas as pd

from nbapp.errors import DataError

__all__ = ["fit_file", "predict_file"]

Progress = Callable[[int, int], None]
BATCH_ROWS = 200_000
_TEXT_TYPES = ("BOOLEAN", "DATE", "TIME", "TIMESTAMP", "TIMESTAMP WITH TIME ZONE", "INTERVAL")


def fit_file(model: Any, path: str | Path, target: str, weight: str | None = None,
             progress: Progress | None = None, *, batch_rows: int = BATCH_ROWS) -> Any:
    """Fit the (unfitted) model on a CSV or Parquet file, glob or folder, in bounded memory.

    Returns the model, fitted, equal to ``model.fit`` on the whole table in memory.
    ``progress(rows_done, rows_total)`` is called after each batch.
    """
    columns = [target, *model.features_, *([weight] if weight else [])]
    total = None
    for frame, done, rows in _batches(path, columns, batch_rows):
        part = model.summarize(frame, target, weight)
        total = part if total is None else total + part
        if progress is not None:
            progress(done, rows)
    if total is None:
        raise DataError(f"{_describe(path)} has no data rows; nothing to fit.")
    return model.fit_stats(total, target, weight)


def predict_file(model: Any, path: str | Path, out_path: str | Path, progress: Progress | None = None,
                 *, batch_rows: int = BATCH_ROWS) -> Path:
    """Write each row of the file(s) with its predicted class and P(c | x) to ``out_path``
    (CSV, safe to open in a spreadsheet, or Parquet by its suffix), batch by batch."""
    from nbapp.io import predictions_frame, safe_csv_bytes

    out = Path(out_path)
    parquet = out.suffix.lower() == ".parquet"
    writer = None
    with open(out, "wb") as handle:
        for i, (frame, done, rows) in enumerate(_batches(path, None, batch_rows)):
            table = predictions_frame(model, frame)
            if parquet:
                import pyarrow as pa
                import pyarrow.parquet as pq

                batch = pa.Table.from_pandas(table.astype({c: str for c in table.columns if table[c].dtype == object}),
                                             preserve_index=False)
                writer = writer or pq.ParquetWriter(handle, batch.schema)
                writer.write_table(batch)
            else:
                data = safe_csv_bytes(table)
                handle.write(data if i == 0 else data.split(b"\n", 1)[1])
            if progress is not None:
                progress(done, rows)
        if writer is not None:
            writer.close()
    return out


def _batches(path: str | Path, columns: list[str] | None, batch_rows: int):
    """(frame, rows done, rows in all) per batch; frame index = row number in the data (0-based)."""
    import duckdb

    con = duckdb.connect()
    try:
        relation = _relation(con, path)
        if columns is not None:
            missing = [c for c in columns if c not in relation.columns]
            if missing:
                raise DataError(f"{_describe(path)} has no column {missing[0]!r}; its columns are "
                                f"{relation.columns[:10]}.")
            relation = relation.select(*[duckdb.ColumnExpression(c) for c in columns])
        rows = int(relation.aggregate("count(*)").fetchall()[0][0])
        done = 0
        for batch in relation.to_arrow_reader(batch_rows):
            frame = batch.to_pandas()
            frame.index = pd.RangeIndex(done, done + len(frame))
            done += len(frame)
            if len(frame):
                yield frame, done, rows
    except duckdb.Error as err:
        raise DataError(f"{_describe(path)} could not be read: {str(err).splitlines()[0]}") from None
    finally:
        con.close()


def _relation(con: Any, path: str | Path) -> Any:
    files = _files(path)
    if all(f.lower().endswith(".parquet") for f in files):
        return con.read_parquet(files)
    sniffed = con.read_csv(files, header=True)
    as_text = {c: "VARCHAR" for c, t in zip(sniffed.columns, sniffed.types) if str(t) in _TEXT_TYPES}
    return con.read_csv(files, header=True, dtype=as_text) if as_text else sniffed


def _files(path: str | Path) -> list[str]:
    """One file, the files a glob matches, or the CSV / Parquet files of a folder."""
    p = Path(path)
    if p.is_dir():
        found = sorted(str(f) for f in p.iterdir() if f.suffix.lower() in (".csv", ".tsv", ".parquet"))
    elif any(ch in str(path) for ch in "*?["):
        found = sorted(str(f) for f in Path(p.anchor or ".").glob(str(p.relative_to(p.anchor)) if p.anchor else str(p)))
    else:
        found = [str(p)] if p.exists() else []
    if not found:
        raise DataError(f"{_describe(path)} names no CSV or Parquet file; give a file, a glob or a folder of them.")
    return found


def _describe(path: str | Path) -> str:
    return f"The path {str(path)!r}"
