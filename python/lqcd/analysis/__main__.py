"""python3 -m lqcd.analysis: reports with errors for lqcd's outputs.

  run FILE.jsonl [--therm N]
      every scalar observable of a heatbath/HMC history after thermalisation: mean, Gamma-method error,
      tau_int; acceptance and <exp(-dH)> for HMC.
  correlators FILE.h5 ... [--name g5_g5] [--momentum 0,0,0] [--fit T1,T2] [--states 1|2] [--bin B]
      the ensemble of lqcd spectrum outputs (one HDF5 file per configuration): folded correlator, cosh
      effective mass with jackknife errors, a correlated fit over [T1, T2] with chi^2/dof.
  gevp FILE.h5 --t0 T0
      the GEVP of a distillation correlator matrix (/distillation/C of lqcd distill): effective energies.
"""
import argparse
import sys

import numpy as np

from . import (analyse_run, correlated_fit, effective_mass, fold, gevp_effective_energies, jackknife, one_cosh,
               read_jsonl, two_exponentials)


def _run(a):
    results = analyse_run(read_jsonl(a.file), a.therm)
    if not results:
        sys.exit(f"{a.file}: no thermalised measurements with at least 4 records")
    print(f"{a.file}: Gamma-method errors (Wolff 2004), tau_int in units of the measurement spacing")
    for name, r in results.items():
        print(f"  {name:<28} {r.value:.10g} +- {r.error:.3g}   tau_int = {r.tau_int:.3g} +- {r.tau_int_error:.2g}"
              f"   (N = {r.n}, W = {r.window})")
    return 0


def _read_correlator(path, name, momentum):
    import h5py
    key = f"correlators/{name}/p{momentum[0]}_{momentum[1]}_{momentum[2]}"
    with h5py.File(path, "r") as f:
        if key not in f:
            sys.exit(f"{path}: no dataset /{key} (lqcd spectrum output expected)")
        return np.asarray(f[key])[:, 0]


def _correlators(a):
    momentum = [int(x) for x in a.momentum.split(",")]
    data = np.array([_read_correlator(p, a.name, momentum) for p in a.files])
    T = data.shape[1]
    folded = fold(data)
    value, error, _ = jackknife(folded, lambda c: effective_mass(c, "cosh", T), a.bin)
    print(f"{a.name} p = {tuple(momentum)}: {len(a.files)} configurations, T = {T}, cosh effective mass:")
    for t, (m, e) in enumerate(zip(value, error)):
        print(f"  t = {t:>3}: C = {folded.mean(axis=0)[t]:.6e}   m_eff = {m:.6f} +- {e:.6f}")
    if a.fit:
        t1, t2 = (int(x) for x in a.fit.split(","))
        t = np.arange(t1, t2 + 1)
        if a.states == 1:
            model, p0 = one_cosh(T), [folded.mean(axis=0)[t1] * np.exp(value[t1] * t1), value[t1]]
        else:
            model, p0 = two_exponentials, [folded.mean(axis=0)[t1] * np.exp(value[t1] * t1), value[t1], 0.1, 0.0]
        r = correlated_fit(model, t, folded[:, t1 : t2 + 1], p0, a.bin)
        print(f"  fit t = {t1}..{t2} ({a.states} state{'s' if a.states > 1 else ''}): m = {r.params[1]:.6f} +- "
              f"{r.errors[1]:.6f}, chi2/dof = {r.chi2:.2f}/{r.dof}")
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


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python3 -m lqcd.analysis", description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="command", required=True)
    r = sub.add_parser("run", help="a heatbath/HMC history (PREFIX.jsonl)")
    r.add_argument("file")
    r.add_argument("--therm", type=int, default=None, help="records to drop (default: those not marked thermalized)")
    c = sub.add_parser("correlators", help="lqcd spectrum HDF5 outputs, one per configuration")
    c.add_argument("files", nargs="+")
    c.add_argument("--name", default="g5_g5")
    c.add_argument("--momentum", default="0,0,0")
    c.add_argument("--fit", default=None, help="T1,T2: a correlated fit over this range")
    c.add_argument("--states", type=int, choices=(1, 2), default=1)
    c.add_argument("--bin", type=int, default=1)
    g = sub.add_parser("gevp", help="the correlator matrix of lqcd distill")
    g.add_argument("file")
    g.add_argument("--t0", type=int, default=1)
    a = ap.parse_args(argv)
    return {"run": _run, "correlators": _correlators, "gevp": _gevp}[a.command](a)


if __name__ == "__main__":
    sys.exit(main())
