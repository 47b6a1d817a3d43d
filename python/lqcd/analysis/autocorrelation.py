"""Errors of Monte Carlo averages with autocorrelations: the Gamma method with automatic windowing.

U. Wolff, "Monte Carlo errors with less errors", Comput. Phys. Commun. 156 (2004) 143 (hep-lat/0306017):
for a series a_1..a_N with mean abar,
  Gamma(t) = 1/(N - t) sum_i (a_i - abar)(a_{i+t} - abar),
  tau_int(W) = 1/2 + sum_{t=1}^{W} Gamma(t) / Gamma(0),
the window W the first at which g(W) = exp(-W / tau(W)) - tau(W) / sqrt(W N) < 0, with
tau(W) = S / log((2 tau_int(W) + 1) / (2 tau_int(W) - 1)) (S = 1.5; eq. 50-52), the bias of Gamma
corrected by C_F / N (eq. 49), and
  error^2 = C_F / N,  C_F = Gamma(0) + 2 sum_{t=1}^{W} Gamma(t) = 2 tau_int Gamma(0),
  delta tau_int = tau_int sqrt((4 W + 2) / N)   (Madras-Sokal, eq. 42).
A derived quantity f(<a_1>, ..., <a_k>) of several observables is analysed through the projected series
sum_alpha df/da_alpha (a_alpha,i - abar_alpha) (eq. 31-33), the derivatives by central differences.
"""
from dataclasses import dataclass

import numpy as np


@dataclass
class GammaResult:
    value: float          # the mean (or f of the means)
    error: float          # its statistical error, autocorrelations included
    tau_int: float        # integrated autocorrelation time (in units of the series' spacing)
    tau_int_error: float
    window: int           # the summation window W
    n: int                # number of measurements
    gamma: np.ndarray     # the normalised autocorrelation function rho(t), t = 0..W (bias-corrected)

    def __str__(self):
        return (f"{self.value:.10g} +- {self.error:.3g} (tau_int = {self.tau_int:.3g} +- {self.tau_int_error:.2g}, "
                f"W = {self.window}, N = {self.n})")


def _autocovariance(x, t_max):
    n = len(x)
    d = x - x.mean()
    # All lags at once by FFT (zero-padded: no wrap-around), then divided by the number of pairs.
    size = 1 << int(np.ceil(np.log2(2 * n)))
    f = np.fft.rfft(d, size)
    acf = np.fft.irfft(f * np.conj(f), size)[: t_max + 1]
    return acf / (n - np.arange(t_max + 1))


def gamma_method(data, f=None, S=1.5):
    """The Gamma-method analysis of a series (shape (N,)) or of f applied to the means of several
    observables measured on the same configurations (data of shape (N, k), f taking a length-k array)."""
    a = np.asarray(data, dtype=float)
    if a.ndim == 1:
        a = a[:, None]
        if f is None:
            f = lambda m: m[0]  # noqa: E731
    elif f is None:
        raise ValueError("gamma_method: several observables need a function f of their means")
    n = a.shape[0]
    if n < 2:
        raise ValueError(f"gamma_method: need at least 2 measurements, have {n}")
    means = a.mean(axis=0)
    value = float(f(means))
    # The projected series: gradient of f by central differences with steps of the naive errors.
    grad = np.empty(a.shape[1])
    for k in range(a.shape[1]):
        h = a[:, k].std() / np.sqrt(n) or 1e-8 * max(abs(means[k]), 1.0)
        up, down = means.copy(), means.copy()
        up[k] += h
        down[k] -= h
        grad[k] = (f(up) - f(down)) / (2 * h)
    x = a @ grad
    t_max = n // 2
    gamma = _autocovariance(x, t_max)
    if gamma[0] == 0:
        return GammaResult(value, 0.0, 0.5, 0.0, 0, n, np.ones(1))
    # Automatic windowing (Wolff section 3.3).
    window = t_max
    tau_acc = 0.5
    for w in range(1, t_max + 1):
        tau_acc += gamma[w] / gamma[0]
        tau = S / np.log((2 * tau_acc + 1) / (2 * tau_acc - 1)) if tau_acc > 0.5 else 1e-300
        if np.exp(-w / tau) - tau / np.sqrt(w * n) < 0:
            window = w
            break
    c_f = gamma[0] + 2 * gamma[1 : window + 1].sum()
    gamma = gamma + c_f / n  # bias correction (eq. 49)
    c_f = gamma[0] + 2 * gamma[1 : window + 1].sum()
    tau_int = c_f / (2 * gamma[0])
    error = np.sqrt(max(c_f, 0.0) / n)
    tau_err = tau_int * np.sqrt((4 * window + 2) / n)
    return GammaResult(value, float(error), float(tau_int), float(tau_err), int(window), n,
                       gamma[: window + 1] / gamma[0])
