"""Two-point correlators: folding about T/2 and effective masses.

On a lattice of time extent T with (anti)periodic boundaries, a meson correlator is symmetric (or
antisymmetric) under t -> T - t; folding averages the two halves. Effective masses: "log",
m(t) = log(C(t) / C(t+1)); "cosh", the m that solves C(t)/C(t+1) = cosh(m (T/2 - t)) / cosh(m (T/2 - t - 1))
(exact for a single state with its backward-propagating image), found by bisection. Both from lqcd's
C++ (measure/effective_mass.hpp), which the spectrum command uses too.
"""
import numpy as np

from . import native


def fold(c, parity=+1):
    """C_f(t) = (C(t) + parity C(T - t)) / 2 for t = 0..T/2 along the last axis (T even)."""
    c = np.asarray(c)
    T = c.shape[-1]
    if T % 2:
        raise ValueError(f"fold: the time extent must be even, got {T}")
    t = np.arange(T // 2 + 1)
    return 0.5 * (c[..., t] + parity * c[..., (T - t) % T])


def fold_baryon(plus, minus):
    """C_f(t) = (C+(t) - C-(T - t)) / 2 for t = 0..T/2 along the last axis: a baryon's positive-parity
    projection forward and its negative-parity projection backward carry the same state (time reflection:
    C+(t) = -C-(T - t), docs/conventions.md), so averaging them halves nothing but the noise."""
    plus, minus = np.asarray(plus), np.asarray(minus)
    T = plus.shape[-1]
    t = np.arange(T // 2 + 1)
    return 0.5 * (plus[..., t] - minus[..., (T - t) % T])


def effective_mass(c, kind="log", T=None):
    """m_eff(t) for t = 0..len(c)-2, NaN where undefined. kind "log" or "cosh" (cosh needs T, the full
    time extent; c may be folded, t = 0..T/2). lqcd's own effective masses (measure/effective_mass.hpp,
    through lqcd.analysis.native)."""
    c = np.asarray(c, dtype=float)
    if kind not in ("log", "cosh"):
        raise ValueError(f"effective_mass: kind is \"log\" or \"cosh\", got {kind!r}")
    if kind == "cosh" and T is None:
        raise ValueError("effective_mass: the cosh mass needs the time extent T")
    return np.array(native.effective_mass(c, kind, len(c) if T is None else T))
