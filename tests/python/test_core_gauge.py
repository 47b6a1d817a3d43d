"""lqcd.core beyond the Wilson operator (issue 31): configurations written from Python in every format and
read back, gauge observables, smearing, the gradient flow and quenched updates from Python, each equal to
what the lqcd program computes for the same input (lqcd measure, smear, flow, heatbath); any quark action
and solver of the input files' [fermion]/[solver]/[multigrid] tables: the twisted-mass term against its
formula, a clover pion against lqcd spectrum's, and the residuals of BiCGStab, GCR and the multigrid."""
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
GAMMA5 = np.diag([1.0, 1.0, -1.0, -1.0]).astype(complex)  # DeGrand-Rossi gamma_5 (docs/conventions.md)


def lqcd(*args, cwd=None):
    run = subprocess.run([os.environ["LQCD"], *map(str, args)], capture_output=True, text=True, timeout=600, cwd=cwd)
    assert run.returncode == 0, run.stderr
    return run.stdout


@pytest.fixture(scope="module")
def milc():
    return lq.load(MILC)


@pytest.fixture(scope="module")
def thermal():
    """A 4^4 field of 64-bit precision: cold start and 3 heatbath sweeps at beta = 5.7 from Python."""
    u = lq.unit((4, 4, 4, 4))
    u.heatbath(3, beta=5.7, overrelaxation=1, seed=3)
    return u


def test_save_in_every_format_and_read_back(thermal, tmp_path):
    links = thermal.links()
    for fmt in ("ildg", "nersc", "openqcd"):
        path = tmp_path / f"u.{fmt}"
        thermal.save(path, format=fmt)
        back = lq.load(path)
        assert np.array_equal(back.links(), links), fmt  # 64-bit: the same numbers
        assert json.loads(lqcd("measure", "--json", path))["format"] == fmt
    thermal.save(tmp_path / "u32.ildg", precision=32)
    assert lq.load(tmp_path / "u32.ildg").plaquette() == pytest.approx(thermal.plaquette(), abs=1e-6)
    before = (tmp_path / "u.ildg").read_bytes()
    with pytest.raises(lq.LqcdError, match="exists already"):
        thermal.save(tmp_path / "u.ildg")
    assert (tmp_path / "u.ildg").read_bytes() == before
    with pytest.raises(lq.LqcdError, match="format"):
        thermal.save(tmp_path / "u.milc", format="milc")


def test_single_precision_links_need_projection_before_a_64_bit_save(milc, tmp_path):
    with pytest.raises(lq.LqcdError, match="SU\\(3\\) only to"):
        milc.save(tmp_path / "m.ildg")
    assert not (tmp_path / "m.ildg").exists()
    v = milc.copy()
    v.reunitarize()
    v.save(tmp_path / "m.ildg")
    assert lq.load(tmp_path / "m.ildg").plaquette() == pytest.approx(milc.plaquette(), abs=1e-6)
    assert milc.plaquette() == pytest.approx(0.593560240433, abs=1e-8)  # the copy was projected, not milc


def test_links_round_trip_and_are_checked(thermal):
    links = thermal.links()
    v = lq.from_links(links)
    assert v.dims == (4, 4, 4, 4)
    assert v.plaquette() == thermal.plaquette()
    bad = links.copy()
    bad[0, 0, 0, 0, 1] *= 1.01
    with pytest.raises(lq.LqcdError, match="not SU\\(3\\)"):
        lq.from_links(bad)
    assert lq.unit((4, 4, 4, 8)).observables()["plaquette"] == 1.0


def test_observables_equal_lqcd_measure(milc):
    want = json.loads(lqcd("measure", "--json", MILC))
    got = milc.observables()
    for key in ("plaquette", "plaquette_spatial", "plaquette_temporal", "rectangle", "link_trace"):
        assert got[key] == pytest.approx(want[key], abs=1e-14), key
    assert got["polyakov_loop"] == pytest.approx(complex(*want["polyakov_loop"]), abs=1e-14)


@pytest.mark.parametrize("method,parameter,spatial", [("stout", 0.1, False), ("ape", 0.5, True), ("hyp", 0, False)])
def test_smearing_equals_lqcd_smear(milc, tmp_path, method, parameter, spatial):
    out = tmp_path / "s.openqcd"  # 64-bit output: lqcd smear projects the 32-bit input's links to SU(3) first
    opt = {"stout": ["--rho", parameter], "ape": ["--alpha", parameter], "hyp": []}[method]
    lqcd("smear", MILC, out, "--method", method, "--steps", 2, "--format", "openqcd", "--device", "cpu", *opt,
         *(["--spatial"] if spatial else []))
    projected = milc.copy()
    projected.reunitarize()
    got = projected.smear(method, steps=2, parameter=parameter, spatial=spatial)
    assert np.abs(got.links() - lq.load(out).links()).max() < 1e-13
    assert got.plaquette() > milc.plaquette()


def test_flow_equals_lqcd_flow(milc):
    want = json.loads(lqcd("flow", MILC, "--t-max", 0.2, "--every", 5, "--json", "--device", "cpu"))["history"]
    v = milc.copy()
    got = v.flow(t_max=0.2, epsilon=0.01, every=5)
    assert len(got["t"]) == len(want) == 5
    for k, row in enumerate(want):
        assert got["t"][k] == pytest.approx(row["t"], abs=1e-12)
        assert got["E_plaquette"][k] == pytest.approx(row["E_plaquette"], rel=1e-12)
        assert got["E_clover"][k] == pytest.approx(row["E_clover"], rel=1e-12)
        assert got["t2E"][k] == pytest.approx(row["t2E_clover"], rel=1e-12, abs=1e-15)
        assert got["Q"][k] == pytest.approx(row["Q"], abs=1e-12)
    assert v.plaquette() > milc.plaquette()  # flowed in place; milc itself untouched
    assert milc.plaquette() == pytest.approx(0.593560240433, abs=1e-8)


def test_open_boundary_file_flows_as_lqcd_flow(tmp_path):
    """An open lattice's openQCD file (lqcd heatbath, gauge.boundary = "open"): lq.load accepts its zero links and
    the flow is openQCD's, as lqcd flow's automatic choice makes it."""
    (tmp_path / "open.toml").write_text(
        '[lattice]\ndims = [4, 4, 4, 8]\n[gauge]\nboundary = "open"\n[heatbath]\nthermalization = 2\nsweeps = 2\n'
        '[output]\nprefix = "o"\nformat = "openqcd"\nsave_every = 2\n')
    lqcd("heatbath", "open.toml", "--quiet", "--device", "cpu", cwd=tmp_path)
    path = tmp_path / "o.000004.openqcd"
    want = json.loads(lqcd("flow", path, "--t-max", 0.1, "--every", 5, "--json", "--device", "cpu"))
    assert want["boundary"] == "open"
    got = lq.load(path).flow(t_max=0.1, epsilon=0.01, every=5)
    for k, row in enumerate(want["history"]):
        assert got["E_clover"][k] == pytest.approx(row["E_clover"], rel=1e-12)
        assert got["Q"][k] == pytest.approx(row["Q"], abs=1e-12)


def test_heatbath_equals_lqcd_heatbath(tmp_path):
    (tmp_path / "hb.toml").write_text(
        '[lattice]\ndims = [4, 4, 4, 8]\n[gauge]\nbeta = 5.8\naction = "symanzik"\n[heatbath]\nstart = "cold"\n'
        'seed = 99\nthermalization = 0\nsweeps = 4\noverrelaxation = 2\n[output]\nprefix = "hb"\n')
    lqcd("heatbath", "hb.toml", "--quiet", "--device", "cpu", cwd=tmp_path)
    records = [json.loads(line) for line in (tmp_path / "hb.jsonl").read_text().splitlines()]
    want = [r["plaquette"] for r in records if "sweep" in r and "plaquette" in r]
    assert len(want) == 4
    u = lq.unit((4, 4, 4, 8))
    for sweep, p in enumerate(want):
        u.heatbath(1, beta=5.8, overrelaxation=2, seed=99, action="symanzik", first_sweep=sweep)
        assert u.plaquette() == pytest.approx(p, abs=1e-13), sweep


HMC_TOML = """
[lattice]
dims = [4, 4, 4, 4]
[gauge]
beta = 5.6
[hmc]
start = "cold"
seed = 11
thermalization = 1
trajectories = 3
[integrator]
type = "omelyan2"
tau = 0.5
steps = [4, 2]
[[monomial]]
type = "gauge"
level = 1
[[monomial]]
type = "wilson"
level = 0
kappa = 0.12
[solver]
tolerance = 1e-12
[output]
prefix = "hmc"
"""


def test_hmc_trajectories_equal_lqcd_hmc(tmp_path):
    (tmp_path / "hmc.toml").write_text(HMC_TOML)
    lqcd("hmc", "hmc.toml", "--quiet", "--device", "cpu", cwd=tmp_path)
    records = [json.loads(line) for line in (tmp_path / "hmc.jsonl").read_text().splitlines()]
    want = [r for r in records if "dH" in r]
    assert len(want) == 4
    hmc = lq.Hmc(HMC_TOML)
    u = lq.unit((4, 4, 4, 4))
    for n, rec in enumerate(want):
        r = hmc.trajectory(u, n, metropolis=n >= 1)  # hmc.accept_thermalization: the first is always kept
        assert r["dH"] == pytest.approx(rec["dH"], rel=1e-9, abs=1e-12), n
        assert r["accepted"] == rec["accepted"], n
        assert u.plaquette() == pytest.approx(rec["plaquette"], abs=1e-12), n
    with pytest.raises(lq.LqcdError, match="integrator"):
        lq.Hmc(HMC_TOML.replace('type = "omelyan2"', 'type = "euler"'))


def random_spinor(dims, seed):
    rng = np.random.default_rng(seed)
    shape = lq.spinor_shape(dims)
    return rng.normal(size=shape) + 1j * rng.normal(size=shape)


def test_twisted_mass_adds_its_term(milc):
    psi = random_spinor(milc.dims, 2)
    kappa, mu = 0.16, 0.05
    wilson = lq.dirac_apply(milc, psi, {"action": "wilson", "kappa": kappa})
    assert np.abs(wilson - lq.wilson_apply(milc, kappa, psi)).max() < 1e-13
    tm = lq.dirac_apply(milc, psi, {"action": "twisted_mass", "kappa": kappa, "mu": mu})
    # M_tm = M_W + 2 i kappa mu gamma_5 (hopping form; docs/conventions.md)
    want = wilson + 2j * kappa * mu * np.einsum("st,...tc->...sc", GAMMA5, psi)
    assert np.abs(tm - want).max() < 1e-12 * np.abs(want).max()
    with pytest.raises(lq.LqcdError, match="fermion.action"):
        lq.dirac_apply(milc, psi, {"action": "overlap", "kappa": kappa})
    # NumPy scalars (np.linspace, arithmetic on arrays) are numbers in the TOML too
    numpy_kappa = lq.dirac_apply(milc, psi, {"action": "twisted_mass", "kappa": np.float64(kappa), "mu": np.float32(mu)})
    assert np.abs(numpy_kappa - lq.dirac_apply(milc, psi, {"action": "twisted_mass", "kappa": kappa,
                                                           "mu": float(np.float32(mu))})).max() == 0


@pytest.mark.parametrize("solver", [{"type": "bicgstab", "tolerance": 1e-10},
                                    {"type": "gcr", "tolerance": 1e-10},
                                    {"type": "cg", "tolerance": 1e-10, "precision": "single"}])
def test_solvers_reach_their_residual(milc, solver):
    clover = {"action": "clover", "kappa": 0.12, "csw": 1.0}
    b = random_spinor(milc.dims, 3)
    x, its, res = lq.dirac_solve(milc, b, clover, solver)
    r = b - lq.dirac_apply(milc, x, clover)
    assert np.linalg.norm(r) / np.linalg.norm(b) < 1e-10
    assert res == pytest.approx(np.linalg.norm(r) / np.linalg.norm(b), rel=1e-3)
    assert its > 5


def test_multigrid_solve(milc):
    clover = {"action": "clover", "kappa": 0.1330, "csw": 1.0}
    b = random_spinor(milc.dims, 4)
    x, its, res = lq.dirac_solve(milc, b, clover, {"type": "multigrid", "tolerance": 1e-10},
                                 {"block": [4, 4, 4, 4], "test_vectors": 8})
    r = b - lq.dirac_apply(milc, x, clover)
    assert np.linalg.norm(r) / np.linalg.norm(b) < 1e-10


def test_clover_pion_equals_lqcd_spectrum(milc, tmp_path):
    clover = {"action": "clover", "kappa": 0.12, "csw": 1.2}
    T = milc.dims[3]
    c = np.zeros(T)
    for spin in range(4):
        for colour in range(3):
            x, _, _ = lq.dirac_solve(milc, lq.point_source(milc.dims, (0, 0, 0, 0), spin, colour), clover,
                                     {"type": "bicgstab", "tolerance": 1e-12})
            c += (np.abs(x) ** 2).sum(axis=(1, 2, 3, 4, 5))
    (tmp_path / "p.toml").write_text(
        f'[gauge]\nconfig = "{MILC}"\n[fermion]\naction = "clover"\nkappa = 0.12\ncsw = 1.2\n'
        '[solver]\ntype = "bicgstab"\ntolerance = 1e-12\n[source]\ntype = "point"\nposition = [0, 0, 0, 0]\n'
        f'[output]\nprefix = "{tmp_path / "p"}"\n')
    pion = np.array(json.loads(lqcd("spectrum", tmp_path / "p.toml", "--json", "--device", "cpu"))["correlators"]["pion"])
    assert np.abs(c - pion).max() < 1e-10 * np.abs(pion).max()


def test_propagator_and_all_correlators_equal_lqcd_spectrum(milc, tmp_path):
    """All 16 Gamma-Gamma correlators and A0-P at two momenta, from Python's propagator and contraction,
    against lqcd spectrum's HDF5 file (twisted mass: no symmetry hides a sign or a conjugation)."""
    h5py = pytest.importorskip("h5py")
    quark = {"action": "twisted_mass", "kappa": 0.125, "mu": 0.02}
    source = (1, 2, 3, 5)
    S = lq.point_propagator(milc, source, quark, {"type": "bicgstab", "tolerance": 1e-12})
    (tmp_path / "s.toml").write_text(
        f'[gauge]\nconfig = "{MILC}"\n[fermion]\naction = "twisted_mass"\nkappa = 0.125\nmu = 0.02\n'
        '[solver]\ntype = "bicgstab"\ntolerance = 1e-12\n[source]\ntype = "point"\nposition = [1, 2, 3, 5]\n'
        f'[spectrum]\nmomenta = [[0, 0, 0], [1, 0, 0]]\n[output]\nprefix = "{tmp_path / "s"}"\n')
    lqcd("spectrum", tmp_path / "s.toml", "--quiet", "--device", "cpu")
    names = ["1", "gx", "gy", "gxgy", "gz", "gxgz", "gygz", "gxgygz", "gt", "gxgt", "gygt", "gxgygt", "gzgt", "gxgzgt",
             "gygzgt", "g5"]
    pairs = [(n, n) for n in names] + [("gtg5", "g5")]
    momenta = [(0, 0, 0), (1, 0, 0)]
    with h5py.File(tmp_path / "s.h5", "r") as f:
        for snk, src in pairs:
            g_snk = lq.GAMMA[3] @ lq.gamma("g5") if snk == "gtg5" else lq.gamma(snk)
            got = lq.meson_correlator(S, source, g_snk, src, momenta)
            for i, p in enumerate(momenta):
                raw = np.asarray(f[f"correlators/{snk}_{src}/p{p[0]}_{p[1]}_{p[2]}"])
                want = raw[:, 0] + 1j * raw[:, 1]
                assert np.abs(got[i] - want).max() < 1e-10 * np.abs(want).max(), (snk, src, p)
    with pytest.raises(ValueError, match="gamma"):
        lq.gamma("gq")



def test_device_fields_give_the_host_results(milc):
    """The same calls on a field held on the GPU (device=True) give the host's numbers."""
    if not lq.has_device():
        pytest.skip("no CUDA device")
    dev = lq.load(MILC, device=True)
    for key, value in milc.observables().items():
        assert dev.observables()[key] == pytest.approx(value, abs=1e-13), key
    assert np.abs(dev.smear("stout", 2, 0.1).links() - milc.smear("stout", 2, 0.1).links()).max() < 1e-13
    h_host, h_dev = milc.copy().flow(0.2, 0.01, 5), dev.copy().flow(0.2, 0.01, 5)
    for key in ("E_plaquette", "E_clover", "Q"):
        assert np.abs(h_dev[key] - h_host[key]).max() < 1e-11, key
    u_host, u_dev = lq.unit((4, 4, 4, 4)), lq.unit((4, 4, 4, 4), device=True)
    u_host.heatbath(2, beta=6.0, seed=5)
    u_dev.heatbath(2, beta=6.0, seed=5)
    assert u_dev.plaquette() == pytest.approx(u_host.plaquette(), abs=1e-12)
    clover = {"action": "clover", "kappa": 0.12, "csw": 1.0}
    psi = random_spinor(milc.dims, 6)
    assert np.abs(lq.dirac_apply(dev, psi, clover) - lq.dirac_apply(milc, psi, clover)).max() < 1e-12
    x, _, res = lq.dirac_solve(dev, psi, clover, {"type": "bicgstab", "tolerance": 1e-10})
    assert res < 1e-10
