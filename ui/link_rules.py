"""What each page's widget accepts for a choice a link carries (issue 31, item 7).

A link's ``work=`` may hold anything: ``evaluate.k = 1000``, ``evaluate.seed = -1``, a row number
of 10^400. A widget given a value outside its range raises, so every choice the address brings
is checked here, once, against the rules of the widget that shows it; a value that breaks them
is dropped (the page then shows its default) with a sentence saying so. The pages take their
widgets' bounds and defaults from :data:`CHOICE_RULES`, so the rule and the widget cannot part.

No streamlit here: the rules are plain values, usable in a test.
"""

from __future__ import annotations

import math
import sys
from dataclasses import dataclass
from typing import Any

from nbapp.exercises import MAX_QUESTIONS
from nbapp.text import MAX_NGRAM_N
from nbapp.text.matching import LINEAR_PATTERNS

__all__ = ["Rule", "CHOICE_RULES", "check_choice", "check_explain_value", "shown_value", "MAX_WHOLE",
           "TEXT_NGRAM_RANGES",
           "unusual_text_options", "unshowable_text_options"]

#: The largest whole number a number input takes (JavaScript's safe integers): a row, a seed, a
#: min_df beyond it cannot be shown by the browser.
MAX_WHOLE = 2**53 - 1
#: Seeds as the exercise sheet and numpy's legacy generators take them.
MAX_SEED = 2**31 - 1


@dataclass(frozen=True)
class Rule:
    """A choice's widget: its label, its default and what it accepts (a whole number or a number
    within [low, high], one of ``options``, or true / false)."""

    label: str
    default: Any
    kind: str                 # "whole", "number", "option" or "yes/no"
    low: float = 0
    high: float = MAX_WHOLE
    options: tuple[Any, ...] = ()

    def problem(self, value: Any) -> str | None:
        """Why ``value`` cannot be this widget's value, or None when it can."""
        if self.kind == "yes/no":
            return None if isinstance(value, bool) else "is not true or false"
        if self.kind == "option":
            return None if _hashable(value) and value in self.options else "is not one of the choices"
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return "is not a number"
        if self.kind == "whole" and not isinstance(value, int):
            return "is not a whole number"
        if not self.low <= value <= self.high:     # inf and nan fail here too; a big int is compared exactly
            return f"is out of range {_number(self.low)}–{_number(self.high)}"
        return None


def _hashable(value: Any) -> bool:
    return isinstance(value, (str, int, float, bool))


def _number(x: float) -> str:
    return f"{x:,}" if isinstance(x, int) else f"{x:g}"


#: Every choice of the pages that a widget shows from the work, by its name in the work.
CHOICE_RULES: dict[str, Rule] = {
    "evaluate.method": Rule("the evaluation method", "kfold", "option", options=("kfold", "loo", "holdout")),
    "evaluate.k": Rule("Folds k", 5, "whole", 2, 50),
    "evaluate.test_size": Rule("Test share", 0.3, "number", 0.1, 0.9),
    "evaluate.seed": Rule("Random seed", 0, "whole", 0, MAX_SEED),
    "evaluate.compare": Rule("the comparison with other classifiers", False, "yes/no"),
    "text.row": Rule("the Text page's row", 0, "whole", 0, MAX_WHOLE),
    "board.step": Rule("the board's step", 0, "whole", 0, MAX_WHOLE),
    "board.unreduced": Rule("the board's unreduced fractions", True, "yes/no"),
    "exercises.n": Rule("Questions", 6, "whole", 1, MAX_QUESTIONS),
    "exercises.seed": Rule("Seed", 0, "whole", 0, MAX_SEED),
    "app.presentation": Rule("presentation mode", False, "yes/no"),
    "app.references": Rule("Show lecture references", None, "yes/no")   # None: as the data's source says,
}


def check_explain_value(column: str, value: Any) -> str | None:
    """None when a link's Explain value for ``column`` is one an input can show; else the note
    saying it is left unset. A number must fit a float: 10^400 (an int json reads exactly) does
    not, nor does 1e400 (json reads it as infinity). Other values are the views' to read (an
    unseen category is explained as unseen, a word where a number belongs is not a number)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    if isinstance(value, float) and math.isfinite(value) or isinstance(value, int) and abs(value) <= _LARGEST_FLOAT:
        return None
    return f"the link's value for column {column!r} ({shown_value(value)}) is not a number an input can show; " \
           "it is left unset"


#: The largest whole number a float holds.
_LARGEST_FLOAT = int(sys.float_info.max)


def shown_value(value: Any, limit: int = 24) -> str:
    """A value from a link as a note shows it: at most ``limit`` characters (10^400 has 401 digits)."""
    text = repr(value) if isinstance(value, str) else str(value)
    return text if len(text) <= limit else text[:limit] + "…"


def check_choice(name: str, value: Any) -> str | None:
    """None when a link's ``value`` for the choice ``name`` is one its widget takes (or no widget
    shows the choice: a page reading it checks it itself); else the note saying it was dropped."""
    rule = CHOICE_RULES.get(name)
    if rule is None:
        return None
    problem = rule.problem(value)
    if problem is None:
        return None
    default = "the default" if rule.default is None else shown_value(rule.default)
    return f"the link's value for {rule.label} ({shown_value(value)}) {problem}; using {default}"


# --------------------------------------------------------------------------- text options (issue 31, item 3)

#: The n-gram ranges the text settings offer (ui.views.text.NGRAMS: 1 to n words, n up to the library's bound).
TEXT_NGRAM_RANGES = tuple((1, n) for n in range(1, MAX_NGRAM_N + 1))
#: The Unicode forms the text settings offer (a checkbox: NFC or none).
TEXT_UNICODE_FORMS = ("NFC", None)


def unusual_text_options(options: Any) -> dict[str, Any]:
    """The text options a link sets that the text settings cannot produce: a token pattern that
    needs the regex engine, an n-gram range or Unicode form the settings do not offer. They are
    held until the visitor confirms them (ui.held_patterns), as a pattern is a program and a wide
    n-gram range a big vocabulary."""
    unusual = {}
    if options.token_pattern not in LINEAR_PATTERNS:
        unusual["token_pattern"] = options.token_pattern
    if tuple(options.ngram_range) not in TEXT_NGRAM_RANGES:
        unusual["ngram_range"] = tuple(options.ngram_range)
    if options.unicode_form not in TEXT_UNICODE_FORMS:
        unusual["unicode_form"] = options.unicode_form
    return unusual


def unshowable_text_options(options: Any) -> dict[str, Any]:
    """The text options no number input can show (min_df, max_features beyond MAX_WHOLE): refused."""
    return {name: getattr(options, name) for name in ("min_df", "max_features")
            if (getattr(options, name) or 0) > MAX_WHOLE}
