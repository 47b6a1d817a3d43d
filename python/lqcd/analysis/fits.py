"""Correlated least-squares fits of correlators.

chi^2(p) = r^T Cov^{-1} r, r = Cbar(t) - f(t; p) over the fit range, Cov the covariance of the mean
(from the samples: Cov = cov(samples) / N, or from binned-jackknife samples). Minimised with SciPy's
least_squares on the whitened residuals L^{-1} r (Cov = L L^T, Cholesky). Parameter errors: the fit
repeated on every jackknife sample with the same covariance (binned jackknife). chi^2/dof is reported;
for a good fit it is about 1 (C. Michael, Phys. Rev. D 49 (1994) 2616 on correlated fits).
"""
from dataclasses import dataclass

import numpy as np
from scipy.linalg import cholesky, solve_triangular
from scipy.optimize import least_squares

from .resampling import jackknife_error, jackknife_samples


def one_exponential(t, p):
    """A exp(-m t); p = (A, m)."""
    return p[0] * np.exp(-p[1] * t)


def two_exponentials(t, p):
    """A0 exp(-m0 t) + A1 exp(-(m0 + exp(d)) t); p = (A0, m0, A1, d): the excited mass m1 = m0 + exp(d) stays
    above the ground state."""
    return p[0] * np.exp(-p[1] * t) + p[2] * np.exp(-(p[1] + np.exp(p[3])) * t)


def one_cosh(T):
    """A (exp(-m t) + exp(-m (T - t))) for time extent T; p = (A, m)."""
    return lambda t, p: p[0] * (np.exp(-p[1] * t) + np.exp(-p[1] * (T - t)))


@dataclass
class FitResult:
    params: np.ndarray
    errors: np.ndarray
    chi2: float
    dof: int
    samples: np.ndarray  # the parameters on each jackknife sample

    @property
    def chi2_per_dof(self):
        return self.chi2 / self.dof if self.dof > 0 else np.nan


def _fit(model, t, y, whiten, p0):
    res = least_squares(lambda p: whiten(y - model(t, p)), p0, method="lm", xtol=1e-14, ftol=1e-14, gtol=1e-14,
                        max_nfev=20000)
    return res.x, float(res.fun @ res.fun)


def correlated_fit(model, t, data, p0, binsize=1, correlated=True):
    """Fits model(t, p) to the mean of `data` (shape (N, len(t)): one correlator per configuration) with the
    covariance of the mean from the binned data; errors by the binned jackknife."""
    t = np.asarray(t, dtype=float)
    data = np.asarray(data, dtype=float)
    samples = jackknife_samples(data, binsize)
    nb = samples.shape[0]
    # The jackknife estimate of the covariance of the mean: (B - 1)/B sum_k (s_k - sbar)(s_k - sbar)^T.
    cov = np.atleast_2d((nb - 1) * np.cov(samples.T, bias=True))
    if not correlated:
        cov = np.diag(np.diag(cov))
    L = cholesky(cov, lower=True)
    whiten = lambda r: solve_triangular(L, r, lower=True)  # noqa: E731
    mean = data.mean(axis=0)
    params, chi2 = _fit(model, t, mean, whiten, np.asarray(p0, dtype=float))
    fits = np.array([_fit(model, t, s, whiten, params)[0] for s in samples])
    return FitResult(params, jackknife_error(fits), chi2, len(t) - len(params), fits)
