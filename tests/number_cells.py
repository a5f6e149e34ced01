"""One shared corpus of cells for every reader of numbers (issue 34, item 4).

The cells the fuzzers of the loaders and the engines draw from live here (each fuzzer imports its
list), and :func:`systematic_cells` writes out some 270,000 more, built from the parts a number
cell is made of (signs, leading zeros, digit counts around 15-17, decimal points and commas,
thousands separators, exponents, spaces, NaN and infinity spellings, percent and currency signs,
other scripts' minus signs and digits, empty). ``tests/test_number_rule.py`` reads them all
with load_table's careful path, its fast path and DuckDB's SQL, and with the score-time rule.
"""

from __future__ import annotations

import itertools
import re

import numpy as np

# tests/test_loading_fast.py: the random tables of both paths
FAST_PATH_CELLS = ["0", "1", "-2", "+3", "4.5", ".5", "6.", "1e3", "007", "00.5", "12345678901234567",
                   "N/A", "", " ", "?", "-", "none", "inf", "nan", "abc", "Yes", "no", "é", " 7 ", "0x1F",
                   "1e309", "1e200", "True", ".", "e"]

# tests/test_engines.py: the cell rule of fit_file against load_table
HARD_CELLS = ["007", "7", "12345678901234567", "NA", "", "1e5", "+3", " 4 ", "4", "inf", "1,5", "-", "?", "n/a",
              "3.0", "-0", "1,500", "x"]
# Numbers to DuckDB's cast, not to load_table's pattern.
CAST_ONLY_NUMBERS = ["+-1", "1_000", "-nan", "+nan", "nan(1)", "١٢", "１２"]
# Cells of a number column: DuckDB's reader parses the first group itself (the fast read); it
# cannot parse the second, so the exact read (load_table's rule in SQL) takes the file over.
PARSED_BY_THE_READER = ["1.5", " 4 ", "+3", "-0", ".5", "5.", "1e5", "1E-3", "0001.5", "inf", "-Infinity",
                        "1e400", "1e-400", ""]
LEFT_TO_THE_EXACT_READ = ["NA", "N/A", "?", "-", "null", '"1,500"', "   ", "nan", "NaN"]

# tests/test_loading_fast.py: what Arrow's casts read against the loader's pattern (every string
# of up to three of these characters), and the cells of the leading-zero proof.
ARROW_ALPHABET = "09+-.eExXni ,_"
CODE_ALPHABET = "0123456789+-.xXe"

# tests/test_loading_fast.py's MESSY and CLEAN files and tests/test_loading.py's round trip: the
# cells they write that the lists above do not hold.
FILE_CELLS = ["-01.5", "-0X1f", "1-2", "1.2.3", "1e", "+", "-.", "0", "1E+05", "-3e2", ".25", "-1.25e-3",
              "52000.5", "0.8444218515250481", "1234567890123456", "-123456789012345", " 5 ", " b", "maybe",
              "naïve", "東京", "-Infinity", "1.5", "2.5", "-0.00", "1000000", "-1000000", "999.99", "-999.99"]


def fuzzer_cells() -> list[str]:
    """Every cell of the fuzzers' lists, the strings of up to three characters of both alphabets
    (3,164 cells), and 3,000 random strings of the leading-zero proof's alphabet."""
    cells = [*FAST_PATH_CELLS, *HARD_CELLS, *CAST_ONLY_NUMBERS, *PARSED_BY_THE_READER,
             *(c.strip('"') for c in LEFT_TO_THE_EXACT_READ), *FILE_CELLS]
    for alphabet in (ARROW_ALPHABET, CODE_ALPHABET):
        for length in (1, 2, 3):
            cells += ["".join(p) for p in itertools.product(alphabet, repeat=length)]
    rng = np.random.default_rng(34)
    letters = np.array(list(CODE_ALPHABET))
    cells += ["".join(rng.choice(letters, rng.integers(1, 19))) for _ in range(3_000)]
    return cells


SIGNS = ["", "+", "-", "\u2212", "+-", "--"]          # U+2212 is the minus sign of typeset numbers
WHOLE_PARTS = ["", "0", "00", "007", "1", "12", "123", "1234", "9" * 14, "1" + "0" * 14, "9" * 15, "9" * 16,
               "1" + "0" * 15, "9" * 17, "12345678901234567", "9" * 19, "9" * 20, "1,234", "12,345,678", "1,23",
               "1,2345", ",123", "1.234", "1 234", "1_000", "1,234,567,890,123,456", "99,999,999,999,999,999,999",
               "0,123", "١٢", "１２"]
FRACTIONS = ["", ".", ".5", ".25", ".000", ".0000000000000001", ",5", ",25", ".5.5", ".١"]
EXPONENTS = ["", "e5", "E-3", "e+10", "e", "e309", "e-400", "E+", "e1.5", "e\u22122"]
WRAPPINGS = ["{}", " {}", "{} ", " {} ", "\t{}", "{}%", "${}", "{} €", "€{}", "({})", "{}kg", "{}\u00a0",
             "{}.", "{}x", "#{}"]
WORDS = ["nan", "NaN", "NAN", "-nan", "+nan", "nan(1)", "inf", "Inf", "INF", "-inf", "+inf", "Infinity",
         "-Infinity", "+Infinity", "infinity", "INFINITY", "∞", "-∞", "1.#INF", "#N/A", "N/A", "n/a", "NA", "na",
         "null", "NULL", "None", "none", "?", "-", "", " ", "   ", "--", "n.a.", "true", "True", "FALSE", "yes",
         "No", "²", "½", "٣.٥", "0x10", "0b1", "0o7", "1/2", "1:30", "2024-01-01", "1e", "e1", ".e1", "+.", "-.e5"]


def systematic_cells() -> list[str]:
    """Signs x whole parts x fractions x exponents (18,000 cores, two thirds of them no number),
    each in 15 wrappings (spaces, tabs, percent, currency, units): 270,000 cells, and the words."""
    cores = ["".join(parts) for parts in itertools.product(SIGNS, WHOLE_PARTS, FRACTIONS, EXPONENTS)]
    return [wrap.format(core) for wrap in WRAPPINGS for core in cores] + WORDS


def corpus() -> list[str]:
    """The shared corpus: every distinct cell of the fuzzers and the systematic cells, in a fixed
    order (no line ends inside a cell: a record is a line)."""
    return [c for c in dict.fromkeys([*fuzzer_cells(), *systematic_cells()]) if not re.search("[\r\n]", c)]
