"""lqcd.analysis against known answers on synthetic data (issue 31): the Gamma method on AR(1) series
(exact tau_int and error), the jackknife on independent data, folding and effective masses of exact
correlators, correlated fits of one and two exponentials with known masses, the GEVP of a matrix built
from known energies, and a run's history."""
import json

import numpy as np
import pytest

from lqcd.analysis import (analyse_run, correlated_fit, effective_mass, fold, gamma_method, gevp_effective_energies,
                           jackknife, one_cosh, one_exponential, read_jsonl, two_exponentials)


def ar1(rho, n, seed, sigma=1.0):
    """x_t = rho x_{t-1} + sqrt(1 - rho^2) sigma eta_t: stationary, variance sigma^2, autocorrelation rho^|t|,
    tau_int = (1 + rho) / (2 (1 - rho)) (Wolff 2004, section 5)."""
    rng = np.random.default_rng(seed)
    eta = rng.normal(size=n)
    x = np.empty(n)
    x[0] = sigma * eta[0]
    c = np.sqrt(1 - rho * rho) * sigma
    for t in range(1, n):
        x[t] = rho * x[t - 1] + c * eta[t]
    return x


@pytest.mark.parametrize("rho", [0.0, 0.5, 0.9])
def test_gamma_method_gives_the_ar1_tau_int_and_error(rho):
    n = 200_000
    r = gamma_method(ar1(rho, n, seed=7))
    exact_tau = (1 + rho) / (2 * (1 - rho))
    assert abs(r.tau_int - exact_tau) < 3 * r.tau_int_error + 1e-3, (r, exact_tau)
    exact_error = np.sqrt(2 * exact_tau / n)  # variance 1
    assert abs(r.error / exact_error - 1) < 0.1, (r.error, exact_error)
    assert abs(r.value) < 4 * exact_error


def test_gamma_method_errors_cover_the_truth_over_many_series():
    # 40 independent AR(1) series of rho = 0.8 (tau_int = 4.5): |mean| / error is below 2 in ~95% of them.
    covered = sum(abs(r.value) < 2 * r.error for r in (gamma_method(ar1(0.8, 4000, seed=s)) for s in range(40)))
    assert covered >= 33


def test_gamma_method_of_a_derived_quantity():
    # f = <a> / <b> of independent series with known means: error by linear propagation.
    rng = np.random.default_rng(3)
    n = 50_000
    a, b = 2.0 + 0.1 * rng.normal(size=n), 4.0 + 0.2 * rng.normal(size=n)
    r = gamma_method(np.column_stack([a, b]), lambda m: m[0] / m[1])
    expected = 0.5 * np.sqrt((0.1 / 2) ** 2 + (0.2 / 4) ** 2) / np.sqrt(n)
    assert abs(r.value - 0.5) < 4 * expected
    assert abs(r.error / expected - 1) < 0.1
    assert abs(r.tau_int - 0.5) < 3 * r.tau_int_error + 0.02


def test_jackknife_of_the_mean_is_the_standard_error():
    x = np.random.default_rng(1).normal(size=1000)
    value, error, _ = jackknife(x)
    assert value == pytest.approx(x.mean(), abs=1e-15)
    assert error == pytest.approx(x.std(ddof=1) / np.sqrt(len(x)), rel=1e-12)


def test_fold_and_effective_masses_of_exact_correlators():
    T, m = 24, 0.37
    t = np.arange(T)
    c = np.exp(-m * t) + np.exp(-m * (T - t))
    folded = fold(c)
    assert folded == pytest.approx(c[: T // 2 + 1], rel=1e-14)
    assert effective_mass(folded, "cosh", T)[:-1] == pytest.approx(np.full(T // 2 - 1, m), rel=1e-9)
    single = 0.8 * np.exp(-m * t)
    assert effective_mass(single) == pytest.approx(np.full(T - 1, m), rel=1e-12)
    with pytest.raises(ValueError):
        fold(np.ones(7))


def noisy_correlators(model, p, t, n, seed, noise=0.002, rho=0.6):
    """n correlators around model(t, p): multiplicative noise correlated between neighbouring t."""
    rng = np.random.default_rng(seed)
    k = len(t)
    cov = np.array([[rho ** abs(i - j) for j in range(k)] for i in range(k)]) * noise ** 2
    eps = rng.multivariate_normal(np.zeros(k), cov, size=n)
    return model(t, p) * (1 + eps)


def test_one_state_fit_returns_the_mass():
    t = np.arange(4, 15)
    data = noisy_correlators(one_exponential, [1.3, 0.45], t, 200, seed=11)
    r = correlated_fit(one_exponential, t, data, [1.0, 0.4], binsize=2)
    assert abs(r.params[1] - 0.45) < 3 * r.errors[1]
    assert r.errors[1] < 0.01
    assert r.chi2_per_dof < 3


def test_two_state_fit_returns_both_masses():
    t = np.arange(1, 16)
    m0, m1 = 0.3, 0.8
    p = [1.0, m0, 0.6, np.log(m1 - m0)]
    data = noisy_correlators(two_exponentials, p, t, 400, seed=5, noise=0.001)
    r = correlated_fit(two_exponentials, t, data, [0.9, 0.25, 0.5, np.log(0.4)], binsize=2)
    fitted_m1 = r.params[1] + np.exp(r.params[3])
    m1_err = np.sqrt(r.errors[1] ** 2 + (np.exp(r.params[3]) * r.errors[3]) ** 2)
    assert abs(r.params[1] - m0) < 3 * r.errors[1]
    assert abs(fitted_m1 - m1) < 3 * m1_err + 1e-3
    assert r.dof == len(t) - 4


def test_cosh_fit_on_a_periodic_lattice():
    T = 32
    t = np.arange(5, 17)
    model = one_cosh(T)
    data = noisy_correlators(model, [0.02, 0.21], t, 100, seed=2)
    r = correlated_fit(model, t, data, [0.01, 0.2])
    assert abs(r.params[1] - 0.21) < 3 * r.errors[1]


def test_gevp_returns_the_energies_of_a_synthetic_matrix():
    # C_ij(t) = sum_n Z_in Z_jn exp(-E_n t): the GEVP's effective energies are E_n at every t (t > t0 and
    # t < t0), ground state first.
    energies = np.array([0.35, 0.7, 1.2])
    z = np.array([[1.0, 0.4, 0.2], [0.5, 1.1, -0.3], [0.2, -0.6, 0.9]])
    c = np.array([(z * np.exp(-energies * t)) @ z.T for t in range(12)])
    for t0 in (1, 3):
        e = gevp_effective_energies(c, t0)
        assert e == pytest.approx(np.tile(energies, (11, 1)), rel=1e-9)


def test_run_history_with_known_autocorrelation(tmp_path):
    # A run history written as lqcd hmc writes it: thermalised records are analysed, the others not.
    plaquette = 0.59 + 0.001 * ar1(0.5, 20_000, seed=9)
    dh = np.random.default_rng(4).normal(0.0, 0.3, size=20_000)
    path = tmp_path / "run.jsonl"
    with open(path, "w") as f:
        for k in range(100):
            f.write(json.dumps({"trajectory": k, "thermalized": False, "plaquette": 0.0, "dH": 5.0}) + "\n")
        for k, (p, d) in enumerate(zip(plaquette, dh)):
            f.write(json.dumps({"trajectory": 100 + k, "thermalized": True, "plaquette": p, "dH": d,
                                "exp_minus_dH": float(np.exp(-d)), "accepted": bool(k % 4), "seconds": 1.0}) + "\n")
    results = analyse_run(read_jsonl(path))
    assert "seconds" not in results and "trajectory" not in results
    assert results["plaquette"].n == 20_000
    assert abs(results["plaquette"].tau_int - 1.5) < 3 * results["plaquette"].tau_int_error
    assert results["accepted"].value == pytest.approx(0.75)
    assert abs(results["plaquette"].value - 0.59) < 4 * results["plaquette"].error


def test_a_broken_history_names_the_line(tmp_path):
    path = tmp_path / "bad.jsonl"
    path.write_text('{"plaquette": 0.5}\nnot json\n')
    with pytest.raises(ValueError, match=r"bad.jsonl:2"):
        read_jsonl(path)


def test_plots_show_the_data_and_the_error_bands(tmp_path):
    from lqcd.analysis.plots import autocorrelation_plot, effective_mass_plot, history_plot
    series = 0.6 + 0.01 * ar1(0.7, 5000, seed=12)
    r = gamma_method(series)
    fig = history_plot(series, r, "plaquette", tmp_path / "h.png")
    ax = fig.axes[0]
    assert np.array_equal(ax.lines[0].get_ydata(), series)
    band = ax.collections[0].get_paths()[0].vertices[:, 1]  # the mean +- error band
    assert band.min() == pytest.approx(r.value - r.error) and band.max() == pytest.approx(r.value + r.error)
    assert (tmp_path / "h.png").read_bytes()[:4] == b"\x89PNG"
    fig = autocorrelation_plot(r, "plaquette", tmp_path / "a.pdf")
    assert np.allclose(fig.axes[0].lines[0].get_ydata(), r.gamma)
    assert (tmp_path / "a.pdf").read_bytes()[:4] == b"%PDF"
    fig = effective_mass_plot(np.array([0.5, 0.41, 0.4, np.nan]), np.array([0.01, 0.01, 0.02, np.nan]), "pion",
                              fit=(0.4, 0.005), fit_range=(1, 2))
    verts = fig.axes[0].collections[-1].get_paths()[0].vertices
    assert verts[:, 1].min() == pytest.approx(0.395) and verts[:, 1].max() == pytest.approx(0.405)


def test_three_point_ratio_returns_the_charge_of_synthetic_correlators(tmp_path, capsys):
    """u - d of C3 built as g C2(t_s) (plus noise) over the ensemble: the plateau is g; the two-point
    function's noise enters through the ratio of the averages."""
    h5py = pytest.importorskip("h5py")
    from lqcd.analysis.__main__ import main
    rng = np.random.default_rng(3)
    T, ts, g_u, g_d = 16, 6, 1.5, 0.25
    files = []
    for k in range(40):
        c2 = np.exp(-0.7 * np.arange(T)) * (1 + 0.01 * rng.normal())
        with h5py.File(tmp_path / f"c{k}.h5", "w") as f:
            for name, g in (("n3_u", g_u), ("n3_d", g_d)):
                c3 = np.zeros((T, 2))
                c3[: ts + 1, 0] = g * c2[ts] * (1 + 0.02 * rng.normal(size=ts + 1))
                f[f"correlators/{name}/p0_0_0"] = c3
            f["correlators/n2/p0_0_0"] = np.stack([c2, np.zeros(T)], axis=1)
        files.append(str(tmp_path / f"c{k}.h5"))
    assert main(["three-point", *files, "--current", "n3_u-n3_d", "--two-point", "n2", "--sink-time", str(ts),
                 "--plateau", "2,4", "--scale", "2"]) == 0
    line = [x for x in capsys.readouterr().out.splitlines() if "plateau" in x][0]
    value, error = (float(x) for x in line.split(":")[1].split("+-"))
    assert 0 < error < 0.02
    assert abs(value - 2 * (g_u - g_d)) < 4 * error
