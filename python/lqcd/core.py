"""lqcd's fields and operators from Python, through its C interface (src/bindings/c_api.hpp) with ctypes:
no compilation against Python, so any python3 with NumPy (Debian's python3-numpy) works.

    import lqcd.core as lq
    U = lq.load("milc_l8888_b6.0.milc")          # any supported format; device=True for the GPU
    U.plaquette()                                 # <Re tr U_p>/3
    psi = lq.point_source(U.dims, (0, 0, 0, 0), spin=0, colour=0)
    chi = lq.wilson_apply(U, 0.155, psi)          # M psi, M = 1 - kappa H (antiperiodic in time)
    x = lq.wilson_solve(U, 0.155, psi, 1e-12)     # M x = psi

Spinors are NumPy arrays of shape (T, Z, Y, X, 4, 3), complex128 (x fastest, as lqcd's lexicographic
order; spins in the DeGrand-Rossi basis of docs/design.md); links (T, Z, Y, X, 4, 3, 3). On the GPU,
`U.device_array()` is a view of the field's own storage (CuPy, through __cuda_array_interface__: no copy).

The library: $LQCD_LIBRARY, else liblqcd_capi.so next to this file (cmake --install), else build/ of the
source tree.
"""
import ctypes
import os
from pathlib import Path

import numpy as np

_c_double_p = ctypes.POINTER(ctypes.c_double)


def _find_library():
    candidates = [os.environ.get("LQCD_LIBRARY"), Path(__file__).with_name("liblqcd_capi.so"),
                  Path(__file__).resolve().parents[2] / "build" / "liblqcd_capi.so"]
    for c in candidates:
        if c and Path(c).is_file():
            return str(c)
    raise OSError("liblqcd_capi.so not found: build lqcd (bash scripts/build.sh), set LQCD_LIBRARY, or cmake --install")


_lib = ctypes.CDLL(_find_library())
_lib.lqcd_last_error.restype = ctypes.c_char_p
_lib.lqcd_gauge_load.argtypes = [ctypes.c_char_p, ctypes.c_int, ctypes.POINTER(ctypes.c_void_p), ctypes.c_int * 4]
_lib.lqcd_gauge_free.argtypes = [ctypes.c_void_p]
_lib.lqcd_gauge_free.restype = None
_lib.lqcd_gauge_plaquette.argtypes = [ctypes.c_void_p, _c_double_p]
_lib.lqcd_gauge_links.argtypes = [ctypes.c_void_p, _c_double_p]
_lib.lqcd_gauge_storage.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_void_p), ctypes.POINTER(ctypes.c_size_t),
                                    ctypes.POINTER(ctypes.c_int)]
_lib.lqcd_wilson_apply.argtypes = [ctypes.c_void_p, ctypes.c_double, _c_double_p, _c_double_p]
_lib.lqcd_wilson_solve.argtypes = [ctypes.c_void_p, ctypes.c_double, ctypes.c_double, _c_double_p, _c_double_p,
                                   ctypes.POINTER(ctypes.c_int)]


class LqcdError(RuntimeError):
    """An error reported by lqcd (the message names the file or parameter)."""


def _check(status):
    if status != 0:
        raise LqcdError(_lib.lqcd_last_error().decode())


def has_device():
    """True when lqcd can use a CUDA device here."""
    return bool(_lib.lqcd_has_device())


class GaugeField:
    """A gauge configuration held by lqcd (on the host, or on the GPU with device=True)."""

    def __init__(self, handle, dims, device):
        self._handle, self.dims, self.device = handle, tuple(dims), device

    def __del__(self):
        if getattr(self, "_handle", None):
            _lib.lqcd_gauge_free(self._handle)
            self._handle = None

    @property
    def shape(self):
        """(T, Z, Y, X): the lattice in array order."""
        x, y, z, t = self.dims
        return (t, z, y, x)

    def plaquette(self):
        p = ctypes.c_double()
        _check(_lib.lqcd_gauge_plaquette(self._handle, ctypes.byref(p)))
        return p.value

    def links(self):
        """A host copy of the links: (T, Z, Y, X, 4, 3, 3) complex128, U_mu(x) with mu = x, y, z, t."""
        out = np.empty(self.shape + (4, 3, 3), dtype=np.complex128)
        _check(_lib.lqcd_gauge_links(self._handle, out.ctypes.data_as(_c_double_p)))
        return out

    def storage(self):
        """(address, bytes, on_device) of the field's own storage (lqcd's layout, not lexicographic)."""
        data, size, dev = ctypes.c_void_p(), ctypes.c_size_t(), ctypes.c_int()
        _check(_lib.lqcd_gauge_storage(self._handle, ctypes.byref(data), ctypes.byref(size), ctypes.byref(dev)))
        return data.value, size.value, bool(dev.value)

    @property
    def __cuda_array_interface__(self):
        """The device storage as a 1-D float64 array (CUDA Array Interface v3): cupy.asarray(U) is a view,
        not a copy. Only for a field on the GPU."""
        ptr, size, on_device = self.storage()
        if not on_device:
            raise AttributeError("__cuda_array_interface__: this field is on the host (load with device=True)")
        return {"shape": (size // 8,), "typestr": "<f8", "data": (ptr, False), "version": 3, "strides": None}

    def host_array(self):
        """The host storage as a NumPy view (no copy; lqcd's layout). Only for a field on the host."""
        ptr, size, on_device = self.storage()
        if on_device:
            raise ValueError("host_array: this field is on the GPU (use cupy.asarray(field))")
        return np.ctypeslib.as_array(ctypes.cast(ptr, _c_double_p), shape=(size // 8,))


def load(path, device=False):
    """A configuration from a file of any supported format (ILDG/SciDAC, NERSC, MILC, openQCD)."""
    handle, dims = ctypes.c_void_p(), (ctypes.c_int * 4)()
    _check(_lib.lqcd_gauge_load(str(path).encode(), int(bool(device)), ctypes.byref(handle), dims))
    return GaugeField(handle, list(dims), bool(device))


def spinor_shape(dims):
    x, y, z, t = dims
    return (t, z, y, x, 4, 3)


def point_source(dims, position, spin, colour):
    """1 at the site position = (x, y, z, t), for one spin and colour; 0 elsewhere."""
    eta = np.zeros(spinor_shape(dims), dtype=np.complex128)
    x, y, z, t = position
    eta[t, z, y, x, spin, colour] = 1.0
    return eta


def _spinor_in(U, psi):
    a = np.ascontiguousarray(psi, dtype=np.complex128)
    if a.shape != spinor_shape(U.dims):
        raise ValueError(f"expected a spinor of shape {spinor_shape(U.dims)}, got {a.shape}")
    return a


def wilson_apply(U, kappa, psi):
    """M psi with M = 1 - kappa H, the Wilson operator in hopping form (boundary: antiperiodic in time)."""
    a = _spinor_in(U, psi)
    out = np.empty_like(a)
    _check(_lib.lqcd_wilson_apply(U._handle, float(kappa), a.ctypes.data_as(_c_double_p),
                                  out.ctypes.data_as(_c_double_p)))
    return out


def wilson_solve(U, kappa, b, tolerance=1e-12, return_iterations=False):
    """x with M x = b to ||b - M x|| / ||b|| < tolerance (even-odd CG, double precision)."""
    a = _spinor_in(U, b)
    x = np.empty_like(a)
    its = ctypes.c_int()
    _check(_lib.lqcd_wilson_solve(U._handle, float(kappa), float(tolerance), a.ctypes.data_as(_c_double_p),
                                  x.ctypes.data_as(_c_double_p), ctypes.byref(its)))
    return (x, its.value) if return_iterations else x
