"""lqcd.core (issue 31): lqcd's fields and Wilson operator from Python, checked against independent NumPy
code and against the lqcd program: the MILC beta = 6.0 configuration's plaquette (the reference value of
../shared/testdata and a NumPy plaquette of the returned links), the Wilson operator against a NumPy
hopping term, a solve's residual, and the pion correlator built in Python from 12 solves = lqcd spectrum's
to 1e-12. On a GPU: a CuPy view of the device field's storage, no copy."""
import json
import os
import subprocess
from pathlib import Path

import numpy as np
import pytest

lq = pytest.importorskip("lqcd.core", reason="liblqcd_capi.so not built") if "LQCD_LIBRARY" not in os.environ \
    else __import__("lqcd.core", fromlist=["core"])

TESTDATA = Path(os.environ.get("LQCD_TESTDATA", Path(__file__).resolve().parents[3] / "shared" / "testdata"))
MILC = TESTDATA / "milc_l8888_b6.0.milc"
KAPPA = 0.155

# DeGrand-Rossi gamma matrices (docs/design.md, src/math/gamma.hpp), directions x, y, z, t.
GAMMA = [np.array(g, dtype=complex) for g in (
    [[0, 0, 0, 1j], [0, 0, 1j, 0], [0, -1j, 0, 0], [-1j, 0, 0, 0]],
    [[0, 0, 0, -1], [0, 0, 1, 0], [0, 1, 0, 0], [-1, 0, 0, 0]],
    [[0, 0, 1j, 0], [0, 0, 0, -1j], [-1j, 0, 0, 0], [0, 1j, 0, 0]],
    [[0, 0, 1, 0], [0, 0, 0, 1], [1, 0, 0, 0], [0, 1, 0, 0]])]


@pytest.fixture(scope="module")
def milc():
    return lq.load(MILC)


def numpy_plaquette(u):
    """<Re tr U_mu(x) U_nu(x+mu) U_mu(x+nu)^dag U_nu(x)^dag>/3 over the 6 planes; u: (T, Z, Y, X, 4, 3, 3)."""
    axis = {0: 3, 1: 2, 2: 1, 3: 0}  # direction -> array axis
    total = 0.0
    for mu in range(4):
        for nu in range(mu + 1, 4):
            a = u[..., mu, :, :]
            b = np.roll(u[..., nu, :, :], -1, axis=axis[mu])
            c = np.roll(u[..., mu, :, :], -1, axis=axis[nu])
            d = u[..., nu, :, :]
            p = a @ b @ np.conj(np.swapaxes(c, -1, -2)) @ np.conj(np.swapaxes(d, -1, -2))
            total += np.trace(p, axis1=-2, axis2=-1).real.mean() / 3
    return total / 6


def numpy_wilson(u, kappa, psi):
    """M psi = psi - kappa sum_mu [(1 - g_mu) U_mu(x) psi(x+mu) + (1 + g_mu) U_mu(x-mu)^dag psi(x-mu)], with
    the antiperiodic phase on the hops across the time boundary (array axis 0)."""
    axis = {0: 3, 1: 2, 2: 1, 3: 0}
    T = psi.shape[0]
    out = psi.copy()
    for mu in range(4):
        one_minus, one_plus = np.eye(4) - GAMMA[mu], np.eye(4) + GAMMA[mu]
        fwd = np.roll(psi, -1, axis=axis[mu])
        bwd = np.roll(psi, 1, axis=axis[mu])
        u_bwd = np.roll(u[..., mu, :, :], 1, axis=axis[mu])
        if mu == 3:
            fwd[T - 1] *= -1
            bwd[0] *= -1
        hop_f = np.einsum("st,...ab,...tb->...sa", one_minus, u[..., mu, :, :], fwd)
        hop_b = np.einsum("st,...ba,...tb->...sa", one_plus, np.conj(u_bwd), bwd)
        out -= kappa * (hop_f + hop_b)
    return out


def test_plaquette_and_links_of_the_milc_configuration(milc):
    assert milc.dims == (8, 8, 8, 8)
    assert milc.plaquette() == pytest.approx(0.593560240433, abs=1e-8)  # ../shared/testdata/README.md
    u = milc.links()
    eye = np.eye(3)
    assert np.abs(u @ np.conj(np.swapaxes(u, -1, -2)) - eye).max() < 1e-6  # 32-bit storage
    assert numpy_plaquette(u) == pytest.approx(milc.plaquette(), abs=1e-12)


def test_wilson_operator_equals_the_numpy_hopping_term(milc):
    rng = np.random.default_rng(1)
    psi = rng.normal(size=lq.spinor_shape(milc.dims)) + 1j * rng.normal(size=lq.spinor_shape(milc.dims))
    got = lq.wilson_apply(milc, KAPPA, psi)
    want = numpy_wilson(milc.links(), KAPPA, psi)
    assert np.abs(got - want).max() < 1e-12 * np.abs(want).max()


def test_solve_reaches_its_residual(milc):
    b = lq.point_source(milc.dims, (1, 2, 3, 4), spin=2, colour=1)
    x, its = lq.wilson_solve(milc, KAPPA, b, 1e-12, return_iterations=True)
    r = b - lq.wilson_apply(milc, KAPPA, x)
    assert np.linalg.norm(r) / np.linalg.norm(b) < 1e-12
    assert its > 10
    with pytest.raises(lq.LqcdError, match="kappa"):
        lq.wilson_solve(milc, -1.0, b)


def test_pion_from_python_equals_lqcd_spectrum(milc, tmp_path):
    # C(t) = sum_x sum_{s,c,s',c'} |S(x, 0)_{s c, s' c'}|^2 (gamma_5 hermiticity) from 12 solves.
    T = milc.dims[3]
    c = np.zeros(T)
    for spin in range(4):
        for colour in range(3):
            x = lq.wilson_solve(milc, KAPPA, lq.point_source(milc.dims, (0, 0, 0, 0), spin, colour), 1e-13)
            c += (np.abs(x) ** 2).sum(axis=(1, 2, 3, 4, 5))
    toml = tmp_path / "pion.toml"
    toml.write_text(f'[gauge]\nconfig = "{MILC}"\n[fermion]\naction = "wilson"\nkappa = {KAPPA}\n'
                    '[solver]\ntype = "cg"\ntolerance = 1e-13\n[source]\ntype = "point"\nposition = [0, 0, 0, 0]\n'
                    f'[output]\nprefix = "{tmp_path / "pion"}"\n')
    run = subprocess.run([os.environ["LQCD"], "spectrum", str(toml), "--json", "--device", "cpu"],
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    pion = np.array(json.loads(run.stdout)["correlators"]["pion"])
    assert np.abs(c - pion).max() < 1e-12 * np.abs(pion).max(), (c, pion)


def test_cupy_views_the_device_field_without_a_copy():
    cupy = pytest.importorskip("cupy")
    if not lq.has_device():
        pytest.skip("no CUDA device")
    host, dev = lq.load(MILC), lq.load(MILC, device=True)
    view = cupy.asarray(dev)
    ptr, size, on_device = dev.storage()
    assert on_device and view.data.ptr == ptr and view.nbytes == size
    # Same storage layout on host and device: the same numbers.
    assert float(cupy.abs(view).sum()) == pytest.approx(float(np.abs(host.host_array()).sum()), rel=1e-12)
    assert dev.plaquette() == pytest.approx(host.plaquette(), abs=1e-13)
    view[:] = 0  # written through the view: lqcd sees it (no copy)
    assert dev.plaquette() == 0.0
