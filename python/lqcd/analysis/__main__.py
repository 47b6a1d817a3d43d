"""python3 -m lqcd.analysis: reports with errors for lqcd's outputs.

  run FILE.jsonl [--therm N]
      every scalar observable of a heatbath/HMC history after thermalisation: mean, Gamma-method error,
      tau_int; acceptance and <exp(-dH)> for HMC.
  plot FILE.jsonl [--observables plaquette,dH] [--therm N] [--format png|pdf]
      FILE.<observable>.history.png (history and histogram with the mean and its error) and
      FILE.<observable>.autocorrelation.png for each observable (default: plaquette, and dH when present).
  correlators FILE.h5 ... [--name g5_g5 | nucleon | delta | ...] [--momentum 0,0,0] [--fit T1,T2] [--states 1|2] [--bin B] [--plot OUT.png]
      the ensemble of lqcd spectrum outputs (one HDF5 file per configuration): folded correlator, cosh
      effective mass with jackknife errors, a correlated fit over [T1, T2] with chi^2/dof; --plot draws the
      effective masses with the fitted mass as a band.
  three-point FILE.h5 ... --current NAME[-NAME] --two-point NAME --sink-time TS [--plateau T1,T2] [--bin B] [--scale Z]
      the ratio R(tau) = C3(tau) / C2(t_s) of lqcd spectrum's three-point datasets over the ensemble (one
      HDF5 file per configuration; the ratio of the averages, jackknife errors), e.g. the nucleon's g_A as
      u - d: --current nucleon_3pt_polarised_z_u_gxgygt_ts10-nucleon_3pt_polarised_z_d_gxgygt_ts10
      --two-point nucleon_Pplus --sink-time 10; --plateau averages R over T1..T2, --scale multiplies it
      (a renormalisation constant).
  gevp FILE.h5 --t0 T0
      the GEVP of a distillation correlator matrix (/distillation/C of lqcd distill): effective energies.
  flow-scales FILE.jsonl [--bin 5] [--reference 0.3]
      t0/a^2 and w0/a of an ensemble of lqcd flow --json records, jackknife errors (= scripts/flow_scales.py).
  static-potential FILE.jsonl [--t 4] [--rmin 2] [--rmax 6] [--bin 5] [--off-axis] | --self-test
      V(R) and r0/a from lqcd measure --json --loops records (= scripts/static_potential.py).
"""
import argparse
import sys

import numpy as np

from . import flow_scales, static_potential
from . import (analyse_run, correlated_fit, effective_mass, fold, fold_baryon, gamma_method, gevp_effective_energies,
               jackknife, jackknife_error, one_cosh, one_exponential, read_jsonl, run_series, two_exponentials)


def _run(a):
    results = analyse_run(read_jsonl(a.file), a.therm)
    if not results:
        sys.exit(f"{a.file}: no thermalised measurements with at least 4 records")
    print(f"{a.file}: Gamma-method errors (Wolff 2004), tau_int in units of the measurement spacing")
    for name, r in results.items():
        print(f"  {name:<28} {r.value:.10g} +- {r.error:.3g}   tau_int = {r.tau_int:.3g} +- {r.tau_int_error:.2g}"
              f"   (N = {r.n}, W = {r.window})")
    return 0


def _plot(a):
    from .plots import autocorrelation_plot, history_plot
    series = run_series(read_jsonl(a.file), a.therm)
    names = a.observables.split(",") if a.observables else [n for n in ("plaquette", "dH") if n in series]
    stem = a.file[: -len(".jsonl")] if a.file.endswith(".jsonl") else a.file
    for name in names:
        if name not in series:
            sys.exit(f"{a.file}: no thermalised series \"{name}\" (have: {', '.join(series) or 'none'})")
        result = gamma_method(series[name])
        for kind, draw in (("history", lambda p: history_plot(series[name], result, name, p)),
                           ("autocorrelation", lambda p: autocorrelation_plot(result, name, p))):
            path = f"{stem}.{name}.{kind}.{a.format}"
            draw(path)
            print(f"wrote {path}")
    return 0


def _read_correlator(path, name, momentum):
    import h5py
    key = f"correlators/{name}/p{momentum[0]}_{momentum[1]}_{momentum[2]}"
    with h5py.File(path, "r") as f:
        if key not in f:
            sys.exit(f"{path}: no dataset /{key} (lqcd spectrum output expected)")
        return np.asarray(f[key])[:, 0]


def _is_baryon(path, name, momentum):
    import h5py
    with h5py.File(path, "r") as f:
        return f"correlators/{name}_Pplus/p{momentum[0]}_{momentum[1]}_{momentum[2]}" in f


def _correlators(a):
    momentum = [int(x) for x in a.momentum.split(",")]
    # A baryon (lqcd spectrum's NAME_Pplus, NAME_Pminus): the parity partners folded together, the log
    # effective mass and a one-exponential fit (its backward state is the other parity's).
    baryon = _is_baryon(a.files[0], a.name, momentum)
    if baryon:
        plus = np.array([_read_correlator(p, a.name + "_Pplus", momentum) for p in a.files])
        minus = np.array([_read_correlator(p, a.name + "_Pminus", momentum) for p in a.files])
        T = plus.shape[1]
        folded = fold_baryon(plus, minus)
        kind = "log"
    else:
        data = np.array([_read_correlator(p, a.name, momentum) for p in a.files])
        T = data.shape[1]
        folded = fold(data)
        kind = "cosh"
    value, error, _ = jackknife(folded, lambda c: effective_mass(c, kind, T), a.bin)
    print(f"{a.name} p = {tuple(momentum)}: {len(a.files)} configurations, T = {T}, {kind} effective mass"
          f"{' (C+(t) and -C-(T-t) averaged)' if baryon else ''}:")
    for t, (m, e) in enumerate(zip(value, error)):
        print(f"  t = {t:>3}: C = {folded.mean(axis=0)[t]:.6e}   m_eff = {m:.6f} +- {e:.6f}")
    if a.fit:
        t1, t2 = (int(x) for x in a.fit.split(","))
        t = np.arange(t1, t2 + 1)
        if a.states == 1:
            model = one_exponential if baryon else one_cosh(T)
            p0 = [folded.mean(axis=0)[t1] * np.exp(value[t1] * t1), value[t1]]
        else:
            model, p0 = two_exponentials, [folded.mean(axis=0)[t1] * np.exp(value[t1] * t1), value[t1], 0.1, 0.0]
        r = correlated_fit(model, t, folded[:, t1 : t2 + 1], p0, a.bin, correlated=not a.uncorrelated)
        print(f"  fit t = {t1}..{t2} ({a.states} state{'s' if a.states > 1 else ''}"
              f"{', uncorrelated' if a.uncorrelated else ''}): m = {r.params[1]:.6f} +- "
              f"{r.errors[1]:.6f}, chi2/dof = {r.chi2:.2f}/{r.dof}")
    if a.plot:
        from .plots import effective_mass_plot
        fit = (r.params[1], r.errors[1]) if a.fit else None
        effective_mass_plot(value, error, f"{a.name} p = {tuple(momentum)}", fit, (t1, t2) if a.fit else None, a.plot)
        print(f"wrote {a.plot}")
    return 0


def _three_point(a):
    # NAME or NAME-NAME (a difference, e.g. the isovector u - d): each term one dataset per file.
    terms = a.current.split("-")
    momentum = [0, 0, 0]
    c3 = sum((1 if k == 0 else -1) * np.array([_read_correlator(p, name, momentum) for p in a.files])
             for k, name in enumerate(terms))
    c2 = np.array([_read_correlator(p, a.two_point, momentum) for p in a.files])
    T = c3.shape[1]
    if not 0 < a.sink_time < c2.shape[1]:
        sys.exit(f"--sink-time {a.sink_time}: expected 1..{c2.shape[1] - 1}")
    data = np.concatenate([c3, c2[:, a.sink_time : a.sink_time + 1]], axis=1)
    ratio, error, samples = jackknife(data, lambda m: m[:T] / m[T], a.bin)
    print(f"{a.current} / {a.two_point}(t_s = {a.sink_time}): {len(a.files)} configurations, ratio of the "
          f"averages, binned jackknife (bin {a.bin})")
    for t in range(a.sink_time + 1):
        print(f"  tau = {t:>3}: R = {ratio[t]:.6f} +- {error[t]:.6f}")
    if a.plateau:
        t1, t2 = (int(x) for x in a.plateau.split(","))
        if not 0 <= t1 <= t2 <= a.sink_time:
            sys.exit(f"--plateau {a.plateau}: expected 0 <= T1 <= T2 <= {a.sink_time}")
        mean = a.scale * ratio[t1 : t2 + 1].mean()
        err = a.scale * jackknife_error(samples[:, t1 : t2 + 1].mean(axis=1))
        scaled = f" (times {a.scale})" if a.scale != 1 else ""
        print(f"  plateau tau = {t1}..{t2}{scaled}: {mean:.6f} +- {err:.6f}")
    return 0


def _gevp(a):
    import h5py
    with h5py.File(a.file, "r") as f:
        if "distillation/C" not in f:
            sys.exit(f"{a.file}: no dataset /distillation/C (lqcd distill output expected)")
        raw = np.asarray(f["distillation/C"])
    c = raw[..., 0] + 1j * raw[..., 1]
    e = gevp_effective_energies(c, a.t0)
    print(f"{a.file}: GEVP effective energies E_n(t) = log(lambda_n(t)/lambda_n(t+1)), t0 = {a.t0}")
    for t, row in enumerate(e):
        print(f"  t = {t:>3}: " + " ".join(f"{x:10.6f}" for x in row))
    return 0


# Subcommands with their own command line (each module's main, as the scripts/ wrappers call it).
_FORWARDED = {"flow-scales": flow_scales.main, "static-potential": static_potential.main}


def main(argv=None):
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv and argv[0] in _FORWARDED:
        return _FORWARDED[argv[0]](argv[1:])
    ap = argparse.ArgumentParser(prog="python3 -m lqcd.analysis", description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="command", required=True)
    r = sub.add_parser("run", help="a heatbath/HMC history (PREFIX.jsonl)")
    r.add_argument("file")
    r.add_argument("--therm", type=int, default=None, help="records to drop (default: those not marked thermalized)")
    p = sub.add_parser("plot", help="history, histogram and autocorrelation plots of a run")
    p.add_argument("file")
    p.add_argument("--observables", default=None, help="comma-separated (default: plaquette, and dH when present)")
    p.add_argument("--therm", type=int, default=None)
    p.add_argument("--format", choices=("png", "pdf"), default="png")
    c = sub.add_parser("correlators", help="lqcd spectrum HDF5 outputs, one per configuration")
    c.add_argument("files", nargs="+")
    c.add_argument("--name", default="g5_g5")
    c.add_argument("--momentum", default="0,0,0")
    c.add_argument("--fit", default=None, help="T1,T2: a correlated fit over this range")
    c.add_argument("--states", type=int, choices=(1, 2), default=1)
    c.add_argument("--bin", type=int, default=1)
    c.add_argument("--uncorrelated", action="store_true",
                   help="fit with the diagonal of the covariance only (when too few configurations make the "
                        "covariance ill-determined)")
    c.add_argument("--plot", default=None, help="OUT.png|pdf: effective masses and the fit band")
    t = sub.add_parser("three-point", help="ratios of lqcd spectrum's three-point to two-point functions")
    t.add_argument("files", nargs="+")
    t.add_argument("--current", required=True, help="a three-point dataset, or NAME-NAME for a difference")
    t.add_argument("--two-point", required=True, help="the two-point dataset, e.g. nucleon_Pplus or g5_g5")
    t.add_argument("--sink-time", type=int, required=True)
    t.add_argument("--plateau", default=None, help="T1,T2: the average of R over this range")
    t.add_argument("--scale", type=float, default=1.0, help="a factor for the plateau (e.g. Z_A)")
    t.add_argument("--bin", type=int, default=1)
    g = sub.add_parser("gevp", help="the correlator matrix of lqcd distill")
    g.add_argument("file")
    g.add_argument("--t0", type=int, default=1)
    for name, module in (("flow-scales", flow_scales), ("static-potential", static_potential)):
        sub.add_parser(name, add_help=False, help=module.__doc__.splitlines()[0])  # dispatched above
    a = ap.parse_args(argv)
    try:
        return {"run": _run, "plot": _plot, "correlators": _correlators, "three-point": _three_point,
                "gevp": _gevp}[a.command](a)
    except (OSError, ValueError, KeyError) as e:  # one line naming the file, as lqcd's own errors
        sys.exit(f"lqcd.analysis {a.command}: error: {e}")


if __name__ == "__main__":
    sys.exit(main())
