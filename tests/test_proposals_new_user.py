"""What a new user met on real files (issue 33, item 5): whole measurements far from zero
(flipper length in mm, ages, years of schooling) were proposed as Poisson counts, some columns of
a file Poisson and others Gaussian; Mroz's 0/1 outcome was not proposed as the target; the
Titanic frequency table's Freq was recognised as a count but not made the weight, and the Data
page counted the classes without it."""

from __future__ import annotations

import numpy as np
import pandas as pd

import nbapp
from apptest_helpers import clear_caches, start, upload  # noqa: F401 (autouse fixture)
from nbapp.propose import propose_feature_types, propose_target, propose_weight

# Titanic as a frequency table (R's datasets::Titanic): one row per cell, Freq people in it.
TITANIC = pd.DataFrame(
    [(c, s, a, v) for c in ("1st", "2nd", "3rd", "Crew") for s in ("Male", "Female") for a in ("Child", "Adult")
     for v in ("No", "Yes")], columns=["Class", "Sex", "Age", "Survived"])
TITANIC["Freq"] = [0, 5, 118, 57, 0, 1, 4, 140, 0, 11, 154, 14, 0, 13, 13, 80, 35, 13, 387, 75, 17, 14, 89, 76, 0, 0,
                   670, 192, 0, 0, 3, 20]


def test_whole_measurements_far_from_zero_are_gaussian_and_counts_from_zero_poisson():
    penguins = nbapp.examples.load_example("penguins")
    types = propose_feature_types(penguins, "species").set_index("column")["type"]
    assert types["flipper_length_mm"] == "kde" and types["body_mass_g"] == "gaussian"     # two modes; not counts
    rng = np.random.default_rng(1)
    n = 300
    frame = pd.DataFrame({"educ": rng.integers(9, 16, n), "age": rng.integers(30, 61, n),
                          "visits": rng.poisson(3, n), "y": rng.choice(["a", "b"], n)})
    types = propose_feature_types(frame, "y").set_index("column")["type"]
    assert types["educ"] == "gaussian" and types["age"] == "gaussian"
    assert types["visits"] == "poisson"


def test_a_zero_one_outcome_among_numbers_is_the_proposed_target():
    rng = np.random.default_rng(2)
    n = 200
    mroz = pd.DataFrame({"inlf": rng.integers(0, 2, n), "hours": rng.integers(0, 3000, n),
                         "kidslt6": rng.integers(0, 3, n), "kidsge6": rng.integers(0, 8, n),
                         "age": rng.integers(30, 61, n), "educ": rng.integers(5, 18, n)})
    assert propose_target(mroz) == "inlf"


def test_a_frequency_table_gets_its_freq_as_the_weight_and_the_classes_counted_with_it():
    assert propose_weight(TITANIC, "Survived") == "Freq"
    assert propose_target(TITANIC) == "Survived"
    at = upload(start(), "titanic.csv", TITANIC.to_csv(index=False).encode())
    work = at.session_state["work"]
    assert work.target == "Survived" and work.weight == "Freq"
    caption = next(c.value for c in at.caption if "Classes" in c.value)
    assert "weighted by Freq" in caption
    assert "No (1,490)" in caption and "Yes (711)" in caption
