"""Files written out: CSV exports that are safe to open in a spreadsheet, output paths
checked before the work that fills them (never an input), and files written whole or not at
all (a temporary name renamed at the end).

A cell that starts with ``=``, ``+``, ``-`` or ``@`` (or a tab or carriage return, which
some spreadsheets skip before looking for those) is run as a formula when the file is
opened: a column name or label such as ``=HYPERLINK("http://evil", "x")`` taken from an
uploaded file would become live. Every such text cell and column name gets a leading
single quote, the OWASP "CSV injection" advice; numbers in numeric columns are left as
numbers, so a genuine -3.5 stays a number.
"""

from __future__ import annotations

import fnmatch
import glob
import os
import secrets
import stat
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator, Sequence

import numpy as np
import pandas as pd

from nbapp.errors import DataError
from nbapp._logspace import decide
from nbapp.io._common import TEXT_DTYPE

__all__ = ["safe_csv_bytes", "neutralise", "predictions_frame", "writable_path", "atomic_output"]

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
BOM = "\ufeff"  # tells Excel the file is UTF-8


def predictions_frame(model: Any, frame: pd.DataFrame) -> pd.DataFrame:
    """The rows with the predicted class and P(c | x) per class appended.

    Columns the file already has are never overwritten: a new column whose name is taken
    gets a numbered suffix. An undetermined row (every class impossible) has no prediction.
    """
    log_proba, undetermined = model.log_posterior(frame)
    out = frame.copy()
    taken = set(map(str, out.columns))
    out[_free_name("predicted", taken)] = decide(log_proba.to_numpy(), undetermined.to_numpy(), model.classes_)
    for c in model.classes_:
        out[_free_name(f"P({c})", taken)] = np.exp(log_proba[c].to_numpy())
    return out


def _free_name(name: str, taken: set[str]) -> str:
    candidate, n = name, 1
    while candidate in taken:
        n += 1
        candidate = f"{name} ({n})"
    taken.add(candidate)
    return candidate


def neutralise(value: str) -> str:
    """The text with a leading ``'`` if a spreadsheet would read it as a formula."""
    return "'" + value if value.startswith(FORMULA_STARTS) else value


def safe_csv_bytes(df: pd.DataFrame, *, index: bool = False) -> bytes:
    """The frame as UTF-8 CSV with a byte-order mark, every formula-like text neutralised.

    Text cells, column names and (with ``index=True``) index labels are neutralised;
    numeric, boolean and datetime columns are written as they are.
    """
    safe = pd.DataFrame({i: _safe_column(df.iloc[:, i]) for i in range(df.shape[1])}, index=df.index)
    safe.columns = [_safe_label(c) for c in df.columns]
    if index:
        safe.index = _safe_index(df.index)
    text = safe.to_csv(index=index, lineterminator="\n")
    return (BOM + text).encode("utf-8")


def _safe_label(label: object) -> object:
    return neutralise(label) if isinstance(label, str) else label


def _safe_index(index: pd.Index) -> pd.Index:
    if isinstance(index, pd.MultiIndex):
        levels = [_safe_index(index.get_level_values(i)) for i in range(index.nlevels)]
        names = [_safe_label(n) for n in index.names]
        return pd.MultiIndex.from_arrays(levels, names=names)
    values = _safe_column(pd.Series(index, index=range(len(index))))
    return pd.Index(values.to_numpy(), name=_safe_label(index.name))


def _safe_column(column: pd.Series) -> pd.Series:
    """Neutralise the strings of a column; numbers, booleans and dates pass unchanged."""
    if isinstance(column.dtype, pd.CategoricalDtype):
        column = column.astype(object)
    if pd.api.types.is_numeric_dtype(column) or pd.api.types.is_datetime64_any_dtype(column):
        return column
    if pd.api.types.infer_dtype(column, skipna=True) in ("string", "empty"):
        text = column.astype(object)
        risky = column.str.startswith(FORMULA_STARTS, na=False).to_numpy(dtype=bool)
        # TEXT_DTYPE, not astype(str): of Arrow text, pandas 2.3's astype(str) builds a fixed-width
        # NumPy array, rows x the longest cell x 4 bytes (5.7 GB for a 5 MB cell among 300 rows)
        return text.where(~risky, "'" + column.astype(TEXT_DTYPE))
    # Mixed objects (numbers next to text): only the str cells can carry a formula.
    return column.map(lambda v: neutralise(v) if isinstance(v, str) else v)


def writable_path(path: str | os.PathLike, *, inputs: Sequence[str | os.PathLike] = (),
                  suffixes: Sequence[str] | None = None, what: str = "output") -> Path:
    """``path`` as a file that can be written, checked before the work that fills it: fitting
    or predicting a large file must not end in an error about where its result goes, and an
    output must never destroy what the work reads.

    Refused: a folder; a file that is one of ``inputs`` (a file, a folder or a glob, as given
    to the work) after symbolic links are resolved, or that falls inside an input folder or
    matches an input glob (it would be read as input by the next run); a name not ending in
    one of ``suffixes`` (when given); a missing or read-only folder, or a read-only file.
    Write it with :func:`atomic_output`.
    """
    out = Path(path)
    if out.is_dir():
        raise DataError(f"{str(out)!r} is a folder; give a file name in it.")
    for source in inputs:
        _refuse_input(out, os.fspath(source), what)
    if suffixes is not None and not out.name.lower().endswith(tuple(s.lower() for s in suffixes)):
        raise DataError(f"Write the {what} to a {' or '.join(suffixes)} file, not {out.name!r}.")
    folder = out.parent
    if not folder.is_dir():
        raise DataError(f"Cannot write {str(out)!r}: the folder {str(folder)!r} does not exist; create it or "
                        "choose another file.")
    if not os.access(folder, os.W_OK) or (out.exists() and not os.access(out, os.W_OK)):
        raise DataError(f"Cannot write {str(out)!r}: permission denied; choose another file.")
    return out


def _refuse_input(out: Path, source: str, what: str) -> None:
    """DataError if writing ``out`` would overwrite, or add to, the input ``source``."""
    real = os.path.realpath(out)
    fix = f"choose another {what} file; the input is left as it is"
    if os.path.isdir(source):
        folder = os.path.realpath(source)
        if os.path.commonpath([folder, real]) == folder:
            raise DataError(f"The {what} {str(out)!r} is inside the input folder {source!r}, where the next run "
                            f"would read it as data; {fix}.")
    elif os.path.exists(source) and (real == os.path.realpath(source)
                                     or out.exists() and os.path.samefile(out, source)):
        raise DataError(f"The {what} {str(out)!r} is the input file {source!r}; {fix}.")
    if glob.has_magic(source) and (_matches(real, source) or _matches(os.path.abspath(out), source)):
        raise DataError(f"The {what} {str(out)!r} matches the input pattern {source!r}, so the next run would "
                        f"read it as data; {fix}.")


def _matches(file: str, pattern: str) -> bool:
    """Does the absolute path ``file`` match ``pattern`` as :func:`glob.glob` would expand it
    (one name per path component; the pattern's folder before its first wildcard resolved)?"""
    parts = Path(os.path.abspath(pattern)).parts
    first = next(i for i, part in enumerate(parts) if glob.has_magic(part))
    pattern_parts = Path(os.path.realpath(os.path.join(*parts[:first]))).parts + parts[first:]
    file_parts = Path(file).parts
    return len(file_parts) == len(pattern_parts) and all(
        fnmatch.fnmatch(name, part) for name, part in zip(file_parts, pattern_parts))


@contextmanager
def atomic_output(path: str | os.PathLike) -> Iterator[Path]:
    """A temporary file in ``path``'s folder to write into; renamed to ``path`` (os.replace)
    when the block ends without an error, removed when it raises or is interrupted. A failed
    run leaves nothing behind and never half a file; an existing file keeps its permissions.

    The temporary name starts with a dot and ends in ``.tmp``, so a folder or ``*.csv`` read
    as input by another run never picks it up.
    """
    final = Path(os.path.realpath(path))    # through a symbolic link, as open() would write
    temporary = _create_temporary(final)
    try:
        yield temporary
        os.replace(temporary, final)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


def _create_temporary(final: Path) -> Path:
    for _ in range(100):
        candidate = final.with_name(f".{final.name}.{secrets.token_hex(4)}.tmp")
        try:      # mode 0o666 less the umask, as open() would create the file itself
            os.close(os.open(candidate, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
        except FileExistsError:
            continue
        except OSError as exc:
            raise DataError(f"Cannot write {str(final)!r} ({exc.strerror or exc}); choose another file.") from None
        if final.exists():
            os.chmod(candidate, stat.S_IMODE(final.stat().st_mode))
        return candidate
    raise DataError(f"Cannot find a free temporary name beside {str(final)!r}; clear the folder's .tmp files.")
