"""The public API, pinned exactly (issue 10): a name added or lost is a decision, made here."""

from __future__ import annotations

import inspect
import subprocess
import sys
from pathlib import Path

import nbapp

PUBLIC = ['Bernoulli', 'BetaPrior', 'Categorical', 'DataError', 'EXAMPLES', 'Example', 'Explanation', 'Gaussian',
          'Lidstone', 'LinearForm', 'MEstimate', 'ModelStats', 'Multinomial', 'NaiveBayes', 'Poisson', 'Settings',
          'Table', 'Text', 'check_target', 'load_corpus', 'load_example', 'load_table', 'merge', 'neutralise',
          'fit_file', 'fit_sql', 'predict_file', 'fit_spark', 'predict_spark', 'fit_dask', 'predict_dask', 'cross_validate_file',
          'propose_feature_types', 'propose_target', 'safe_csv_bytes', 'KDE', 'Discretized',
          'conditional_mutual_information', 'workbook_sheets', 'Nomogram', 'nomogram', 'nomogram_scales',
          'nomogram_row', 'ScoreCard', 'CardFeature']
MODEL_METHODS = ["fit", "partial_fit", "summarize", "summarize_parts", "fit_stats", "merge", "cpt", "counts",
                 "parameters", "gaussian", "gaussian_density", "typical_value", "top_words", "smoothing_of",
                 "missing_columns", "block_of",
                 "explain", "predict", "predict_proba", "predict_log_proba", "log_posterior", "undetermined",
                 "joint_log_likelihood", "linear_form", "sample", "params", "prior_fractions", "with_priors",
                 "with_smoothing", "to_json", "from_json", "gaussian_epsilon", "from_settings", "score_card"]
MODEL_PROPERTIES = ["priors_", "log_prior_", "blocks_", "settings", "alpha", "smoothing", "prior_alpha", "priors",
                    "var_smoothing", "variance", "var_smoothing_mode"]


def test_the_public_names_are_exactly_these():
    assert sorted(nbapp.__all__) == sorted(PUBLIC)
    for name in PUBLIC:
        assert getattr(nbapp, name) is not None
    assert issubclass(nbapp.DataError, ValueError)     # bad input is a ValueError to callers who know no nbapp


def test_the_model_has_exactly_these_public_methods_and_properties():
    public = [n for n in dir(nbapp.NaiveBayes) if not n.startswith("_")]
    properties = [n for n in public if isinstance(inspect.getattr_static(nbapp.NaiveBayes, n), property)]
    methods = [n for n in public if n not in properties]
    assert sorted(methods) == sorted(MODEL_METHODS)
    assert sorted(properties) == sorted(MODEL_PROPERTIES)
    assert all(callable(getattr(nbapp.NaiveBayes, n)) for n in methods)


def test_the_library_imports_no_streamlit_and_no_engine():
    code = ("import sys, nbapp, nbapp.io, nbapp.text, nbapp.lessons, nbapp.blocks, nbapp.scale, nbapp.diagnostics; "
            "print(sorted(m for m in ('streamlit', 'duckdb', 'pyspark', 'dask', 'sklearn') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                         cwd=Path(__file__).resolve().parents[1])
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"          # nor the engines of nbapp.scale until they are used


def test_the_package_version_is_the_one_pyproject_declares():
    import tomllib

    declared = tomllib.loads((Path(__file__).resolve().parents[1] / "pyproject.toml").read_text())
    assert nbapp.__version__ == declared["project"]["version"]
