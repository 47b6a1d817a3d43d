"""Two-point correlators: folding about T/2 and effective masses.

On a lattice of time extent T with (anti)periodic boundaries, a meson correlator is symmetric (or
antisymmetric) under t -> T - t; folding averages the two halves. Effective masses: "log",
m(t) = log(C(t) / C(t+1)); "cosh", the m that solves C(t)/C(t+1) = cosh(m (T/2 - t)) / cosh(m (T/2 - t - 1))
(exact for a single state with its backward-propagating image), found by bisection.
"""
import numpy as np


def fold(c, parity=+1):
    """C_f(t) = (C(t) + parity C(T - t)) / 2 for t = 0..T/2 along the last axis (T even)."""
    c = np.asarray(c)
    T = c.shape[-1]
    if T % 2:
        raise ValueError(f"fold: the time extent must be even, got {T}")
    t = np.arange(T // 2 + 1)
    return 0.5 * (c[..., t] + parity * c[..., (T - t) % T])


def _cosh_mass(ratio, t, T):
    """The m > 0 with cosh(m (T/2 - t)) / cosh(m (T/2 - t - 1)) = ratio (nan where none)."""
    half = T / 2
    if not np.isfinite(ratio) or ratio <= 1 or t + 1 > half:
        return np.nan
    g = lambda m: np.cosh(m * (half - t)) / np.cosh(m * (half - t - 1)) - ratio  # noqa: E731
    lo, hi = 1e-12, 1.0
    while g(hi) < 0:
        hi *= 2
        if hi > 50:
            return np.nan
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if g(mid) < 0:
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


def effective_mass(c, kind="log", T=None):
    """m_eff(t) for t = 0..len(c)-2. kind "log" or "cosh" (cosh needs T, the full time extent; c may be
    folded, t = 0..T/2)."""
    c = np.asarray(c, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = c[:-1] / c[1:]
        if kind == "log":
            return np.log(ratio)
    if kind != "cosh":
        raise ValueError(f"effective_mass: kind is \"log\" or \"cosh\", got {kind!r}")
    if T is None:
        raise ValueError("effective_mass: the cosh mass needs the time extent T")
    return np.array([_cosh_mass(r, t, T) for t, r in enumerate(ratio)])
