"""The built-in examples: the seeds' worked examples and two real datasets.

Each :class:`Example` says which file in ``sample_data/`` holds the data, which column is the
target, the suggested type of each feature (columns to ignore are simply left out), the seed's
test example and the seed's smoothing, so a notebook can reproduce a lecture in three lines::

    from nbapp.examples import example, load_example
    ex = example("tennis14")
    model = nbapp.NaiveBayes(features=ex.feature_specs(), alpha=ex.alpha)
    model.fit(load_example("tennis14"), target=ex.target, weight=ex.weight)
    model.explain(ex.query)
"""

from __future__ import annotations

import csv
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any, Mapping

import pandas as pd

from nbapp.errors import DataError

__all__ = ["Example", "EXAMPLES", "SAMPLE_DATA", "example", "load_example"]

SAMPLE_DATA = Path(__file__).resolve().parents[1] / "sample_data"


@dataclass(frozen=True)
class Example:
    """One built-in dataset with its story, its seed and its test example."""

    key: str
    title: str
    story: str
    seed: str
    file: str
    target: str
    features: dict[str, str]
    query: dict[str, Any]
    weight: str | None = None
    alpha: float = 1.0
    notes: str = ""
    # How the example's notes write things: the smoothing symbol (l in seed 000 and 003, α in
    # 001 and 004), the classes and values in the order the notes list them (Yes before No), and
    # the value that counts as 1 for each binary feature (seed 002: Red, SUV, Domestic).
    # These order what is *shown*; the model's classes_ keep the one sorted rule of ordering.py.
    symbol: str = "l"
    class_order: tuple[Any, ...] = ()
    value_order: Mapping[str, tuple[Any, ...]] = field(default_factory=dict)
    positives: Mapping[str, Any] = field(default_factory=dict)

    def feature_specs(self) -> dict[str, Any]:
        """The features as nbapp specs: a binary column gets the notes' positive value (its
        spec's ``positive`` option)."""
        from nbapp.specs import FEATURE_KINDS

        return {c: FEATURE_KINDS[t](positive=self.positives[c]) if c in self.positives else t
                for c, t in self.features.items()}

    @property
    def path(self) -> Path:
        """Where the file lives in ``sample_data/``."""
        return SAMPLE_DATA / self.file


_TENNIS_FEATURES = {
    "Outlook": "categorical",
    "Temperature": "categorical",
    "Humidity": "categorical",
    "Wind": "categorical",
}

EXAMPLES: tuple[Example, ...] = (
    Example(
        key="tennis14",
        title="Play tennis (14 days)",
        story="Should you play tennis on an overcast, hot, humid and windy day?",
        seed="seed 000, Ex. 2.1 (and seed 003)",
        file="tennis14.csv",
        target="Play",
        features=_TENNIS_FEATURES,
        query={"Outlook": "Overcast", "Temperature": "Hot", "Humidity": "High", "Wind": "Strong"},
        alpha=0.0,
        notes="At l = 0 P(Overcast | No) = 0/5, so the answer is Yes with posterior 1; "
        "try l = 1 (Overcast | No becomes 1/8).",
        class_order=("Yes", "No"),
        value_order={"Outlook": ("Sunny", "Overcast", "Rain"), "Temperature": ("Hot", "Mild", "Cool"),
                     "Humidity": ("High", "Normal"), "Wind": ("Weak", "Strong")},
    ),
    Example(
        key="tennis6",
        title="Play tennis (6 days)",
        story="Play tennis on a clouded, mild day with normal humidity and weak wind?",
        seed="seed 001, Examples 1 and 2",
        file="tennis6.csv",
        target="tennis",
        features={
            "outlook": "categorical",
            "temperature": "categorical",
            "humidity": "categorical",
            "wind": "categorical",
        },
        query={"outlook": "clouded", "temperature": "mild", "humidity": "normal", "wind": "weak"},
        alpha=0.0,
        notes="Seed 001 counts relative frequencies, then smooths with alpha over the distinct "
        "values of each attribute.",
        symbol="α",
        class_order=("yes", "no"),
        value_order={"outlook": ("sunny", "clouded", "rain"), "temperature": ("hot", "mild", "cool"),
                     "humidity": ("high", "normal"), "wind": ("weak", "strong")},
    ),
    Example(
        key="sentiment",
        title="Sentiment of six sentences",
        story="Is 'just had my first cheeto ever it was awesome' positive or negative?",
        seed="seed 000, Ex. 2.2",
        file="sentiment.csv",
        target="sentiment",
        features={"text": "text"},
        query={"text": "just had my first cheeto ever it was awesome"},
        alpha=1.0,
        notes="At l = 0 both classes are impossible; the exercise asks for l = 1.",
        class_order=("positive", "negative"),
    ),
    Example(
        key="gender",
        title="Gender from height, weight and foot size",
        story="Is a person 6 feet tall, 130 pounds, with foot size 8, male or female?",
        seed="seed 000, Ex. 2.3",
        file="gender.csv",
        target="Gender",
        features={"Height": "gaussian", "Weight": "gaussian", "Foot_Size": "gaussian"},
        query={"Height": 6, "Weight": 130, "Foot_Size": 8},
        alpha=0.0,
        notes="Gaussian features need no smoothing (Ex. 2.3 c); l does not apply.",
        class_order=("male", "female"),
    ),
    Example(
        key="stolen_cars",
        title="Stolen cars",
        story="Will a red domestic SUV be stolen? There is no such car in the data.",
        seed="seed 002, Ex. 4.a and 4.b",
        file="stolen_cars.csv",
        target="Stolen",
        features={"Color": "bernoulli", "Type": "bernoulli", "Origin": "bernoulli"},
        query={"Color": "Red", "Type": "SUV", "Origin": "Domestic"},
        alpha=0.0,
        notes="The seed's MLE, Bernoulli with Red, SUV and Domestic as 1; the Beta(a, b) prior gives "
        "(N_cd + a) / (N_c + a + b), e.g. Beta(2, 1): P(Red | Yes) = 5/8.",
        symbol="a, b",
        class_order=("Yes", "No"),
        value_order={"Color": ("Red", "Yellow"), "Type": ("Sports", "SUV"), "Origin": ("Domestic", "Imported")},
        positives={"Color": "Red", "Type": "SUV", "Origin": "Domestic"},
    ),
    Example(
        key="bikes",
        title="Campus bikes",
        story="A teal bike is parked outside: is it a Veoride or a private bike?",
        seed="seed 004, campus bikes",
        file="bikes.csv",
        target="bike",
        features={"color": "categorical"},
        query={"color": "teal"},
        weight="count",
        alpha=0.0,
        notes="Change P(veoride) from 0.2 to 0.02 and the answer flips to private.",
        symbol="α",
        class_order=("veoride", "private"),
        value_order={"color": ("teal", "red")},
    ),
    Example(
        key="word_counts",
        title="Sport or politics (word counts)",
        story="A document says ball once, goal once and vote twice: sport or politics?",
        seed="seed 000, Eq. 9-11 (multinomial counts)",
        file="word_counts.csv",
        target="topic",
        features={"ball": "multinomial", "goal": "multinomial", "vote": "multinomial", "law": "multinomial"},
        query={"ball": 1, "goal": 1, "vote": 2, "law": 0},
        alpha=1.0,
        notes="theta = (count of the word in c + l) / (words in c + l d), d = 4 words; each factor is "
        "theta to the power of the count (Eq. 11).",
        class_order=("sport", "politics"),
    ),
    Example(
        key="sms_spam",
        title="SMS spam",
        story="Is this text message spam or ham?",
        seed="seeds 002, 003 and 004 (spam filtering)",
        file="sms_spam.tsv",
        target="label",
        features={"text": "text"},
        query={"text": "WINNER! You have won a free prize, call now to claim it"},
        alpha=1.0,
        notes="SMS Spam Collection v.1 (Almeida and Gomez Hidalgo, 2011), CC BY 4.0.",
        symbol="α",
        class_order=("spam", "ham"),
    ),
    Example(
        key="penguins",
        title="Palmer penguins",
        story="Which species is a penguin, from its island, sex and body measurements?",
        seed="seed 000, section 2.5 (mixed and missing features)",
        file="penguins.csv",
        target="species",
        features={
            "island": "categorical",
            "bill_length_mm": "gaussian",
            "bill_depth_mm": "gaussian",
            "flipper_length_mm": "gaussian",
            "body_mass_g": "gaussian",
            "sex": "categorical",
        },
        query={
            "island": "Biscoe",
            "bill_length_mm": 47.5,
            "bill_depth_mm": 15.0,
            "flipper_length_mm": 217.0,
            "body_mass_g": 5000.0,
        },
        alpha=1.0,
        notes="Real data with missing values (Horst, Hill and Gorman; CC0); the query leaves "
        "sex out, which Eq. 22 simply skips.",
    ),
)

_BY_KEY: Mapping[str, Example] = MappingProxyType({ex.key: ex for ex in EXAMPLES})


def example(key: str) -> Example:
    """The catalogue entry for ``key`` (one of ``[ex.key for ex in EXAMPLES]``)."""
    try:
        return _BY_KEY[key]
    except (KeyError, TypeError):  # TypeError: an unhashable key such as a list
        known = ", ".join(_BY_KEY)
        raise DataError(f"There is no built-in example {key!r}; choose one of: {known}.") from None


def load_example(key: str) -> pd.DataFrame:
    """The example's data as a DataFrame, read from ``sample_data/``.

    The SMS corpus is ``label<TAB>text`` lines without quoting (messages hold quote
    characters), so it is read with quoting switched off.
    """
    ex = example(key)
    if ex.file.endswith(".tsv"):
        return pd.read_csv(
            ex.path,
            sep="\t",
            header=None,
            names=["label", "text"],
            quoting=csv.QUOTE_NONE,
            dtype=str,
            keep_default_na=False,
            encoding="utf-8",
        )
    return pd.read_csv(ex.path, encoding="utf-8")
