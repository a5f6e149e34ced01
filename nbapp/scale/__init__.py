"""Fitting beyond one in-memory frame, into the same model the app explains.

Naive Bayes needs one pass of additive statistics (:mod:`nbapp.stats`), so each part of the
data — a batch of a file bigger than memory, a partition of a Spark or Dask table — is
summarised where it is, only the statistics travel, and they are added up into one model
equal to a fit on all the rows. The engines are optional: each function imports its own
(DuckDB, PySpark, Dask) when called, so ``import nbapp`` never needs them. The operator's
databases, named as Streamlit names connections (``[connections.NAME]`` in secrets.toml), are
read through :mod:`nbapp.scale._database`.
"""

from nbapp.scale._files import MAX_FILES, Stopped, fit_file, predict_file, resolve_sources, sample_rows
from nbapp.scale._sql import fit_sql
from nbapp.scale._evaluate import cross_validate_file, hash_folds
from nbapp.scale._clusters import fit_dask, fit_spark, predict_dask, predict_spark
from nbapp.scale._database import (Connection, Connections, DatabaseTable, Relation, connection_url,
                                   cross_validate_database, database_sample, database_tables, fit_database,
                                   parse_connections, read_connections)

__all__ = ["fit_file", "resolve_sources", "sample_rows", "MAX_FILES", "Stopped", "fit_sql", "predict_file", "cross_validate_file", "hash_folds", "fit_dask", "fit_spark", "predict_dask", "predict_spark",
           "Connection", "Connections", "DatabaseTable", "Relation", "connection_url", "cross_validate_database",
           "database_sample", "database_tables", "fit_database", "parse_connections", "read_connections"]
