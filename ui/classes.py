"""Every class of an explanation in view: the order they are shown in, the posterior table,
and which pair of classes the log-odds chart compares.

One rule for the order (:func:`ranked_classes`): the predicted class first, then the others
by falling posterior, ties kept in the example's declared order (Yes before No, as the notes
write them; the model's order for an upload). The headline, the product lines
and the log-odds chart all follow it, so the prediction is never cut off, whatever the number
of classes or their alphabetical order.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pandas as pd
from scipy.special import logsumexp

from nbapp.explain import class_labels

__all__ = ["labels_of", "label_format", "labelled_rows", "labelled_column", "ranked_classes", "posterior_table",
           "default_pair", "one_vs_rest", "PAIR_MODES", "MAX_SHOWN_CLASSES", "top_classes", "shown_classes",
           "shown_model_classes", "classes_note"]

#: The most classes a page lists in a table, a chart, a list of choices or its equations (issue 31,
#: item 6): a table of 100,000 classes is no help to a reader and costs the server seconds to draw.
#: Beyond it a page shows this many, the most probable first, and says so; the model keeps all its
#: classes and predicts with every one of them.
MAX_SHOWN_CLASSES = 50

#: How the log-odds chart picks its classes (radio options on the Explain page).
PAIR_MODES = {"runner_up": "predicted class against the runner-up",
              "pair": "two classes I choose",
              "rest": "one class against all the others"}


def labels_of(classes: Any) -> list[str]:
    """Each class's name on screen, by the one rule of :func:`nbapp.explain.class_labels`: its text,
    or its repr where two classes print alike (1 and "1" stay two columns: 1 and '1')."""
    return class_labels(list(classes))


def label_format(classes: Any) -> Callable[[Any], str]:
    """A ``format_func`` for widgets offering ``classes`` (or some of them): each class's label
    among all ``classes``."""
    shown = dict(zip(list(classes), labels_of(classes)))
    return lambda c: shown.get(c, str(c))


def labelled_rows(table: pd.DataFrame) -> pd.DataFrame:
    """A table with one row per class (a model's parameters) with the classes' labels as its index."""
    return table.set_axis(pd.Index(labels_of(table.index), name=table.index.name))


def labelled_column(table: pd.DataFrame, column: str, classes: Any) -> pd.DataFrame:
    """A table whose ``column`` holds classes (of the model's ``classes``), holding their labels instead."""
    return table.assign(**{column: table[column].map(label_format(classes))})


def top_classes(classes: Any, weights: Any) -> list[Any]:
    """The :data:`MAX_SHOWN_CLASSES` classes of largest ``weights`` (ties: the first), in the
    order ``classes`` lists them; every class when there are no more."""
    classes = list(classes)
    if len(classes) <= MAX_SHOWN_CLASSES:
        return classes
    keep = np.sort(np.argsort(-np.asarray(weights, dtype=float), kind="stable")[:MAX_SHOWN_CLASSES])
    return [classes[i] for i in keep]


def shown_model_classes(model: Any) -> list[Any]:
    """The classes the Model page shows, in the example's declared order: all of them, or the
    :data:`MAX_SHOWN_CLASSES` of highest prior P(c)."""
    from ui.teaching import display_classes

    ordered = display_classes(list(model.classes_))
    if len(ordered) <= MAX_SHOWN_CLASSES:
        return ordered
    return top_classes(ordered, model.priors_.reindex(pd.Index(ordered, dtype=object)).to_numpy(dtype=float))


def shown_classes(e: Any) -> list[Any]:
    """The classes the Explain page shows of explanation ``e``, in the example's declared order:
    all of them, or the :data:`MAX_SHOWN_CLASSES` most probable (the prediction among them)."""
    from ui.teaching import display_classes

    ordered = display_classes(list(e.classes))
    if len(ordered) <= MAX_SHOWN_CLASSES:
        return ordered
    keep = set(ranked_classes(e)[:MAX_SHOWN_CLASSES])
    return [c for c in ordered if c in keep]


def classes_note(total: int, by: str) -> str | None:
    """The sentence under a table cut to :data:`MAX_SHOWN_CLASSES` classes (None when it is not)."""
    if total <= MAX_SHOWN_CLASSES:
        return None
    return (f"The model has {total:,} classes; this shows the {MAX_SHOWN_CLASSES} with the highest {by}. "
            f"The model keeps all {total:,} and predicts with every one of them.")


def ranked_classes(e: Any) -> list[Any]:
    """The classes of explanation ``e``: the prediction first, then by falling posterior, ties
    (every class when P(x) = 0) in the example's declared order."""
    from ui.teaching import display_classes

    classes = display_classes(list(e.classes))
    order = np.argsort(-e.joint_log.reindex(pd.Index(classes, dtype=object)).to_numpy(dtype=float), kind="stable")
    ranked = [classes[i] for i in order]
    if e.prediction is not None and ranked[0] != e.prediction:  # ties: argmax's choice wins
        ranked.remove(e.prediction)
        ranked.insert(0, e.prediction)
    return ranked


def posterior_table(e: Any) -> pd.DataFrame:
    """One row per class in :func:`ranked_classes` order (the first :data:`MAX_SHOWN_CLASSES`):
    posterior, log posterior, rank."""
    ranked = ranked_classes(e)[:MAX_SHOWN_CLASSES]
    posterior = e.posterior.reindex(pd.Index(ranked, dtype=object)).to_numpy(dtype=float)
    with np.errstate(divide="ignore"):
        log_posterior = (np.log(posterior) if e.undetermined      # P(x) = 0: the prior's log stands in
                         else e.joint_log.reindex(pd.Index(ranked, dtype=object)).to_numpy(dtype=float)
                         - e.log_evidence)
    name = label_format(e.classes)       # labels among all the classes: 1 and "1" stay apart
    return pd.DataFrame({"rank": np.arange(1, len(ranked) + 1), "class": [name(c) for c in ranked],
                         "P(c | x)": posterior, "log P(c | x)": log_posterior})


def default_pair(e: Any) -> tuple[Any, Any]:
    """The predicted class (or the most probable) and the runner-up."""
    ranked = ranked_classes(e)
    return ranked[0], ranked[1]


def one_vs_rest(e: Any, cls: Any) -> tuple[pd.DataFrame, float]:
    """Each used factor's log-odds of ``cls`` against every other class (a column per class,
    ranked; the first :data:`MAX_SHOWN_CLASSES`), and the total log P(cls | x) / P(not cls | x).

    The factors add up per pair of classes only; against the rest taken together the odds are
    a ratio of sums (P(not cls | x) = sum of the others' posteriors), so only the total is exact.
    """
    others = [c for c in ranked_classes(e) if c != cls]
    label = label_format(e.classes)
    logs = e.logs.loc[e.used]
    table = pd.DataFrame({label(c): logs[cls] - logs[c] for c in others[:MAX_SHOWN_CLASSES]})
    joint = e.joint_log.drop(cls)           # the total weighs every other class, shown or not
    return table, float(e.joint_log[cls] - logsumexp(joint.to_numpy(dtype=float)))
