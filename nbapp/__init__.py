"""nbapp: Naive Bayes with mixed feature types, missing values and exact explanations.

A pure library (numpy, pandas, scipy): usable from a notebook, and the model behind the
nbapp workbench. The specification is the five lecture texts of the project (the seeds);
docstrings cite them by seed and equation number.
"""

from nbapp.errors import DataError
from nbapp.examples import EXAMPLES, Example, load_example
from nbapp.explain import Explanation
from nbapp.io import Table, load_corpus, load_table, neutralise, safe_csv_bytes, workbook_sheets
from nbapp.linear import LinearForm
from nbapp.model import NaiveBayes, merge
from nbapp.nomogram import Nomogram, nomogram, nomogram_row, nomogram_scales
from nbapp.score_card import CardFeature, ScoreCard
from nbapp.propose import check_target, propose_feature_types, propose_target
from nbapp.settings import Settings
from nbapp.scale import (cross_validate_file, fit_dask, fit_file, fit_spark, fit_sql, predict_dask, predict_file,
                         predict_spark)
from nbapp.smoothing import BetaPrior, Lidstone, MEstimate
from nbapp.dependence import conditional_mutual_information
from nbapp.specs import KDE, Bernoulli, Categorical, Discretized, Gaussian, Multinomial, Poisson, Text
from nbapp.stats import ModelStats

__all__ = [
    "EXAMPLES",
    "Example",
    "load_example",
    "check_target",
    "load_corpus",
    "load_table",
    "neutralise",
    "propose_feature_types",
    "propose_target",
    "safe_csv_bytes",
    "workbook_sheets",
    "Table",
    "BetaPrior",
    "Bernoulli",
    "Categorical",
    "DataError",
    "Discretized",
    "Explanation",
    "Gaussian",
    "KDE",
    "Lidstone",
    "LinearForm",
    "MEstimate",
    "ModelStats",
    "Multinomial",
    "NaiveBayes",
    "Nomogram",
    "Poisson",
    "Settings",
    "Text",
    "merge",
    "nomogram",
    "nomogram_scales",
    "nomogram_row",
    "ScoreCard",
    "CardFeature",
    "conditional_mutual_information",
    "fit_file",
    "fit_sql",
    "predict_file",
    "fit_spark",
    "predict_spark",
    "fit_dask",
    "predict_dask",
    "cross_validate_file",
]

__version__ = "0.2.0"
