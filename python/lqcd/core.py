"""lqcd's fields and operators from Python, through its C interface (src/bindings/c_api.hpp) with ctypes:
no compilation against Python, so any python3 with NumPy (Debian's python3-numpy) works.

    import lqcd.core as lq
    U = lq.load("milc_l8888_b6.0.milc")          # any supported format; device=True for the GPU
    U.plaquette()                                 # <Re tr U_p>/3
    psi = lq.point_source(U.dims, (0, 0, 0, 0), spin=0, colour=0)
    chi = lq.wilson_apply(U, 0.155, psi)          # M psi, M = 1 - kappa H (antiperiodic in time)
    x = lq.wilson_solve(U, 0.155, psi, 1e-12)     # M x = psi
    clover = {"action": "clover", "kappa": 0.137, "csw": 1.0}
    x, its, res = lq.dirac_solve(U, psi, fermion=clover, solver={"type": "bicgstab", "tolerance": 1e-10})
    V = U.smear("stout", steps=5, parameter=0.1)  # a smeared copy (ape, stout, hyp; spatial=True: 3D)
    history = V.flow(t_max=1.0, epsilon=0.01, every=10)   # in place; t, E (plaquette, clover), t^2 E, Q
    W = lq.unit((8, 8, 8, 8)); W.heatbath(sweeps=20, beta=6.0)   # lqcd heatbath's updates, in place
    W.save("w.ildg")                              # ildg (SciDAC checksums), nersc, openqcd; 32 or 64 bit
    hmc = lq.Hmc(open("examples/hmc_nf2_wilson_b5.6_k0.156_8x8x8x16.toml").read())
    r = hmc.trajectory(W, 0)                      # dH, acceptance probability, accepted, seconds

Spinors are NumPy arrays of shape (T, Z, Y, X, 4, 3), complex128 (x fastest, as lqcd's lexicographic
order; spins in the DeGrand-Rossi basis of docs/design.md); links (T, Z, Y, X, 4, 3, 3). On the GPU,
`U.device_array()` is a view of the field's own storage (CuPy, through __cuda_array_interface__: no copy).

The library: $LQCD_LIBRARY, else liblqcd_capi.so next to this file (cmake --install), else build/ of the
source tree (lqcd._library).
"""
import ctypes
import numbers

import numpy as np

from ._library import library

_c_double_p = ctypes.POINTER(ctypes.c_double)

_lib = library()
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
_handle_p = ctypes.POINTER(ctypes.c_void_p)
_lib.lqcd_gauge_unit.argtypes = [ctypes.c_int * 4, ctypes.c_int, _handle_p]
_lib.lqcd_gauge_from_links.argtypes = [_c_double_p, ctypes.c_int * 4, ctypes.c_int, _handle_p]
_lib.lqcd_gauge_copy.argtypes = [ctypes.c_void_p, _handle_p]
_lib.lqcd_gauge_reunitarize.argtypes = [ctypes.c_void_p]
_lib.lqcd_gauge_save.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_int, ctypes.c_int]
_lib.lqcd_gauge_observables.argtypes = [ctypes.c_void_p, _c_double_p]
_lib.lqcd_gauge_smear.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int, ctypes.c_double, ctypes.c_int,
                                  _handle_p]
_lib.lqcd_gauge_flow.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_double, ctypes.c_double, ctypes.c_int,
                                 _c_double_p, ctypes.c_int, ctypes.POINTER(ctypes.c_int)]
_lib.lqcd_gauge_heatbath.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_double, ctypes.c_int, ctypes.c_int,
                                     ctypes.c_ulonglong, ctypes.c_uint]
_lib.lqcd_hmc_new.argtypes = [ctypes.c_char_p, _handle_p]
_lib.lqcd_hmc_free.argtypes = [ctypes.c_void_p]
_lib.lqcd_hmc_free.restype = None
_lib.lqcd_hmc_trajectory.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_uint, ctypes.c_int, _c_double_p]
_lib.lqcd_dirac_apply.argtypes = [ctypes.c_void_p, ctypes.c_char_p, _c_double_p, _c_double_p]
_lib.lqcd_dirac_solve.argtypes = [ctypes.c_void_p, ctypes.c_char_p, _c_double_p, _c_double_p,
                                  ctypes.POINTER(ctypes.c_int), ctypes.POINTER(ctypes.c_double)]


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

    def copy(self):
        """An independent copy (same location)."""
        handle = ctypes.c_void_p()
        _check(_lib.lqcd_gauge_copy(self._handle, ctypes.byref(handle)))
        return GaugeField(handle, self.dims, self.device)

    def reunitarize(self):
        """Projects every link to SU(3) in place (links read from 32-bit storage before a 64-bit save)."""
        _check(_lib.lqcd_gauge_reunitarize(self._handle))

    def save(self, path, format="ildg", precision=64, overwrite=False):
        """Writes the field: format ildg (SciDAC checksums), nersc or openqcd; precision 32 or 64 bits
        (openqcd: 64). An existing file is replaced only with overwrite=True. 64-bit files need links SU(3)
        to 1e-10: links read from 32-bit storage are refused until reunitarize()."""
        _check(_lib.lqcd_gauge_save(self._handle, str(path).encode(), format.encode(), int(precision),
                                    int(bool(overwrite))))

    def observables(self):
        """The observables of `lqcd measure`, normalised to 1 for the unit field."""
        out = (ctypes.c_double * 7)()
        _check(_lib.lqcd_gauge_observables(self._handle, out))
        return {"plaquette": out[0], "plaquette_spatial": out[1], "plaquette_temporal": out[2],
                "rectangle": out[3], "link_trace": out[4], "polyakov_loop": complex(out[5], out[6])}

    def smear(self, method, steps, parameter=0.0, spatial=False):
        """A smeared copy: method "ape" (parameter = alpha), "stout" (rho) or "hyp" (alphas 0.75, 0.6, 0.3);
        spatial=True smears only the spatial links."""
        handle = ctypes.c_void_p()
        _check(_lib.lqcd_gauge_smear(self._handle, method.encode(), int(steps), float(parameter), int(bool(spatial)),
                                     ctypes.byref(handle)))
        return GaugeField(handle, self.dims, self.device)

    def flow(self, t_max, epsilon=0.01, every=10, action="wilson"):
        """The gradient flow of this field in place (Luscher's RK3, fixed step epsilon, to t_max; action
        wilson, symanzik or zeuthen), measured every `every` steps from t = 0: a dict of NumPy columns
        t, E_plaquette, E_clover, t2E (clover) and Q (clover), as `lqcd flow` prints them. A field of an open
        lattice (every U_t at x0 = N0 - 1 zero, as openQCD's files hold them) flows as openQCD's, E then the
        mean over the central time slices and Q the sum (`lqcd flow --boundary auto`; wilson only)."""
        rows = int(round(t_max / epsilon)) // max(int(every), 1) + 3
        out = np.empty((rows, 5))
        n = ctypes.c_int()
        _check(_lib.lqcd_gauge_flow(self._handle, action.encode(), float(epsilon), float(t_max), int(every),
                                    out.ctypes.data_as(_c_double_p), rows, ctypes.byref(n)))
        cols = out[: n.value]
        return {"t": cols[:, 0], "E_plaquette": cols[:, 1], "E_clover": cols[:, 2], "t2E": cols[:, 3],
                "Q": cols[:, 4]}

    def heatbath(self, sweeps, beta, overrelaxation=4, seed=12345, action="wilson", first_sweep=0):
        """Quenched updates in place, as `lqcd heatbath` makes them: per sweep one heatbath sweep (random
        numbers keyed by seed and the sweep number, first_sweep upwards) and `overrelaxation` OR sweeps."""
        _check(_lib.lqcd_gauge_heatbath(self._handle, action.encode(), float(beta), int(sweeps), int(overrelaxation),
                                        int(seed), int(first_sweep)))

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


def _dims_array(dims):
    if len(dims) != 4:
        raise ValueError(f"dims: expected (x, y, z, t), got {dims}")
    return (ctypes.c_int * 4)(*[int(d) for d in dims])


def unit(dims, device=False):
    """The unit gauge field (all links 1) of dims (x, y, z, t)."""
    handle = ctypes.c_void_p()
    _check(_lib.lqcd_gauge_unit(_dims_array(dims), int(bool(device)), ctypes.byref(handle)))
    return GaugeField(handle, list(dims), bool(device))


def from_links(links, device=False):
    """A field from links of shape (T, Z, Y, X, 4, 3, 3), SU(3) to 1e-10 (as GaugeField.links() gives them)."""
    a = np.ascontiguousarray(links, dtype=np.complex128)
    if a.ndim != 7 or a.shape[4:] != (4, 3, 3):
        raise ValueError(f"links: expected shape (T, Z, Y, X, 4, 3, 3), got {a.shape}")
    dims = [a.shape[3], a.shape[2], a.shape[1], a.shape[0]]
    handle = ctypes.c_void_p()
    _check(_lib.lqcd_gauge_from_links(a.ctypes.data_as(_c_double_p), _dims_array(dims), int(bool(device)),
                                      ctypes.byref(handle)))
    return GaugeField(handle, dims, bool(device))


def _toml_value(v):
    if isinstance(v, (bool, np.bool_)):
        return "true" if v else "false"
    if isinstance(v, str):
        return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(v, (list, tuple, np.ndarray)):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    if isinstance(v, numbers.Integral):
        return str(int(v))
    if isinstance(v, numbers.Real):  # NumPy scalars too (their repr is "np.float64(...)" under NumPy 2)
        return repr(float(v))
    raise TypeError(f"a TOML value must be a bool, number, string or list, not {type(v).__name__}")


def quark_toml(fermion=None, solver=None, multigrid=None):
    """TOML text of lqcd propagator's [fermion], [solver] and [multigrid] tables from dicts."""
    text = ""
    for name, table in (("fermion", fermion), ("solver", solver), ("multigrid", multigrid)):
        if table:
            text += f"[{name}]\n" + "".join(f"{k} = {_toml_value(v)}\n" for k, v in table.items())
    return text


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


def dirac_apply(U, psi, fermion):
    """M psi for any quark action of lqcd's [fermion] table (a dict of its keys, e.g. {"action": "clover",
    "kappa": 0.137, "csw": 1.0} or {"action": "twisted_mass", "kappa": 0.16, "mu": 0.01}): the full
    operator in hopping form, with the input files' defaults (antiperiodic in time)."""
    a = _spinor_in(U, psi)
    out = np.empty_like(a)
    _check(_lib.lqcd_dirac_apply(U._handle, quark_toml(fermion).encode(), a.ctypes.data_as(_c_double_p),
                                 out.ctypes.data_as(_c_double_p)))
    return out


def dirac_solve(U, b, fermion, solver=None, multigrid=None):
    """x with M x = b by any solver of lqcd's [solver] table (dicts of the input files' keys, e.g.
    {"type": "bicgstab", "tolerance": 1e-10, "precision": "single"}; {"type": "multigrid"} with a
    [multigrid] dict). Returns (x, iterations, residual), the residual ||b - M x|| / ||b|| of the full operator."""
    a = _spinor_in(U, b)
    x = np.empty_like(a)
    its, res = ctypes.c_int(), ctypes.c_double()
    _check(_lib.lqcd_dirac_solve(U._handle, quark_toml(fermion, solver, multigrid).encode(),
                                 a.ctypes.data_as(_c_double_p), x.ctypes.data_as(_c_double_p), ctypes.byref(its),
                                 ctypes.byref(res)))
    return x, its.value, res.value


class Hmc:
    """Hybrid Monte Carlo from an `lqcd hmc` input (TOML text: [gauge], [integrator], [[monomial]], [solver],
    [multigrid], [fermion_smearing], hmc.seed; lattice, start and output keys are not used), read and
    checked by lqcd hmc's own input code. Trajectory n is trajectory n of `lqcd hmc` with that input (the
    momenta, pseudofermions and accept/reject draw are keyed by seed and n). One lattice per Hmc."""

    def __init__(self, toml):
        handle = ctypes.c_void_p()
        _check(_lib.lqcd_hmc_new(toml.encode(), ctypes.byref(handle)))
        self._handle = handle

    def __del__(self):
        if getattr(self, "_handle", None):
            _lib.lqcd_hmc_free(self._handle)
            self._handle = None

    def trajectory(self, U, n, metropolis=True):
        """Trajectory n from U, in place (U is the new or the old configuration afterwards): a dict with
        dH, acceptance_probability, accepted and seconds. metropolis=False keeps the new one always."""
        out = (ctypes.c_double * 4)()
        _check(_lib.lqcd_hmc_trajectory(self._handle, U._handle, int(n), int(bool(metropolis)), out))
        return {"dH": out[0], "acceptance_probability": out[1], "accepted": bool(out[2]), "seconds": out[3]}


# DeGrand-Rossi gamma matrices (src/math/gamma.hpp, docs/conventions.md), directions x, y, z, t.
GAMMA = [np.array(g, dtype=complex) for g in (
    [[0, 0, 0, 1j], [0, 0, 1j, 0], [0, -1j, 0, 0], [-1j, 0, 0, 0]],
    [[0, 0, 0, -1], [0, 0, 1, 0], [0, 1, 0, 0], [-1, 0, 0, 0]],
    [[0, 0, 1j, 0], [0, 0, 0, -1j], [-1j, 0, 0, 0], [0, 1j, 0, 0]],
    [[0, 0, 1, 0], [0, 0, 0, 1], [1, 0, 0, 0], [0, 1, 0, 0]])]


def gamma(structure):
    """The spin matrix of lqcd's name for it ("1", "gx", "gxgt", ..., "g5" = gx gy gz gt) or of its index
    n = sum n_k 2^k (the product gx^n0 gy^n1 gz^n2 gt^n3), as lqcd spectrum names its correlators."""
    if isinstance(structure, str):
        if structure == "1":
            return np.eye(4, dtype=complex)
        if structure == "g5":
            structure = 15
        else:
            n, rest = 0, structure
            for k, d in enumerate("xyzt"):
                if rest.startswith("g" + d):
                    n, rest = n | (1 << k), rest[2:]
            if rest or n == 0:
                raise ValueError(f"unknown gamma structure {structure!r} (1, gx, gy, gxgy, ..., gygzgt, g5)")
            structure = n
    m = np.eye(4, dtype=complex)
    for k in range(4):
        if int(structure) & (1 << k):
            m = m @ GAMMA[k]
    return m


def point_propagator(U, position, fermion, solver=None, multigrid=None):
    """The point-to-all propagator from the site position = (x, y, z, t): 12 solves (dirac_solve), as an
    array (T, Z, Y, X, 4, 3, 4, 3): S[t, z, y, x, s', c', s, c] = solution for the source of spin s, colour c."""
    shape = spinor_shape(U.dims)
    S = np.empty(shape + (4, 3), dtype=np.complex128)
    for spin in range(4):
        for colour in range(3):
            x, _, _ = dirac_solve(U, point_source(U.dims, position, spin, colour), fermion, solver, multigrid)
            S[..., spin, colour] = x
    return S


def meson_correlator(S, source, g_sink, g_source, momenta=((0, 0, 0),)):
    """lqcd's meson two-point function from a point propagator (src/measure/meson_correlator.hpp):
    C(t, p) = - sum_x e^{-i p.(x - x0)} tr[G_snk S(x) Gbar_src g5 S(x)^dag g5], Gbar = gt G^dag gt, t relative
    to the source's time slice, p in units of 2 pi / L; the pion is positive. Returns an array
    (len(momenta), T), complex. S from point_propagator(U, source, ...)."""
    g5 = gamma(15)
    G = gamma(g_sink) if not isinstance(g_sink, np.ndarray) else g_sink
    Gs = gamma(g_source) if not isinstance(g_source, np.ndarray) else g_source
    gbar = GAMMA[3] @ Gs.conj().T @ GAMMA[3]
    X = np.einsum("ab,...bkcm->...akcm", G, S)
    Y = np.einsum("su,...vkum,va->...smak", gbar @ g5, np.conj(S), g5)
    local = np.einsum("...akcm,...cmak->...", X, Y)  # (T, Z, Y, X)
    T, Lz, Ly, Lx = local.shape
    x0, y0, z0, t0 = source
    out = np.empty((len(momenta), T), dtype=complex)
    z, y, x = np.meshgrid(np.arange(Lz), np.arange(Ly), np.arange(Lx), indexing="ij")
    for i, p in enumerate(momenta):
        phase = np.exp(-2j * np.pi * (p[0] * (x - x0) / Lx + p[1] * (y - y0) / Ly + p[2] * (z - z0) / Lz))
        per_t = -(local * phase).sum(axis=(1, 2, 3))
        out[i] = np.roll(per_t, -t0)
    return out

