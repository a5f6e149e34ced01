"""Model: smoothing, class prior and the settings of each feature type; every fitted table with its formula.

Each section of tables is a fragment (a panel): choosing a feature, a class or a view reruns that
section only; a change of the settings reruns the page (the model, and so every table, changes)."""

from __future__ import annotations

import dataclasses
from typing import Any

import pandas as pd
import streamlit as st

import ui
from nbapp.blocks.base import COUNT
from nbapp.choices import compare_feature_types, compare_without, fit_comparison_plot
from nbapp.decimals import input_format
from nbapp.dependence import conditional_mutual_information, strongest_pairs
from nbapp.errors import DataError
from nbapp.io import safe_csv_bytes
from nbapp.smoothing import BetaPrior, MEstimate
from ui import charts, formulas, presentation, teaching
from ui.classes import MAX_SHOWN_CLASSES, classes_note, label_format, labelled_column, labels_of, shown_model_classes
from ui.views import columns_where, grouped, registered, view_of

ui.ensure_state()
if presentation.presentation_ui():
    presentation.model_presentation_ui(ui.require_model())
    st.stop()
ui.sidebar_summary()
ui.page_header("Model", "Choose how the probabilities are estimated, then read every table the model "
               "learned, with the formula behind one cell of it.")

ss = st.session_state
VIEWS = ("exact fractions", "decimals", "logs")
SMOOTHINGS = {"lidstone": "Lidstone / Laplace (l)", "m": "m-estimate", "beta": "Beta prior (binary features)"}
PRIORS = {"empirical": "empirical (class frequencies)", "uniform": "uniform (MLE decision)",
          "custom": "custom per class"}
CPT_VIEW = "model.cpt_view"     # the work's choice of how probabilities are shown
MAX_CHECKED_FEATURES = 40   # the naive-assumption check: 780 pairs, about a second on 100,000 rows
# The plots and checks drawn on every visit look at most this many rows (a seeded sample), so a
# page of a 1,000,000-row upload opens in about a second; cross-validation buttons use every row.
MAX_SHOWN_ROWS = 100_000


def _shown_rows(df: pd.DataFrame) -> pd.DataFrame:
    return df if len(df) <= MAX_SHOWN_ROWS else df.sample(n=MAX_SHOWN_ROWS, random_state=0)


def _sample_caption(df: pd.DataFrame) -> None:
    if len(df) > MAX_SHOWN_ROWS:
        st.caption(f"Drawn from a random sample of {MAX_SHOWN_ROWS:,} of the {len(df):,} rows.")


def _settings_ui() -> None:
    work = ui.work()
    config = work.settings
    types = grouped(work.specs)
    left, middle, right = st.columns(3)
    if any(view.block.smoothed for view, _ in types):
        with left:
            _smoothing_ui(config)
    with middle:
        st.markdown("**Class prior**")
        ui.synced(st.radio, "Class prior", key="_model_priors", value=_priors_kind(config), options=list(PRIORS),
                  format_func=PRIORS.get, label_visibility="collapsed", on_set=_priors_changed)
        if _priors_kind(config) == "custom":
            _custom_priors_ui(ui.class_list())
        ui.synced(st.number_input, "Dirichlet pseudo-count on the class counts (0 = none)",
                  key="_model_prior_alpha", value=float(config.prior_alpha), min_value=0.0, step=0.5, format="%g",
                  on_set=lambda v: ui.set_settings(prior_alpha=float(v)))
    with right:
        for view, _columns in types:      # settings of the whole model that concern one type (Gaussian)
            view.settings_ui(work)


def _priors_kind(config: Any) -> str:
    return config.priors if isinstance(config.priors, str) else "custom"


SMOOTHINGS_OF = {MEstimate: "m", BetaPrior: "beta"}


def _smoothing_ui(config: Any) -> None:
    smoothing = config.smoothing
    kind = SMOOTHINGS_OF.get(type(smoothing), "lidstone")
    alpha = config.alpha if smoothing is None or kind != "lidstone" else smoothing.l
    st.markdown("**Smoothing**")
    ui.synced(st.radio, "Smoothing", key="_model_smoothing", value=kind,
              options=list(SMOOTHINGS), format_func=SMOOTHINGS.get, label_visibility="collapsed",
              on_set=_smoothing_changed)
    symbol = teaching.smoothing_symbol()  # as the example's notes name it: l (seed 000) or α (001, 004)
    if kind != "m":  # the m-estimate replaces l everywhere
        ui.synced(st.number_input, f"{symbol} (pseudo-count per value; 0 = MLE, 1 = Laplace)", key="_model_alpha",
                  value=float(alpha), min_value=0.0, step=0.5, format="%g",
                  on_set=lambda v: ui.set_settings(alpha=float(v), smoothing=None if kind == "lidstone" else smoothing))
    if alpha == 0 and kind == "lidstone":
        st.caption(f"{symbol} = 0 is the maximum-likelihood estimate (MLE): a value never seen with a class "
                   "gets probability 0 and rules that class out.")
    if kind == "m":
        _m_estimate_ui(smoothing)
    if kind == "beta":
        ui.synced(st.number_input, "a (pseudo-count of the positive value)", key="_model_beta_a",
                  value=float(smoothing.a), min_value=0.0, step=0.5, format="%g",
                  on_set=lambda v: ui.set_settings(smoothing=BetaPrior(float(v), smoothing.b)))
        ui.synced(st.number_input, "b (pseudo-count of the negative value)", key="_model_beta_b",
                  value=float(smoothing.b), min_value=0.0, step=0.5, format="%g",
                  on_set=lambda v: ui.set_settings(smoothing=BetaPrior(smoothing.a, float(v))))
        st.caption(f"(N_cd + a) / (N_c + a + b) for Bernoulli features{ui.ref('seed 002')}; other features keep l.")


def _smoothing_changed(kind: str) -> None:
    """Lidstone (l), the m-estimate (m = 1, p = 1/K to start) or a Beta(1, 1) prior."""
    ui.set_settings(smoothing={"m": MEstimate(1.0), "beta": BetaPrior(1.0, 1.0)}.get(kind))


def _m_estimate_ui(smoothing: MEstimate) -> None:
    def change(**fields: Any) -> None:
        ui.set_settings(smoothing=dataclasses.replace(smoothing, **fields))

    ui.synced(st.number_input, "m (equivalent sample size)", key="_model_m", value=float(smoothing.m),
              min_value=0.0, step=0.5, format="%g", on_set=lambda v: change(m=float(v)))
    uniform = ui.synced(st.checkbox, "p = 1/K (uniform prior estimate)", key="_model_p_uniform",
                        value=smoothing.p is None, on_set=lambda v: change(p=None if v else 0.5))
    if not uniform:
        ui.synced(st.number_input, "p (prior estimate of each value)", key="_model_p",
                  value=float(smoothing.p if smoothing.p is not None else 0.5), min_value=0.0, max_value=1.0,
                  step=0.05, format="%g", on_set=lambda v: change(p=float(v)))
        ui.synced(st.checkbox, "normalise: divide by n + K m p (every column sums to 1)",
                  key="_model_m_normalised", value=bool(smoothing.normalised),
                  on_set=lambda v: change(normalised=bool(v)))
    st.caption("(n_y + m p) / (n + K m p), normalised so each column sums to 1."
               if smoothing.normalised and smoothing.p is not None else
               f"(n_y + m p) / (n + m){ui.ref('seed 003 exactly')}, for every discrete feature, text and count "
               "blocks included.")


def _priors_changed(kind: str) -> None:
    ui.set_settings(priors=_model_priors() if kind == "custom" else kind)


def _model_priors() -> tuple[tuple[Any, float], ...]:
    """The fitted model's P(c), the starting point of custom priors (uniform if it cannot be fitted)."""
    try:
        priors = ui.current_model().priors_
    except DataError:
        classes = ui.class_list()
        return tuple((c, 1 / len(classes)) for c in classes)
    return tuple((c, float(p)) for c, p in priors.items())


def _custom_priors_ui(classes: list[Any]) -> None:
    """One input per class in a form: the model changes on submit only, so a half-typed set of
    priors never stops the page; nbapp's check_priors refuses a set that does not sum to 1."""
    in_use = ui.settings().priors
    given = dict(in_use)
    fresh = ss.get("model_priors_shown") != in_use  # else keep what was typed, e.g. a refused set
    ss["model_priors_shown"] = in_use
    if fresh:
        ss["model_prior_error"] = None
    if len(classes) > MAX_SHOWN_CLASSES:      # one input per class: past the limit, no page of inputs
        st.info(f"Custom priors are typed one per class, for up to {MAX_SHOWN_CLASSES} classes; this target has "
                f"{len(classes):,}. Give them in Python instead: model.with_priors({{class: probability, ...}}).")
        return
    label = label_format(classes)
    with st.form("model.custom_priors", border=False):
        for i, c in enumerate(classes):
            if fresh or f"_model_prior::{i}" not in ss:
                ss[f"_model_prior::{i}"] = float(given.get(c, 0.0))
            st.number_input(f"P({ui.md(label(c))})", key=f"_model_prior::{i}", min_value=0.0, max_value=1.0,
                            step=0.01, format=input_format(ss[f"_model_prior::{i}"]))
        use, scale = st.columns(2)
        use.form_submit_button("Use these priors", on_click=_submit_priors, args=(classes, False),
                               key="model.priors_use")
        scale.form_submit_button("Normalise and use", on_click=_submit_priors, args=(classes, True),
                                 key="model.priors_normalise", help="Divide every prior by their sum.")
    if ss.get("model_prior_error"):
        st.error(ui.md(ss["model_prior_error"]))
    st.caption(f"Sum of the custom priors in use: {sum(given.get(c, 0.0) for c in classes):g}")


def _submit_priors(classes: list[Any], normalise: bool) -> None:
    """The form's callback: store the typed priors (scaled to sum 1 when asked) if nbapp accepts them."""
    from nbapp.priors import check_priors

    typed = {c: float(ss[f"_model_prior::{i}"]) for i, c in enumerate(classes)}
    total = sum(typed.values())
    if normalise and total > 0:
        typed = {c: p / total for c, p in typed.items()}
    try:
        check_priors(typed)
    except DataError as err:
        ss["model_prior_error"] = str(err)
        return
    ss["model_prior_error"] = None
    ui.set_settings(priors=tuple(typed.items()))


def _view_radio(key: str) -> str:
    shown = ui.work().choice(CPT_VIEW)
    return ui.synced(st.radio, "Show probabilities as", key=key, value=shown if shown in VIEWS else VIEWS[0],
                     options=VIEWS, horizontal=True, on_set=lambda v: ui.set_choice(CPT_VIEW, v))


@st.fragment
def _priors_ui(model: Any) -> None:
    st.subheader("Class prior P(c)")
    shown = shown_model_classes(model)       # the notes' order (Yes before No); the most probable
    priors = model.priors_.reindex(pd.Index(shown, dtype=object))
    table = formulas.prior_table(model, shown)
    note = classes_note(len(model.classes_), "prior P(c)")
    if note:
        st.caption(note)
    left, right = st.columns([3, 2])
    charts.show(left, charts.priors_bar(priors.rename(label_format(model.classes_))), key="model.priors_chart")
    right.dataframe(table, key="model.priors_table")
    cls = right.selectbox("Class for the formula", list(priors.index), format_func=label_format(model.classes_),
                          key="model.prior_class")
    right.latex(formulas.prior_latex(model, cls, ui.settings()))


@st.fragment
def _cpt_ui(model: Any, columns: list[str]) -> None:
    st.subheader("Conditional probability tables P(x = v | c)")
    col = st.selectbox("Feature", columns, format_func=str, key="model.cpt_feature")
    view = view_of(model.features_[col].kind)
    shown_as = _view_radio("_model_cpt_view")
    ui.state.remember_work()       # a panel's rerun skips the page's start, which writes the address
    classes = pd.Index(shown_model_classes(model), dtype=object)       # the most probable, in the notes' order
    try:
        probs = model.cpt(col, log=shown_as == VIEWS[2])
    except DataError as err:                 # a registered type that keeps no table of P(x = v | c)
        st.info(ui.md(err))
        return
    table = view.counts_table(model, col)    # None: a type that keeps no counts (its table alone is shown)
    if shown_as == VIEWS[0] and table is None:     # exact fractions made only where they are shown
        probs = model.cpt(col, exact=True)
    probs = teaching.in_display_order(probs, col).reindex(columns=classes)
    shown = (teaching.in_display_order(formulas.cpt_unreduced(table.reindex(columns=classes),
                                                              model.smoothing_of(col)), col)
             if shown_as == VIEWS[0] and table is not None else formulas.show_probabilities(probs, shown_as))
    zero = teaching.in_display_order(model.cpt(col).reindex(columns=classes), col).to_numpy(dtype=float) == 0
    left, right = st.columns(2)
    if table is not None:
        counts = teaching.in_display_order(table.reindex(columns=classes), col)
        left.markdown("Counts N(v, c)")
        left.dataframe(formulas.highlight(_labelled(formulas.show_counts(counts)), counts.to_numpy(dtype=float) == 0),
                       key="model.counts_table")
    right.markdown(f"P(v | c), {shown_as}")
    right.dataframe(formulas.highlight(_labelled(shown), zero), key="model.cpt_table")
    if zero.any():
        st.warning("Highlighted cells are 0: any example with that value rules the class out. "
                   "Smoothing (l > 0) removes the zeros.")
    caption = view.cpt_caption(model.features_[col])
    if caption:
        st.caption(caption)
    note = classes_note(len(model.classes_), "prior P(c)")
    if note:
        st.caption(note + " So does the CSV download; model.cpt() in Python gives every class.")
    pick_value, pick_class = st.columns(2)
    value = pick_value.selectbox("Value v", list(probs.index), format_func=str, key="model.cell_value")
    cls = pick_class.selectbox("Class c", list(probs.columns), format_func=label_format(model.classes_),
                               key="model.cell_class")
    st.latex(view.cell_latex(model, col, value, cls))
    if table is None:
        return
    if isinstance(model.smoothing_of(col), BetaPrior):
        _beta_mode_ui(model, col, table)
    cpt_csv = ui.download_bytes("cpt", (ui.model_key(), col),
                                lambda: safe_csv_bytes(_cpt_export(table.reindex(columns=classes),
                                                                    model.cpt(col).reindex(columns=classes))))
    st.download_button("Download this CPT (CSV)", cpt_csv,
                       file_name=f"cpt_{ui.file_stem(col)}.csv", mime="text/csv", key="model.cpt_download")


def _labelled(table: pd.DataFrame) -> pd.DataFrame:
    """A value x class table with its classes as labels: 1 and "1" stay two columns."""
    return table.set_axis(labels_of(table.columns), axis=1)


def _beta_mode_ui(model: Any, col: str, counts: pd.DataFrame) -> None:
    """Seed 002 calls (N + a)/(N + a + b) the MAP estimate; it is the posterior mean. The mode beside it."""
    st.markdown(f"**Posterior mean and mode of θ = P({ui.md(col)} = {ui.md(counts.index[-1])} | c)** "
                "under the Beta(a, b) prior")
    ordered = teaching.in_display_order(counts)
    st.dataframe(formulas.beta_mean_and_mode(ordered, model.smoothing_of(col)), key="model.beta_mode")
    st.caption("Seed 002 names (N + a)/(N + a + b) the MAP estimate; strictly it is the mean of the Beta posterior, "
               "and the model uses it. The MAP estimate proper is the posterior's mode, (N + a − 1)/(N + a + b − 2); "
               "the two agree as the counts grow, and with a = b = 1 the mode is the MLE N / n_c.")


def _cpt_export(counts: pd.DataFrame, probs: pd.DataFrame) -> pd.DataFrame:
    both = pd.concat({"count": _labelled(counts), "probability": _labelled(probs)}, axis=1)
    both.columns = [f"{part}[{label}]" for part, label in both.columns]
    return both.reset_index()


@st.fragment
def _numeric_choice_ui(model: Any, columns: list[str]) -> None:
    styles = {view.kind: charts.CurveStyle(view.title, view.line_dash, view.value_kind == COUNT)
              for view in registered() if view.block.density_choice}
    st.subheader("Choosing a numeric type: " + ", ".join(style.name for style in styles.values()))
    # One fit per type for the column: computed only while the section is open (issue 25: a
    # smoothing click does not pay for it unless the comparison is on screen).
    section = st.expander("Compare the fitted densities of one column, each type over its data",
                          key="model.choice_open", on_change="rerun")
    if section.open:
        with section:
            _numeric_choice_body(model, columns, styles)


def _numeric_choice_body(model: Any, columns: list[str], styles: dict[str, Any]) -> None:
    col = st.selectbox("Numeric feature", columns, format_func=str, key="model.choice_feature")
    df = ui.frame()
    key = (ui.model_key(), col)
    try:
        if ss.get("model_choice_plot", (None,))[0] != key:     # a one-column fit per type: once per model
            ss["model_choice_plot"] = (key, fit_comparison_plot(model, col, _shown_rows(df)))
    except (DataError, KeyError) as err:
        st.info(f"No comparison for this column: {ui.md(err)}")
        return
    charts.show(st, charts.fit_comparison(ss["model_choice_plot"][1], col, styles), key="model.choice_chart")
    _sample_caption(df)
    if st.button("Cross-validate each choice (5 folds)", key="model.choice_cv"):
        try:
            ss["model_choice_cv"] = (key, compare_feature_types(model, df, col))
        except DataError as err:
            ui.show_error(err)
    stored = ss.get("model_choice_cv")
    if stored is not None and stored[0] == key:
        st.dataframe(stored[1], key="model.choice_cv_table")
        st.caption("Log-loss −(1/n) Σ ln P(y_i | x_i) of the whole model, out of sample, with this column "
                   "typed each way (same folds); lower is better.")


def _current_example(model: Any, df: pd.DataFrame) -> dict[str, Any]:
    """The Explain page's example (its values where set, else the first row's)."""
    work = ui.work()
    return {c: (float("nan") if c in work.missing else work.query.get(c, df[c].iloc[0])) for c in model.features_}


def _dependence_ui(model: Any) -> None:
    """The check of the naive assumption, computed only while its section is open (once per data,
    kept: a change of smoothing or priors does not redo it)."""
    section = st.expander("Checking the naive assumption: I(X_a; X_b | C), which pairs of features depend "
                          "on each other", key="model.dependence_open", on_change="rerun")
    if section.open:
        with section:
            _dependence_body(model)


@st.fragment
def _dependence_body(model: Any) -> None:
    st.caption("Naive Bayes assumes the features are independent given the class"
               f"{ui.ref('seed 000, §2.2–2.5')}. The "
               "conditional mutual information, in nats, is 0 when a pair is; numbers are cut into 5 "
               "equal-weight intervals for it. A strongly dependent pair is counted twice by the model.")
    df = ui.frame()
    features = dict(list(model.features_.items())[:MAX_CHECKED_FEATURES])
    data_key = ui.data_key()      # the check reads the data and the types only: not redone when l moves
    key = ui.model_key()          # comparing with and without a feature refits: the whole model's key
    if len(model.features_) > MAX_CHECKED_FEATURES:
        st.caption(f"The check covers the first {MAX_CHECKED_FEATURES} of {len(model.features_):,} features "
                   "(pairs grow with the square of their number).")
    try:
        if ss.get("model_cmi", (None,))[0] != data_key:
            ss["model_cmi"] = (data_key, conditional_mutual_information(_shown_rows(df), model.target_, features,
                                                                        weight=model.weight_))
    except (DataError, KeyError) as err:
        st.info(f"The check needs the training data: {ui.md(err)}")
        return
    cmi = ss["model_cmi"][1]
    if len(cmi) < 2:
        st.info("The check needs at least two (non-text) features.")
        return
    pairs = strongest_pairs(cmi)
    left, right = st.columns([3, 2])
    charts.show(left, charts.cmi_heatmap(cmi), key="model.cmi_chart")
    with left:
        _sample_caption(df)
    right.markdown("Strongest dependent pairs")
    right.dataframe(pairs, key="model.cmi_pairs", hide_index=True)
    labels = [f"{a} · {b}" for a, b in zip(pairs["a"], pairs["b"])]
    pick = right.selectbox("Pair", range(len(labels)), format_func=lambda i: labels[i], key="model.cmi_pair")
    drop = right.radio("Leave out", [pairs["a"][pick], pairs["b"][pick]], format_func=ui.md, horizontal=True,
                       key="model.cmi_drop")
    if right.button("Compare the model with and without it", key="model.cmi_compare"):
        try:
            ss["model_drop"] = (key, drop, compare_without(model, df, drop, _current_example(model, df)))
        except DataError as err:
            ui.show_error(err)
    stored = ss.get("model_drop")
    if stored is not None and stored[0] == key:
        result = stored[2]
        a, b, c = st.columns(3)
        a.metric("CV log-loss with all features", f"{result.log_loss_with:.4f}")
        b.metric(f"without {ui.md(result.column)}", f"{result.log_loss_without:.4f}",
                 delta=f"{result.change:+.4f}", delta_color="inverse")
        c.caption("Same 5 folds for both models; lower log-loss is better.")
        if result.posterior_with is not None:
            st.markdown("Posterior P(c | x) of the Explain page's example")
            st.dataframe(pd.DataFrame({"with": result.posterior_with, f"without {result.column}":
                                       result.posterior_without}).T.rename(columns=label_format(model.classes_)),
                         key="model.cmi_posteriors")


@st.fragment
def _words_ui(model: Any, columns: list[str]) -> None:
    st.subheader("Top words per class")
    col = st.selectbox("Text or multinomial block", columns, format_func=str, key="model.words_feature")
    n = st.slider("Words per class", 5, 30, 10, key="model.words_n")
    try:
        words = model.top_words(col, n)
    except (AttributeError, NotImplementedError, DataError) as err:
        st.info(f"Top words are not available for this block: {ui.md(err)}")
        return
    left, right = st.columns([3, 2])
    shown = labelled_column(words, "class", model.classes_)
    charts.show(left, charts.top_words_bars(shown, value_label=view_of(model.features_[col].kind).words_label(
        model.features_[col])), key="model.words_chart")
    right.dataframe(shown, key="model.words_table")


def _export_ui(model: Any) -> None:
    st.subheader("Save or load the model")
    left, right = st.columns(2)
    try:
        model_json = ui.download_bytes("model_json", ui.model_key(), lambda: model.to_json().encode("utf-8"))
    except DataError as err:          # a file the loader would refuse is never offered
        left.error(ui.md(err))
    else:
        left.download_button("Download the model (JSON)", model_json,
                             file_name=f"{ui.state.data_stem()}_naive_bayes.json", mime="application/json",
                             key="model.json_download")
    left.caption("A versioned JSON file: counts and settings, never pickle (pickles can run code).")
    upload = right.file_uploader("Load a model file (JSON)", type=["json", "pkl", "pickle", "joblib"],
                                 key="model.json_upload")
    if upload is not None and ss.get("model_upload_seen") != upload.file_id:
        ss["model_upload_seen"] = upload.file_id
        try:
            ui.import_model(upload.name, upload.getvalue())
        except DataError as err:
            right.error(ui.md(err))
        else:
            st.rerun()
    if ui.work().source.reader == "model":
        right.info(f"The model file {ui.md(ui.work().source.name)} is open without data: the settings above "
                   "smooth its own counts again; Evaluate predicts a new file with it.")
    elif ss.get("imported") is not None:
        right.info(f"Using the model imported from {ui.md(ss['imported'].name)} (target "
                   f"{ui.md(ss['imported'].model.target_)}); change any setting or the data to go back to fitting.")


def _options_ui(work: Any, frame: pd.DataFrame) -> None:
    """Each type's own settings section (text preprocessing) and the per-column options in one
    folded expander (KDE bandwidth, intervals, declared categories and unseen values), before the
    fit: a declared list missing a value in the data stops the fit, and the picker must stay
    reachable to fix it."""
    types = grouped(work.specs)
    for view, columns in types:
        view.options_section(columns, work, frame)
    with_options = [(view, columns) for view, columns in types if view.has_options]
    if not with_options:
        return
    titles = ", ".join(view.title for view, _ in with_options)
    with st.expander(f"Column options ({titles})"):
        for view, columns in with_options:
            for column in columns:
                values = frame[column] if column in frame.columns else pd.Series(dtype=object)
                view.options_ui(column, work.specs[column], values,
                                lambda column=column, **changes: ui.offer_change(column, changes))
                error = ui.refused(column)
                if error is not None:
                    st.error(ui.md(error[1]))


@st.fragment
def _type_section_ui(view: Any, model: Any, columns: list[str], frame: pd.DataFrame) -> None:
    """A type's own section (its plots and tables) as a panel: its widgets rerun it alone."""
    view.model_section(model, columns, frame)


def _sections_ui(model: Any, frame: pd.DataFrame) -> None:
    """The fitted tables: the CPTs of every counted column, each type's own section (in the
    registry's order), the choice of a numeric type, the naive assumption's check, the top words."""
    cpt = columns_where(model.features_, lambda v: v.in_cpt_section)
    if cpt:
        _cpt_ui(model, cpt)
    types = {view.kind: columns for view, columns in grouped(model.features_)}
    for view in registered():
        if view.kind in types:
            _type_section_ui(view, model, types[view.kind], frame)
    numeric = columns_where(model.features_, lambda v: v.in_numeric_choice)
    if numeric:
        _numeric_choice_ui(model, numeric)
    _dependence_ui(model)
    words = [c for view, columns in grouped(model.features_) for c in view.word_columns(columns)]
    if words:
        _words_ui(model, words)


_settings_ui()
_options_ui(ui.work(), ui.frame())
model = ui.require_model()
ui.big_data_note()      # a local path fitted out of core: what the model saw, what the page shows
for type_view, type_columns in grouped(model.features_):
    type_view.fitted_options_ui(model, type_columns, ui.frame())     # the Bernoulli "1"
_priors_ui(model)
_sections_ui(model, ui.frame())
_export_ui(model)
