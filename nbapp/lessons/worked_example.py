"""Export a worked example: one prediction, step by step, for a slide, a handout or a notebook.

:func:`worked_example_markdown` writes the breakdown of an Explanation as Markdown with
LaTeX formulas, in the order of seed 000, Eq. 5 and seed 004's "posterior = likelihood x
prior / normalization":

1. the prior P(c);
2. each factor P(x_a | c) (exact fractions such as 5/12 where the model has them; a
   Gaussian factor as its density N(x; mu, sigma^2));
3. the joint P(c) prod_a P(x_a | c), as a product and as a sum of logs;
4. the evidence P(x) = sum_c P(c) prod_a P(x_a | c);
5. the posterior P(c | x) = joint / evidence, and the prediction.

:func:`worked_example_snippet` writes a short Python program using ``nbapp`` that
reproduces the same numbers: it reloads a built-in example and refits with the model's
settings, reads a data file with the app's own reader (``nbapp.load_table`` or
``nbapp.load_corpus``), or (by default) rebuilds the fitted model from its JSON.
"""

from __future__ import annotations

import math
import re
from dataclasses import fields, is_dataclass
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

import numpy as np
import pandas as pd

from nbapp.blocks import REGISTRY
from nbapp.blocks.base import TEXT
from nbapp.errors import DataError

__all__ = ["worked_example_markdown", "worked_example_latex", "worked_example_snippet", "latex_text"]

_LATEX_SPECIAL = {"\\": r"\textbackslash{}", "{": r"\{", "}": r"\}", "_": r"\_", "^": r"\^{}",
                  "#": r"\#", "$": r"\$", "%": r"\%", "&": r"\&", "~": r"\~{}"}
# Characters that start emphasis, code, links, HTML, headings, tables or math anywhere in a
# line. ("-", "+" and "1." matter only at a line's start, where data never is here.)
_MARKDOWN_SPECIAL = set("\\`*_{}[]<>#|~$")


def latex_text(value: Any) -> str:
    r"""``value`` as \text{...} with LaTeX's special characters escaped, on one line (a newline
    inside would end the Markdown's $$ ... $$ block)."""
    text = " ".join(str(value).split())
    return r"\text{" + "".join(_LATEX_SPECIAL.get(ch, ch) for ch in text) + "}"


def markdown_text(value: Any) -> str:
    """Plain text safe inside Markdown (and a table cell): special characters escaped."""
    text = " ".join(str(value).split())
    text = _unlinked(text)
    return "".join("\\" + ch if ch in _MARKDOWN_SPECIAL else ch for ch in text)


_LINKED = re.compile(r"(?<=:)(?=//)|(?i:(?<=www))(?=\.)|(?<=@)(?=[-\w])")


def _unlinked(text: str) -> str:
    """A word joiner (U+2060, invisible) inside "://", "www." (any case) and after an e-mail's "@"
    so an address in a label stays text: Markdown renderers (GFM's autolink literals) turn bare
    addresses into links after escapes are resolved (issue 31, item 5)."""
    return _LINKED.sub("\u2060", text)


def _number(x: float, digits: int) -> str:
    """A decimal for LaTeX: plain down to 1e-4, then a x 10^k."""
    if x == 0 or not math.isfinite(x):
        return {math.inf: r"\infty", -math.inf: r"-\infty"}.get(x, "0") if x == x else "?"
    plain = f"{x:.{digits}g}"
    if 1e-4 <= abs(x) and "e" not in plain:
        return plain
    mantissa, exponent = f"{x:.{digits - 1}e}".split("e")
    return rf"{mantissa} \times 10^{{{int(exponent)}}}"


def _from_log(log_value: float, digits: int) -> str:
    """exp(log_value) written from its log, so a joint far below 1e-308 (a long document)
    still shows its digits instead of the 0.0 a float would hold."""
    if not math.isfinite(log_value):
        return "0" if log_value < 0 else r"\infty"
    if log_value > -700:
        return _number(math.exp(log_value), digits)
    exponent10 = log_value / math.log(10.0)
    k = math.floor(exponent10)
    mantissa = 10 ** (exponent10 - k)
    if round(mantissa, digits - 1) >= 10:   # 9.9999 rounds up to the next power of ten
        mantissa, k = mantissa / 10, k + 1
    return rf"{mantissa:.{digits - 1}f} \times 10^{{{k}}}"


def _log_number(x: float, digits: int) -> str:
    if math.isinf(x):
        return r"-\infty" if x < 0 else r"\infty"
    return f"{x:.{digits}f}"


#: Longer fractions (products over many words) are unreadable; the decimal is shown instead.
_MAX_FRACTION_CHARS = 40


def _fraction(f: Fraction | None) -> str | None:
    if f is None or (isinstance(f, float) and math.isnan(f)) or len(str(f)) > _MAX_FRACTION_CHARS:
        return None
    if f.denominator == 1:
        return str(f.numerator)
    return rf"\frac{{{f.numerator}}}{{{f.denominator}}}"


def _exact_approx(exact: str | None, decimal: str) -> str:
    """Exact and decimal as "5/14 ~ 0.3571"; just one when there is no fraction or both read the same."""
    if exact is None or exact == decimal:
        return decimal
    return f"{exact} \\approx {decimal}"


def _value_text(kind: str, value: Any) -> str:
    """A value as the example line shows it: a document (a type whose cells are text) cut at 60 characters."""
    if isinstance(value, str) and getattr(REGISTRY.get(kind), "value_kind", None) == TEXT and len(value) > 60:
        return value[:57] + "..."
    return str(value)


def worked_example_markdown(e: Any, *, model: Any = None, title: str | None = None,
                            target: str | None = None, digits: int = 4,
                            max_words: int = 15) -> str:
    """The explanation ``e`` (``m.explain(row)``) as Markdown with LaTeX formulas.

    ``model`` (optional) adds each density factor's formula with its numbers (a Gaussian's mean
    and variance: ``Block.density_latex``) and the target's
    name (``target`` overrides it). ``max_words`` limits the per-word table of a text
    factor. Labels and values from the data are escaped for LaTeX and Markdown.
    """
    if digits < 1:
        raise DataError(f"digits must be at least 1, got {digits}.")
    classes = list(e.classes)
    target = target or getattr(model, "target_", None) or "y"
    y = latex_text(target)
    factors = e.factors
    used = [n for n in factors.index if factors.at[n, "status"] == "used" and n != "prior"]
    skipped = [n for n in factors.index if factors.at[n, "status"] != "used"]
    lines = [f"## {markdown_text(title or f'Worked example: which {target}?')}", ""]
    shown = [f"{markdown_text(n)} = {markdown_text(_value_text(factors.at[n, 'kind'], factors.at[n, 'value']))}"
             if factors.at[n, "status"] != "missing" else f"{markdown_text(n)} missing"
             for n in factors.index if n != "prior"]
    lines += ["**Test example** x: " + ", ".join(shown), "",
              "Naive Bayes (seed 000, Eq. 5): the posterior is the prior times the likelihood "
              "of each feature, divided by the evidence:", "",
              rf"$$P({y}=c \mid x) = \frac{{P({y}=c)\prod_{{a}} P(x_a \mid c)}}{{P(x)}}$$", ""]
    lines += _prior_section(e, classes, y, digits)
    lines += _factor_section(e, classes, used, skipped, model, digits, max_words)
    lines += _joint_section(e, classes, y, used, digits)
    lines += _posterior_section(e, classes, y, used, digits)
    return "\n".join(_own_paragraphs(lines)) + "\n"


def _own_paragraphs(lines: list[str]) -> list[str]:
    """A blank line after every display equation: Markdown joins consecutive lines into one
    paragraph, and a renderer then runs the equations together on one line (issue 14)."""
    out: list[str] = []
    for i, line in enumerate(lines):
        out.append(line)
        following = lines[i + 1] if i + 1 < len(lines) else ""
        if line.startswith("$$") and following != "":
            out.append("")
    return out


def worked_example_latex(e: Any, *, model: Any = None, title: str | None = None, target: str | None = None,
                         digits: int = 4) -> str:
    r"""The equations of :func:`worked_example_markdown` as a LaTeX document: each equation in its
    own \[ ... \] on its own line, under the same numbered section headings (the tables stay in the
    Markdown). Labels and values from the data are escaped by :func:`latex_text`."""
    markdown = worked_example_markdown(e, model=model, title=title, target=target, digits=digits)
    target = target or getattr(model, "target_", None) or "y"
    heading = title or f"Worked example: which {target}?"
    body = [r"\documentclass{article}", r"\usepackage{amsmath,amssymb}", r"\begin{document}",
            r"\section*{" + latex_text(heading)[len(r"\text{"):-1] + "}", ""]
    for line in markdown.splitlines():
        if line.startswith("### "):
            body += ["", r"\subsection*{" + line[4:] + "}", ""]   # fixed headings ("1. Prior", ...)
        elif line.startswith("$$") and line.endswith("$$") and len(line) > 4:
            body.append(r"\[ " + line[2:-2] + r" \]")
    body += ["", r"\end{document}"]
    return "\n".join(body) + "\n"


def _prior_section(e: Any, classes: list, y: str, digits: int) -> list[str]:
    lines = ["### 1. Prior", ""]
    for c in classes:
        p = float(e.probabilities.at["prior", c])
        exact = _fraction(e.fractions.at["prior", c])
        rhs = _exact_approx(exact, _number(p, digits))
        lines.append(rf"$$P({y}={latex_text(c)}) = {rhs}$$")
    return lines + [""]


def _factor_section(e: Any, classes: list, used: list, skipped: list, model: Any,
                    digits: int, max_words: int) -> list[str]:
    factors = e.factors
    lines = ["### 2. Likelihood of each feature", "",
             "| feature | value | " + " | ".join(f"P(x_a given {markdown_text(c)})" for c in classes) + " |",
             "|---|---|" + "---|" * len(classes)]
    for name in used:
        kind = factors.at[name, "kind"]
        cells = []
        for c in classes:
            exact = _fraction(e.fractions.at[name, c])
            decimal = _from_log(float(e.logs.at[name, c]), digits)
            cells.append(f"${_exact_approx(exact, decimal)}$")
        value = markdown_text(_value_text(kind, factors.at[name, "value"]))
        lines.append(f"| {markdown_text(name)} | {value} | " + " | ".join(cells) + " |")
    lines.append("")
    for name in used:
        if model is not None:
            lines += _density_lines(name, factors.at[name, "value"], model, classes, digits)
        if name in (getattr(e, "words", None) or {}):
            lines += _word_lines(name, e.words[name], classes, digits, max_words)
    if skipped:
        lines.append("Left out of the product (seed 000, Eq. 22):")
        lines += [f"- {markdown_text(n)} = {markdown_text(factors.at[n, 'value'])}: {markdown_text(factors.at[n, 'status'])}"
                  for n in skipped]
        lines.append("")
    return lines


def _density_lines(name: str, value: Any, model: Any, classes: list, digits: int) -> list[str]:
    """The density of a factor with its fitted numbers, per class, where its type shows one
    (``Block.density_latex``: a Gaussian's N(x; mu, sigma^2), seed 000 Eq. 12)."""
    block = model.block_of(name)
    formulas = [block.density_latex(name, value, list(model.classes_).index(c), lambda v: _number(v, digits))
                for c in classes]
    if any(f is None for f in formulas):
        return []
    lines = [f"{markdown_text(name)} is {markdown_text(block.title)}, {markdown_text(block.description)}: the factor is a density, "
             "so it may exceed 1.", ""]
    lines += [rf"$${f} \text{{ for }} {latex_text(c)}$$" for f, c in zip(formulas, classes)]
    return lines + [""]


def _word_lines(name: str, words: pd.DataFrame, classes: list, digits: int,
                max_words: int) -> list[str]:
    counted = words[words["status"] != "unseen"]
    lines = [f"{markdown_text(name)} is text: its factor is the product over its words "
             f"({len(words)} distinct, {int(words['count'].sum())} tokens); the first "
             f"{min(max_words, len(counted))} used words, log-weight per occurrence:", "",
             "| word | count | " + " | ".join(f"log P(w given {markdown_text(c)})" for c in classes) + " |",
             "|---|---|" + "---|" * len(classes)]
    for _, row in counted.head(max_words).iterrows():   # at most max_words rows
        logs = " | ".join(_log_number(float(row[f"log[{c}]"]), digits) for c in classes)
        lines.append(f"| {markdown_text(row['term'])} | {int(row['count'])} | {logs} |")
    unseen = int((words["status"] == "unseen").sum())
    if unseen:
        lines.append("")
        lines.append(f"{unseen} words never seen in training are ignored.")
    return lines + [""]


def _joint_section(e: Any, classes: list, y: str, used: list, digits: int) -> list[str]:
    lines = ["### 3. Joint: prior times likelihoods", "",
             "Multiplied (may underflow for long inputs) and as a sum of logs (never does):", ""]
    for c in classes:
        terms = [_fraction(e.fractions.at[n, c]) or _from_log(float(e.logs.at[n, c]), digits)
                 for n in ["prior", *used]]
        exact = _exact_joint(e, c, used)
        value = _from_log(float(e.joint_log[c]), digits)
        rhs = _exact_approx(exact, value)
        lines.append(rf"$$P({y}={latex_text(c)})\prod_a P(x_a \mid {latex_text(c)}) = "
                     + r" \cdot ".join(terms) + f" = {rhs}$$")
        logs = " + ".join(f"({_log_number(float(e.logs.at[n, c]), digits)})" for n in ["prior", *used])
        lines.append(rf"$$\log = {logs} = {_log_number(float(e.joint_log[c]), digits)}$$")
    return lines + [""]


def _posterior_section(e: Any, classes: list, y: str, used: list, digits: int) -> list[str]:
    evidence_terms = " + ".join(_from_log(float(e.joint_log[c]), digits) for c in classes)
    evidence = _from_log(float(e.log_evidence), digits)
    lines = ["### 4. Evidence", "",
             rf"$$P(x) = \sum_c P(c)\prod_a P(x_a \mid c) = {evidence_terms} = "
             rf"{evidence}$$", "",
             "### 5. Posterior", ""]
    exact_joints = {c: _exact_joint_value(e, c, used) for c in classes}
    exact_total = (sum(exact_joints.values(), Fraction(0))
                   if all(v is not None for v in exact_joints.values()) else None)
    if e.undetermined:
        lines += ["Every class has probability 0, so P(x) = 0 and the posterior 0/0 is "
                  "undefined: no class is predicted (use smoothing l > 0).", ""]
    else:
        for c in classes:
            joint = _from_log(float(e.joint_log[c]), digits)
            # The explanation's own posterior (nbapp._logspace.normalise_log), not joint -
            # evidence again: for long inputs both logs are huge and their difference loses
            # the digits normalise_log keeps, so the page and the export would disagree.
            exact = (_fraction(exact_joints[c] / exact_total)
                     if exact_total not in (None, 0) else None)
            rhs = _exact_approx(exact, _number(float(e.posterior[c]), digits))
            lines.append(rf"$$P({y}={latex_text(c)} \mid x) = \frac{{{joint}}}{{{evidence}}} = {rhs}$$")
        lines += ["", f"**Prediction: {markdown_text(e.prediction)}** (the class with the largest posterior)."]
    if e.notes:
        lines += ["", "Notes:", *[f"- {markdown_text(n)}" for n in e.notes]]
    return lines


def _exact_joint_value(e: Any, c: Any, used: list) -> Fraction | None:
    total = Fraction(1)
    for name in ["prior", *used]:
        f = e.fractions.at[name, c]
        if f is None or (isinstance(f, float) and math.isnan(f)):
            return None
        total *= f
    return total


def _exact_joint(e: Any, c: Any, used: list) -> str | None:
    return _fraction(_exact_joint_value(e, c, used))


def worked_example_snippet(model: Any, row: Mapping[str, Any] | pd.Series, *,
                           example: str | None = None, data_path: str | None = None,
                           corpus: bool = False) -> str:
    """A short Python program using ``nbapp`` that reproduces ``model.explain(row)``.

    ``example``: the key of a built-in example the model was fitted on (the snippet
    reloads it and refits with the model's settings). ``data_path``: a data file to read
    instead, with the app's own reader, ``nbapp.load_table`` (or ``nbapp.load_corpus``
    when ``corpus`` is True), so semicolons, decimal commas, missing-value tokens and
    Excel files are read exactly as the app read them. Neither: the fitted model is
    embedded as its JSON (exact, but long for big vocabularies). The program leaves the
    model in ``m`` and the explanation in ``e``.
    """
    if getattr(model, "target_", None) is None:
        raise DataError("Fit the model before exporting a worked example.")
    if example is not None and data_path is not None:
        raise DataError("Give a built-in example or a data file, not both.")
    lines = ["import nbapp"]
    if example is not None:
        lines += ["from nbapp.examples import load_example", "",
                  f"df = load_example({example!r})", *_construct_and_fit(model)]
    elif data_path is not None:
        reader = "load_corpus" if corpus else "load_table"
        lines += ["from pathlib import Path", "", f"p = {str(data_path)!r}",
                  f"df = nbapp.{reader}(Path(p).read_bytes(), p).frame",
                  *_construct_and_fit(model)]
    else:
        lines += ["", f"MODEL_JSON = {model.to_json()!r}",
                  "m = nbapp.NaiveBayes.from_json(MODEL_JSON)"]
    lines += ["", f"e = m.explain({_row_literal(row)})",
              'print(e.factors[[c for c in e.factors.columns if c.startswith(("status", "p["))]])',
              "print(e.posterior)", "print('prediction:', e.prediction)"]
    return "\n".join(lines) + "\n"


def _construct_and_fit(model: Any) -> list[str]:
    """The model's constructor call, with the settings that differ from nbapp.Settings' defaults."""
    from nbapp.settings import Settings

    defaults = Settings().kwargs()
    args = [f"features={_features_literal(model.features_)}"]
    for key, value in model.settings.kwargs().items():
        if value != defaults[key]:
            args.append(f"{key}={_literal(value)}")
    fit_args = [f"target={model.target_!r}"]
    if getattr(model, "weight_", None):
        fit_args.append(f"weight={model.weight_!r}")
    return [f"m = nbapp.NaiveBayes({', '.join(args)})", f"m.fit(df, {', '.join(fit_args)})"]


def _features_literal(features: Mapping[str, Any]) -> str:
    """A spec with its type's defaults as the type's name, any other as nbapp.Spec(...)."""
    items = [f"{column!r}: {spec.kind!r}" if spec == type(spec)() else f"{column!r}: {_literal(spec)}"
             for column, spec in features.items()]
    return "{" + ", ".join(items) + "}"


def _literal(value: Any) -> str:
    """Python source for a setting: plain values as repr, nbapp objects as nbapp.Name(...)."""
    if is_dataclass(value) and not isinstance(value, type):
        args = ", ".join(f"{f.name}={_literal(getattr(value, f.name))}" for f in fields(value))
        module = type(value).__module__
        prefix = "nbapp." if module.startswith("nbapp") else ""
        if type(value).__name__ == "TextOptions":
            prefix = "nbapp.text."
        return f"{prefix}{type(value).__name__}({args})"
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{_literal(k)}: {_literal(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        inner = ", ".join(_literal(v) for v in value)
        return f"[{inner}]" if isinstance(value, list) else f"({inner}{',' if len(value) == 1 else ''})"
    if isinstance(value, (set, frozenset)):
        return "{" + ", ".join(sorted(_literal(v) for v in value)) + "}" if value else "set()"
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return f"float({str(value)!r})"
    return repr(value)


def _row_literal(row: Mapping[str, Any] | pd.Series) -> str:
    items = dict(row.items()) if isinstance(row, pd.Series) else dict(row)
    parts = []
    for key, value in items.items():
        missing = value is None or (not isinstance(value, str) and pd.isna(value) is True)
        parts.append(f"{_literal(key)}: {'None' if missing else _literal(value)}")
    return "{" + ", ".join(parts) + "}"

