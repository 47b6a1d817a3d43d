"""The analysis that lqcd's C++ does too, taken from it through the C interface (src/bindings/c_api.hpp) so
that each exists once: effective masses (measure/effective_mass.hpp), the GEVP's principal correlators
and effective energies (measure/gevp.hpp), and the flow scales t0 and w0 of a t^2 E curve
(gauge/gradient_flow.hpp). Standard library only (ctypes), so that scripts/flow_scales.py runs without
NumPy; the library is found as lqcd.core finds it (lqcd._library).
"""
import ctypes
import pathlib
import sys

try:
    from .._library import library
except ImportError:  # loaded as a top-level module (scripts/flow_scales.py): lqcd/ is two folders up
    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2]))
    from lqcd._library import library

_double_p = ctypes.POINTER(ctypes.c_double)
_ready = False


def _lib():
    """The library with these functions' signatures, loaded at the first call (importing lqcd.analysis
    does not need it: the run analysis and the plots do not use it)."""
    global _ready
    lib = library()
    if not _ready:
        lib.lqcd_effective_mass.argtypes = [_double_p, ctypes.c_int, ctypes.c_int, ctypes.c_char_p, _double_p]
        lib.lqcd_gevp.argtypes = [_double_p, ctypes.c_int, ctypes.c_int, ctypes.c_int, _double_p, _double_p]
        lib.lqcd_flow_scales.argtypes = [_double_p, _double_p, ctypes.c_int, ctypes.c_double, _double_p, _double_p]
        _ready = True
    return lib


def _check(status, what):
    if status != 0:
        raise ValueError(f"{what}: {_lib().lqcd_last_error().decode()}")


def _doubles(values):
    values = [float(v) for v in values]
    return (ctypes.c_double * max(1, len(values)))(*values), len(values)


def effective_mass(c, kind, T):
    """m_eff(t) for t = 0..len(c)-2 (a list; NaN where undefined): kind "log" or "cosh" (T the time extent)."""
    values, n = _doubles(c)
    out = (ctypes.c_double * max(1, n - 1))()
    _check(_lib().lqcd_effective_mass(values, n, int(T), kind.encode(), out), "effective_mass")
    return list(out)[: n - 1]


def gevp(c, T, n, t0):
    """The principal correlators [T][n] and effective energies [T-1][n] (lists) of c, the T matrices n x n
    flattened row by row as (re, im) pairs."""
    values, _ = _doubles(c)
    lam = (ctypes.c_double * (T * n))()
    energy = (ctypes.c_double * max(1, (T - 1) * n))()
    _check(_lib().lqcd_gevp(values, T, n, t0, lam, energy), "gevp")
    rows = lambda a, count: [list(a[k * n:(k + 1) * n]) for k in range(count)]  # noqa: E731
    return rows(lam, T), rows(energy, T - 1)


def flow_scales(ts, t2e, reference=0.3):
    """(t0/a^2, w0/a) where the curve t2e over the flow times ts crosses the reference (NaN where not)."""
    t, n = _doubles(ts)
    y, m = _doubles(t2e)
    if m != n:
        raise ValueError(f"flow_scales: {n} flow times for {m} values")
    t0, w0 = ctypes.c_double(), ctypes.c_double()
    _check(_lib().lqcd_flow_scales(t, y, n, reference, ctypes.byref(t0), ctypes.byref(w0)), "flow_scales")
    return t0.value, w0.value
