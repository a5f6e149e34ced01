"""What a model file may hold, below every module that writes or reads one (issue 34, item 6):
the blocks refuse what persist could not save, and persist refuses what no block would write,
so the caps live beneath both."""

from __future__ import annotations

__all__ = ["MAX_BYTES", "MAX_NAME_CHARS"]

# What the parse can afford: a 32 MB model of counts takes about 1.5 s of CPU and 7 times its
# size in memory to load (bench/bench_model_load.py), a hostile document of small lists about 30
# times; json holds the GIL while it parses. It holds a 50,000-word text model of 30 classes.
# Nothing may save a larger file: the loader refuses it.
MAX_BYTES = 32 * 1024 * 1024
# The longest string a model file may hold: a class, column, category or word, a setting, a token
# pattern (issue 31, item 15). The byte cap does not bound one name: a 30 MB class name in a 32 MB
# file made the Model page take 1.1 GB and 41 s.
MAX_NAME_CHARS = 1_000
