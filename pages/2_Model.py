"""Model: smoothing, class prior and Gaussian variance; every fitted table with its formula."""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

import ui
from nbapp.choices import compare_feature_types, compare_without, fit_comparison_plot
from nbapp.densities import gaussian_fit_plot, poisson_fit_plot
from nbapp.dependence import conditional_mutual_information, strongest_pairs
from nbapp.errors import DataError
from nbapp.io import safe_csv_bytes
from nbapp.smoothing import BetaPrior
from ui import charts, formulas, teaching, textviews
from ui.column_options import column_options_ui

ui.ensure_state()
ui.sidebar_summary()
ui.page_header("Model", "Choose how the probabilities are estimated, then read every table the model "
               "learned, with the formula behind one cell of it.")

ss = st.session_state
VIEWS = ("exact fractions", "decimals", "logs")
SMOOTHINGS = {"lidstone": "Lidstone / Laplace (l)", "m": "m-estimate", "beta": "Beta prior (binary features)"}
PRIORS = {"empirical": "empirical (class frequencies)", "uniform": "uniform (MLE decision)",
          "custom": "custom per class"}
VARIANCES = {"mle": f"MLE, 1/n_c{ui.ref('seed 000, Eq. 14')}", "unbiased": "unbiased, 1/(n_c − 1)",
             "pooled": "pooled: one variance per feature, shared by the classes"}
EPSILON_MODES = {"global": "one ε: var_smoothing × largest column variance (scikit-learn)",
                 "per_feature": "per feature: ε_a = var_smoothing × variance of that column"}
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
    config = ui.settings()
    df, target = ui.frame(), ss["target"]
    kinds = set(ui.features().values())
    left, middle, right = st.columns(3)
    if kinds & {"categorical", "bernoulli", "multinomial", "text", "discretized"}:
        with left:
            _smoothing_ui(config)
    with middle:
        st.markdown("**Class prior**")
        ui.synced(st.radio, "Class prior", key="_model_priors", value=config.priors, options=list(PRIORS),
                  format_func=PRIORS.get, label_visibility="collapsed", on_set=_priors_changed)
        if config.priors == "custom":
            _custom_priors_ui(ui.class_list(df, target))
        ui.synced(st.number_input, "Dirichlet pseudo-count on the class counts (0 = none)",
                  key="_model_prior_alpha", value=float(config.prior_alpha), min_value=0.0, step=0.5, format="%g",
                  on_set=lambda v: ui.set_settings(prior_alpha=float(v)))
    if "gaussian" in kinds:
        with right:
            _variance_ui(config)


def _smoothing_ui(config: ui.Settings) -> None:
    st.markdown("**Smoothing**")
    ui.synced(st.radio, "Smoothing", key="_model_smoothing", value=config.smoothing,
              options=list(SMOOTHINGS), format_func=SMOOTHINGS.get, label_visibility="collapsed",
              on_set=lambda v: ui.set_settings(smoothing=v))
    symbol = teaching.smoothing_symbol()  # as the example's notes name it: l (seed 000) or α (001, 004)
    if config.smoothing != "m":  # the m-estimate replaces l everywhere
        ui.synced(st.number_input, f"{symbol} (pseudo-count per value; 0 = MLE, 1 = Laplace)", key="_model_alpha",
                  value=float(config.alpha), min_value=0.0, step=0.5, format="%g",
                  on_set=lambda v: ui.set_settings(alpha=float(v)))
    if config.alpha == 0 and config.smoothing == "lidstone":
        st.caption(f"{symbol} = 0 is the maximum-likelihood estimate (MLE): a value never seen with a class "
                   "gets probability 0 and rules that class out.")
    if config.smoothing == "m":
        ui.synced(st.number_input, "m (equivalent sample size)", key="_model_m", value=float(config.m),
                  min_value=0.0, step=0.5, format="%g", on_set=lambda v: ui.set_settings(m=float(v)))
        uniform = ui.synced(st.checkbox, "p = 1/K (uniform prior estimate)", key="_model_p_uniform",
                            value=config.p is None,
                            on_set=lambda v: ui.set_settings(p=None if v else 0.5))
        if not uniform:
            ui.synced(st.number_input, "p (prior estimate of each value)", key="_model_p",
                      value=float(config.p if config.p is not None else 0.5), min_value=0.0, max_value=1.0,
                      step=0.05, format="%g", on_set=lambda v: ui.set_settings(p=float(v)))
        if not uniform:
            ui.synced(st.checkbox, "normalise: divide by n + K m p (every column sums to 1)",
                      key="_model_m_normalised", value=bool(config.m_normalised),
                      on_set=lambda v: ui.set_settings(m_normalised=bool(v)))
        st.caption("(n_y + m p) / (n + K m p), normalised so each column sums to 1."
                   if config.m_normalised and config.p is not None else
                   f"(n_y + m p) / (n + m){ui.ref('seed 003 exactly')}, for every discrete feature, text and count "
                   "blocks "
                   "included.")
    if config.smoothing == "beta":
        ui.synced(st.number_input, "a (pseudo-count of the positive value)", key="_model_beta_a",
                  value=float(config.beta_a), min_value=0.0, step=0.5, format="%g",
                  on_set=lambda v: ui.set_settings(beta_a=float(v)))
        ui.synced(st.number_input, "b (pseudo-count of the negative value)", key="_model_beta_b",
                  value=float(config.beta_b), min_value=0.0, step=0.5, format="%g",
                  on_set=lambda v: ui.set_settings(beta_b=float(v)))
        st.caption(f"(N_cd + a) / (N_c + a + b) for Bernoulli features{ui.ref('seed 002')}; other features keep l.")


def _variance_ui(config: ui.Settings) -> None:
    st.markdown("**Gaussian features**")
    ui.synced(st.radio, "Variance", key="_model_variance", value=config.variance, options=list(VARIANCES),
              format_func=VARIANCES.get, on_set=lambda v: ui.set_settings(variance=v))
    ui.synced(st.number_input, "var_smoothing (ε = var_smoothing × a column variance, below)",
              key="_model_var_smoothing", value=float(config.var_smoothing), min_value=0.0, format="%.1e",
              step=1e-9, on_set=lambda v: ui.set_settings(var_smoothing=float(v)))
    ui.synced(st.radio, "Variance floor ε", key="_model_var_smoothing_mode", value=config.var_smoothing_mode,
              options=list(EPSILON_MODES), format_func=EPSILON_MODES.get,
              on_set=lambda v: ui.set_settings(var_smoothing_mode=v))


def _priors_changed(kind: str) -> None:
    if kind == "custom" and not ui.settings().custom_priors:
        ui.set_settings(priors=kind, custom_priors=_model_priors())
    else:
        ui.set_settings(priors=kind)


def _model_priors() -> tuple[tuple[Any, float], ...]:
    """The fitted model's P(c), the starting point of custom priors (uniform if it cannot be fitted)."""
    try:
        priors = ui.current_model().priors_
    except DataError:
        classes = ui.class_list(ui.frame(), ss["target"])
        return tuple((c, 1 / len(classes)) for c in classes)
    return tuple((c, float(p)) for c, p in priors.items())


def _custom_priors_ui(classes: list[Any]) -> None:
    """One input per class in a form: the model changes on submit only, so a half-typed set of
    priors never stops the page; nbapp's check_priors refuses a set that does not sum to 1."""
    in_use = ui.settings().custom_priors
    given = dict(in_use)
    fresh = ss.get("_model_priors_shown") != in_use  # else keep what was typed, e.g. a refused set
    ss["_model_priors_shown"] = in_use
    if fresh:
        ss["_model_prior_error"] = None
    with st.form("model.custom_priors", border=False):
        for i, c in enumerate(classes):
            if fresh or f"_model_prior::{i}" not in ss:
                ss[f"_model_prior::{i}"] = float(given.get(c, 0.0))
            st.number_input(f"P({ui.md(c)})", key=f"_model_prior::{i}", min_value=0.0, max_value=1.0, step=0.01,
                            format="%g")
        use, scale = st.columns(2)
        use.form_submit_button("Use these priors", on_click=_submit_priors, args=(classes, False),
                               key="model.priors_use")
        scale.form_submit_button("Normalise and use", on_click=_submit_priors, args=(classes, True),
                                 key="model.priors_normalise", help="Divide every prior by their sum.")
    if ss.get("_model_prior_error"):
        st.error(ui.md(ss["_model_prior_error"]))
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
        ss["_model_prior_error"] = str(err)
        return
    ss["_model_prior_error"] = None
    ui.set_settings(custom_priors=tuple(typed.items()))


def _view_radio(key: str) -> str:
    ss.setdefault("cpt_view", VIEWS[0])
    return ui.synced(st.radio, "Show probabilities as", key=key, value=ss["cpt_view"], options=VIEWS,
                     horizontal=True, on_set=lambda v: ss.update(cpt_view=v))


def _priors_ui(model: Any) -> None:
    st.subheader("Class prior P(c)")
    order = teaching.display_classes(list(model.priors_.index))   # the notes' order (Yes before No)
    priors = model.priors_[order]
    table = formulas.prior_table(model).iloc[[list(model.priors_.index).index(c) for c in order]]
    left, right = st.columns([3, 2])
    left.plotly_chart(charts.priors_bar(priors), key="model.priors_chart")
    right.dataframe(table, key="model.priors_table")
    cls = right.selectbox("Class for the formula", list(priors.index), format_func=str, key="model.prior_class")
    right.latex(formulas.prior_latex(model, cls, ui.settings()))


def _cpt_ui(model: Any, columns: list[str]) -> None:
    st.subheader("Conditional probability tables P(x = v | c)")
    col = st.selectbox("Feature", columns, format_func=str, key="model.cpt_feature")
    view = _view_radio("_model_cpt_view")
    counts = teaching.in_display_order(model.counts(col), col)
    probs = teaching.in_display_order(model.cpt(col, exact=view == VIEWS[0], log=view == VIEWS[2]), col)
    shown = (teaching.in_display_order(formulas.cpt_unreduced(model, col), col) if view == VIEWS[0]
             else formulas.show_probabilities(probs, view))
    zero = teaching.in_display_order(model.cpt(col), col).to_numpy(dtype=float) == 0
    left, right = st.columns(2)
    left.markdown("Counts N(v, c)")
    left.dataframe(formulas.highlight(formulas.show_counts(counts), counts.to_numpy(dtype=float) == 0),
                   key="model.counts_table")
    right.markdown(f"P(v | c), {view}")
    right.dataframe(formulas.highlight(shown, zero), key="model.cpt_table")
    if zero.any():
        st.warning("Highlighted cells are 0: any example with that value rules the class out. "
                   "Smoothing (l > 0) removes the zeros.")
    _categories_caption(model.features_[col])
    pick_value, pick_class = st.columns(2)
    value = pick_value.selectbox("Value v", list(probs.index), format_func=str, key="model.cell_value")
    cls = pick_class.selectbox("Class c", list(probs.columns), format_func=str, key="model.cell_class")
    st.latex(formulas.cpt_cell_latex(model, col, value, cls, ui.settings()))
    if isinstance(model.smoothing_of(col), BetaPrior):
        _beta_mode_ui(model, col)
    cpt_csv = ui.download_bytes("cpt", (ui.model_key(), col),
                                lambda: safe_csv_bytes(_cpt_export(counts, model.cpt(col))))
    st.download_button("Download this CPT (CSV)", cpt_csv,
                       file_name=f"cpt_{ui.file_stem(col)}.csv", mime="text/csv", key="model.cpt_download")


def _beta_mode_ui(model: Any, col: str) -> None:
    """Seed 002 calls (N + a)/(N + a + b) the MAP estimate; it is the posterior mean. The mode beside it."""
    st.markdown(f"**Posterior mean and mode of θ = P({ui.md(col)} = {ui.md(model.cpt(col).index[-1])} | c)** "
                "under the Beta(a, b) prior")
    st.dataframe(teaching.in_display_order(formulas.beta_mean_and_mode(model, col).T).T, key="model.beta_mode")
    st.caption("Seed 002 names (N + a)/(N + a + b) the MAP estimate; strictly it is the mean of the Beta posterior, "
               "and the model uses it. The MAP estimate proper is the posterior's mode, (N + a − 1)/(N + a + b − 2); "
               "the two agree as the counts grow, and with a = b = 1 the mode is the MLE N / n_c.")


def _categories_caption(spec: Any) -> None:
    """Which domain K counts and what a value never seen in training does (issue 12)."""
    declared, unseen = getattr(spec, "categories", None), getattr(spec, "unseen", None)
    if declared is None and unseen in (None, "skip"):
        return
    parts = [f"K = the {len(declared)} declared categories{ui.ref('seed 000, Eq. 7')}"] if declared is not None else []
    parts.append({"skip": f"a value never seen in training is left out{ui.ref('Eq. 22')}",
                  "error": "a value never seen in training is refused",
                  "smooth": "a value never seen in training is scored as the extra row (unseen)"}[unseen])
    st.caption("; ".join(parts) + ".")


def _cpt_export(counts: pd.DataFrame, probs: pd.DataFrame) -> pd.DataFrame:
    both = pd.concat({"count": counts, "probability": probs}, axis=1)
    both.columns = [f"{part}[{cls}]" for part, cls in both.columns]
    return both.reset_index()


def _gaussian_ui(model: Any, columns: list[str]) -> None:
    st.subheader("Gaussian fits p(x | c) = N(μ_c, σ²_c)")
    col = st.selectbox("Feature", columns, format_func=str, key="model.gauss_feature")
    fits = model.gaussian(col)
    df = ui.frame()
    x_star = ui.state.as_float(ss.get("query", {}).get(col), float("nan"))   # the Explain page's test example
    plot = gaussian_fit_plot(model, col, df, x_star=x_star)
    st.plotly_chart(charts.gaussian_fit(plot, fits, col), key="model.gauss_chart")
    st.dataframe(fits, key="model.gauss_table", width="stretch")   # full width: no column cut off
    cls = st.selectbox("Class for the formula", list(fits.index), format_func=str, key="model.gauss_class")
    st.latex(formulas.gaussian_latex(model, col, cls, ui.settings()))
    if x_star == x_star:   # not NaN: the density at x* with its numbers (seed 000, Eq. 12)
        st.latex(formulas.density_latex(model, col, x_star, cls))
    _epsilon_ui(model)


def _epsilon_ui(model: Any) -> None:
    eps = model.gaussian_epsilon()
    if eps.column is None:
        st.caption("ε = 0: every Gaussian column is constant.")
    elif eps.mode == "global":
        st.caption(f"ε = {ui.fmt_number(eps.value)} is added to every variance: var_smoothing "
                   f"({eps.var_smoothing:g}) × the variance of column {ui.md(eps.column)}, the largest.")
    else:
        st.caption(f"ε per feature (var_smoothing {eps.var_smoothing:g} × each column's variance); the largest, "
                   f"{ui.fmt_number(eps.value)}, is {ui.md(eps.column)}'s.")
    for note in eps.notes:
        st.warning(ui.md(note))


def _poisson_ui(model: Any, columns: list[str]) -> None:
    st.subheader("Poisson counts P(x | c) = λ_c^x e^−λ_c / x!")
    col = st.selectbox("Feature", columns, format_func=str, key="model.poisson_feature")
    fits = model.parameters(col)
    left, right = st.columns([3, 2])
    left.plotly_chart(charts.poisson_fit(poisson_fit_plot(model, col, ui.frame()), fits, col),
                      key="model.poisson_chart")
    shown = fits.assign(lambda_fraction=fits["lambda_fraction"].map(lambda f: "" if f is None else str(f)))
    right.dataframe(shown, key="model.poisson_table")
    right.caption("λ_c = (sum of the counts in class c + a) / (rows of c with a count + b); "
                  "a = b = l unless the feature sets them (R naivebayes' laplace). Bars: the data; dots: the fit.")


def _kde_ui(model: Any, columns: list[str]) -> None:
    st.subheader("Kernel densities p(x | c) = max(Σ w_i φ((x − x_i) / h_c) / (W_c h_c), ε_c)")
    col = st.selectbox("Feature", columns, format_func=str, key="model.kde_feature")
    st.dataframe(model.parameters(col), key="model.kde_table")
    st.caption("Bandwidth h_c from the class's weighted spread s_c and effective size n_eff = W²/Σw²: Scott "
               "h = s · n_eff^(−1/5), Silverman h = s · (3 n_eff / 4)^(−1/5) (scipy's gaussian_kde), or the "
               "number given. The model stores a histogram of bin width w per class (mergeable statistics: "
               "each bin's weight, centroid and spread); the density matches the exact KDE to about 1e-9 when "
               "each value has its own bin, and less closely as w/h grows. The floor ε_c = var_smoothing · "
               "φ(0) / (n_eff h_c), at most var_smoothing times the class's peak density, only takes over "
               "where no value of the class lies within a few h: such a value makes the class unlikely "
               "instead of impossible, and Explain notes it. The plot is below.")


def _intervals_ui(model: Any, columns: list[str]) -> None:
    st.subheader("Discretised features: the intervals")
    col = st.selectbox("Feature", columns, format_func=str, key="model.intervals_feature")
    spec = model.features_[col]
    st.dataframe(model.parameters(col), key="model.intervals_table")
    how = {"quantile": f"{spec.bins} intervals of about equal weight",
           "uniform": f"{spec.bins} intervals of equal width",
           "mdl": "Fayyad & Irani's MDL cuts (as Weka's -D)"}[spec.strategy]
    st.caption(f"Cut points learned when fitting: {how}. Their CPT, P(x in interval | c), is in the table "
               "of conditional probabilities above.")


def _numeric_choice_ui(model: Any, columns: list[str]) -> None:
    st.subheader("Choosing a numeric type: Gaussian, KDE or Poisson")
    col = st.selectbox("Numeric feature", columns, format_func=str, key="model.choice_feature")
    df = ui.frame()
    key = (ui.model_key(), col)
    try:
        if ss.get("_model_choice_plot", (None,))[0] != key:     # three one-column fits: once per model
            ss["_model_choice_plot"] = (key, fit_comparison_plot(model, col, _shown_rows(df)))
    except (DataError, KeyError) as err:
        st.info(f"No comparison for this column: {ui.md(err)}")
        return
    st.plotly_chart(charts.fit_comparison(ss["_model_choice_plot"][1], col), key="model.choice_chart")
    _sample_caption(df)
    if st.button("Cross-validate each choice (5 folds)", key="model.choice_cv"):
        try:
            ss["_model_choice_cv"] = (key, compare_feature_types(model, df, col))
        except DataError as err:
            ui.show_error(err)
    stored = ss.get("_model_choice_cv")
    if stored is not None and stored[0] == key:
        st.dataframe(stored[1], key="model.choice_cv_table")
        st.caption("Log-loss −(1/n) Σ ln P(y_i | x_i) of the whole model, out of sample, with this column "
                   "typed each way (same folds); lower is better.")


def _current_example(model: Any, df: pd.DataFrame) -> dict[str, Any]:
    """The Explain page's example (its values where set, else the first row's)."""
    query, missing = ss.get("query", {}), ss.get("query_missing", set())
    return {c: (float("nan") if c in missing else query.get(c, df[c].iloc[0])) for c in model.features_}


def _dependence_ui(model: Any) -> None:
    st.subheader("Checking the naive assumption: I(X_a; X_b | C)")
    st.caption("Naive Bayes assumes the features are independent given the class"
               f"{ui.ref('seed 000, §2.2–2.5')}. The "
               "conditional mutual information, in nats, is 0 when a pair is; numbers are cut into 5 "
               "equal-weight intervals for it. A strongly dependent pair is counted twice by the model.")
    df = ui.frame()
    key = ui.model_key()
    features = dict(list(model.features_.items())[:MAX_CHECKED_FEATURES])
    if len(model.features_) > MAX_CHECKED_FEATURES:
        st.caption(f"The check covers the first {MAX_CHECKED_FEATURES} of {len(model.features_):,} features "
                   "(pairs grow with the square of their number).")
    try:
        if ss.get("_model_cmi", (None,))[0] != key:
            ss["_model_cmi"] = (key, conditional_mutual_information(_shown_rows(df), model.target_, features,
                                                                    weight=model.weight_))
    except (DataError, KeyError) as err:
        st.info(f"The check needs the training data: {ui.md(err)}")
        return
    cmi = ss["_model_cmi"][1]
    if len(cmi) < 2:
        st.info("The check needs at least two (non-text) features.")
        return
    pairs = strongest_pairs(cmi)
    left, right = st.columns([3, 2])
    left.plotly_chart(charts.cmi_heatmap(cmi), key="model.cmi_chart")
    with left:
        _sample_caption(df)
    right.markdown("Strongest dependent pairs")
    right.dataframe(pairs, key="model.cmi_pairs", hide_index=True)
    labels = [f"{a} · {b}" for a, b in zip(pairs["a"], pairs["b"])]
    pick = right.selectbox("Pair", range(len(labels)), format_func=lambda i: labels[i], key="model.cmi_pair")
    drop = right.radio("Leave out", [pairs["a"][pick], pairs["b"][pick]], format_func=str, horizontal=True,
                       key="model.cmi_drop")
    if right.button("Compare the model with and without it", key="model.cmi_compare"):
        try:
            ss["_model_drop"] = (key, drop, compare_without(model, df, drop, _current_example(model, df)))
        except DataError as err:
            ui.show_error(err)
    stored = ss.get("_model_drop")
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
                                       result.posterior_without}).T, key="model.cmi_posteriors")


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
    left.plotly_chart(charts.top_words_bars(words, value_label=formulas.probability_label(model, col)),
                      key="model.words_chart")
    right.dataframe(words, key="model.words_table")


def _export_ui(model: Any) -> None:
    st.subheader("Save or load the model")
    left, right = st.columns(2)
    try:
        model_json = ui.download_bytes("model_json", ui.model_key(), lambda: model.to_json().encode("utf-8"))
    except DataError as err:          # a file the loader would refuse is never offered
        left.error(ui.md(err))
    else:
        left.download_button("Download the model (JSON)", model_json, file_name="naive_bayes_model.json",
                             mime="application/json", key="model.json_download")
    left.caption("A versioned JSON file: counts and settings, never pickle (pickles can run code).")
    upload = right.file_uploader("Load a model file (JSON)", type=["json", "pkl", "pickle", "joblib"],
                                 key="model.json_upload")
    if upload is not None and ss.get("_model_upload_seen") != upload.file_id:
        ss["_model_upload_seen"] = upload.file_id
        try:
            ui.import_model(upload.name, upload.getvalue())
        except DataError as err:
            right.error(ui.md(err))
        else:
            st.rerun()
    if ss["source"].reader == "model":
        right.info(f"The model file {ui.md(ss['source'].name)} is open without data: the settings above "
                   "smooth its own counts again; Evaluate predicts a new file with it.")
    elif ss.get("imported") is not None:
        right.info(f"Using the model imported from {ui.md(ss['imported'].name)} (target "
                   f"{ui.md(ss['imported'].model.target_)}); change any setting or the data to go back to fitting.")


_settings_ui()
text_columns = [c for c, t in ui.features().items() if t == "text"]
if text_columns:
    textviews.text_settings_ui(text_columns, prefix="model")
column_options_ui(ui.features(), ui.frame())   # before the fit: a declared list may stop it
model = ui.require_model()
ui.big_data_note()      # a local path fitted out of core: what the model saw, what the page shows
teaching.positives_ui(model, ui.frame())
kinds = formulas.feature_kinds(model)
_priors_ui(model)
discrete = [c for c, k in kinds.items() if k in ("categorical", "bernoulli", "discretized")]
gaussian = [c for c, k in kinds.items() if k == "gaussian"]
poisson = [c for c, k in kinds.items() if k == "poisson"]
kde = [c for c, k in kinds.items() if k == "kde"]
intervals = [c for c, k in kinds.items() if k == "discretized"]
numeric = [c for c, k in kinds.items() if k in ("gaussian", "kde", "poisson", "discretized")]
words = formulas.word_blocks(kinds)
if discrete:
    _cpt_ui(model, discrete)
if gaussian:
    _gaussian_ui(model, gaussian)
if poisson:
    _poisson_ui(model, poisson)
if kde:
    _kde_ui(model, kde)
if intervals:
    _intervals_ui(model, intervals)
if numeric:
    _numeric_choice_ui(model, numeric)
_dependence_ui(model)
if words:
    _words_ui(model, words)
_export_ui(model)
