"""The generalised eigenvalue problem for correlator matrices (C. Michael, I. Teasdale, Nucl. Phys. B 215
(1983) 433; M. Luscher, U. Wolff, Nucl. Phys. B 339 (1990) 222; B. Blossier et al., JHEP 0904 (2009) 094):
  C(t) v_n = lambda_n(t, t0) C(t0) v_n,   lambda_n(t, t0) ~ exp(-E_n (t - t0)),
the principal correlators lambda_n ordered so that n = 0 is the ground state (descending for t > t0,
ascending for t < t0, where lambda_n = exp(+E_n (t0 - t))) and the effective energies
E_n(t) = log(lambda_n(t) / lambda_n(t + 1)): lqcd's own (measure/gevp.hpp, the one lqcd gevp and lqcd
distill use, through lqcd.analysis.native). gevp() gives the eigenvectors too, which the C++ does not
need (SciPy's eigh).
"""
import numpy as np
from scipy.linalg import eigh

from . import native


def gevp(c_t, c_t0, descending=True):
    """Eigenvalues (descending, or ascending) and eigenvectors (columns, C(t0)-normalised) of
    C(t) v = lambda C(t0) v. The matrices are symmetrised (Hermitian part) first; C(t0) must be positive
    definite."""
    a = 0.5 * (np.asarray(c_t) + np.asarray(c_t).conj().T)
    b = 0.5 * (np.asarray(c_t0) + np.asarray(c_t0).conj().T)
    w, v = eigh(a, b)
    order = np.argsort(w)[::-1] if descending else np.argsort(w)
    return w[order], v[:, order]


def _native_gevp(c, t0):
    c = np.asarray(c, dtype=complex)
    T, n = c.shape[0], c.shape[1]
    flat = np.stack([c.real, c.imag], axis=-1).ravel()
    lam, energy = native.gevp(flat, T, n, int(t0))
    return np.array(lam), np.array(energy).reshape(T - 1, n)


def principal_correlators(c, t0):
    """lambda_n(t, t0) for every t of c (shape (T, n, n)), the ground state first (lqcd's GEVP,
    measure/gevp.hpp)."""
    return _native_gevp(c, t0)[0]


def gevp_effective_energies(c, t0):
    """E_n(t) = log(lambda_n(t) / lambda_n(t+1)) for t = 0..T-2 (nan where a ratio is not positive)."""
    return _native_gevp(c, t0)[1]
