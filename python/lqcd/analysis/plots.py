"""Plots of a run and of a correlator analysis (matplotlib, Debian python3-matplotlib; written as PNG or PDF
by the file name's suffix, without a display: the Agg backend).

- history_plot: an observable's Monte Carlo history after thermalisation and its histogram, with the mean
  and the Gamma-method error band;
- autocorrelation_plot: the normalised autocorrelation function rho(t) up to the Gamma method's window;
- effective_mass_plot: effective masses with jackknife errors and the fitted mass as a band over the fit
  range.
Each returns the matplotlib Figure (the tests read the plotted data back from it) and saves it when a
path is given.
"""
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402


def _save(fig, path):
    if path is not None:
        fig.savefig(path, dpi=120)
    return fig


def history_plot(series, result, name, path=None):
    """series: the thermalised measurements; result: their GammaResult."""
    series = np.asarray(series, dtype=float)
    fig, (ax_h, ax_d) = plt.subplots(1, 2, figsize=(10, 3.6), gridspec_kw={"width_ratios": [3, 1]}, sharey=True)
    x = np.arange(len(series))
    ax_h.plot(x, series, lw=0.7, label=name)
    ax_h.axhline(result.value, color="k", lw=1)
    ax_h.fill_between([0, max(len(series) - 1, 1)], result.value - result.error, result.value + result.error,
                      color="orange", alpha=0.4,
                      label=f"mean {result.value:.6g} ± {result.error:.2g} (τ_int = {result.tau_int:.2g})")
    ax_h.set_xlabel("measurement after thermalisation")
    ax_h.set_ylabel(name)
    ax_h.legend(loc="best", fontsize=8)
    ax_d.hist(series, bins=min(50, max(5, len(series) // 20)), orientation="horizontal", color="C0", alpha=0.7)
    ax_d.set_xlabel("count")
    fig.tight_layout()
    return _save(fig, path)


def autocorrelation_plot(result, name, path=None):
    fig, ax = plt.subplots(figsize=(6, 3.6))
    t = np.arange(len(result.gamma))
    ax.plot(t, result.gamma, "o-", ms=3, label=f"{name}: ρ(t), window W = {result.window}")
    ax.axhline(0, color="k", lw=0.5)
    ax.set_xlabel("t (measurements)")
    ax.set_ylabel("ρ(t)")
    ax.set_title(f"τ_int = {result.tau_int:.3g} ± {result.tau_int_error:.2g}")
    ax.legend(fontsize=8)
    fig.tight_layout()
    return _save(fig, path)


def effective_mass_plot(m_eff, m_err, name, fit=None, fit_range=None, path=None):
    """m_eff, m_err: effective masses and errors for t = 0, 1, ...; fit: (mass, error) drawn over fit_range."""
    fig, ax = plt.subplots(figsize=(6, 3.8))
    t = np.arange(len(m_eff))
    ok = np.isfinite(m_eff) & np.isfinite(m_err)
    ax.errorbar(t[ok], np.asarray(m_eff)[ok], yerr=np.asarray(m_err)[ok], fmt="o", ms=4, capsize=2, label=name)
    if fit is not None and fit_range is not None:
        t1, t2 = fit_range
        ax.fill_between([t1, t2], fit[0] - fit[1], fit[0] + fit[1], color="orange", alpha=0.5,
                        label=f"fit: am = {fit[0]:.5f} ± {fit[1]:.5f}")
    ax.set_xlabel("t / a")
    ax.set_ylabel("a m_eff(t)")
    if ok.any():
        lo, hi = np.nanpercentile(np.asarray(m_eff)[ok], [5, 95])
        pad = 0.5 * (hi - lo) + 0.05 * abs(hi)
        ax.set_ylim(lo - pad, hi + pad)
    ax.legend(fontsize=8)
    fig.tight_layout()
    return _save(fig, path)
