"""The static potential V(R) and the Sommer scale r0/a from `lqcd measure --json --loops RMAX,TMAX` output.

Input: one JSON object per configuration with "wilson_loops" ([R-1][T-1], usually on spatially APE-smeared
links: --ape-steps) and, with --off-axis, "wilson_loops_off_axis" (lqcd measure --off-axis: W(r, T) at the
distances |r| of r = (a, b, c)). From the ensemble averages <W(R, T)>:
  V(R) a = log(<W(R, T)> / <W(R, T+1)>)                       at the chosen T (--t),
fitted for R in [--rmin, --rmax] by the Cornell form V(R) = A - e / R + sigma R (weighted least squares,
weights from the jackknife errors of V), and r0 from r^2 F(r) = 1.65 with F = dV/dR = e / R^2 + sigma
(R. Sommer, Nucl. Phys. B 411 (1994) 839):  r0/a = sqrt((1.65 - e) / sigma).
Errors: jackknife over bins of --bin consecutive configurations (the fit repeated on every sample).

    python3 -m lqcd.analysis static-potential FILE.jsonl [--t 4] [--rmin 2] [--rmax 6] [--bin 5] [--off-axis]
    scripts/static_potential.py FILE.jsonl [...]     (the same)
    scripts/static_potential.py --self-test          # synthetic loops with a known potential

Standard library only (no NumPy), so that scripts/static_potential.py runs with any python3.
"""
import argparse
import json
import math
import random
import sys

try:  # in the package, or loaded as a top-level module beside plain_jackknife.py (scripts/static_potential.py)
    from .plain_jackknife import jackknife_error
except ImportError:
    from plain_jackknife import jackknife_error


def potential(loops, t, rows):
    """V at the rows (indices into the averaged loops, each W[T-1] at one distance)."""
    return [math.log(loops[k][t - 1] / loops[k][t]) for k in rows]


def solve3(m, v):
    """Solves the 3x3 system m x = v (Cramer's rule)."""
    def det(a):
        return (a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1]) - a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0])
                + a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0]))
    d = det(m)
    out = []
    for c in range(3):
        mc = [row[:] for row in m]
        for r in range(3):
            mc[r][c] = v[r]
        out.append(det(mc) / d)
    return out


def cornell_fit(rs, vs, errs):
    """A, e, sigma of V = A - e/R + sigma R by weighted least squares (linear in the parameters)."""
    basis = [[1.0, -1.0 / r, float(r)] for r in rs]
    w = [1.0 / (s * s) for s in errs]
    m = [[sum(w[k] * basis[k][i] * basis[k][j] for k in range(len(rs))) for j in range(3)] for i in range(3)]
    v = [sum(w[k] * basis[k][i] * vs[k] for k in range(len(rs))) for i in range(3)]
    a, e, sigma = solve3(m, v)
    chi2 = sum(w[k] * (vs[k] - (a - e / rs[k] + sigma * rs[k])) ** 2 for k in range(len(rs)))
    return a, e, sigma, chi2


def r0_of(e, sigma, c=1.65):
    return math.sqrt((c - e) / sigma) if sigma > 0 and c > e else math.nan


def average(samples):
    n = len(samples)
    return [[sum(s[r][t] for s in samples) / n for t in range(len(samples[0][0]))] for r in range(len(samples[0]))]


def analyse(records, distances, t, rmin, rmax, binsize):
    """records: per configuration the loops W[T-1] at each of `distances` (same order)."""
    nb = len(records) // binsize
    if nb < 2:
        raise ValueError(f"need at least 2 bins of {binsize} configurations, have {len(records)}")
    records = records[: nb * binsize]
    rows = [k for k, d in enumerate(distances) if rmin - 1e-9 <= d <= rmax + 1e-9]
    rs = [distances[k] for k in rows]
    if rmax > max(distances) + 1e-9 or t + 1 > len(records[0][0]):
        raise ValueError(f"the loops reach R <= {max(distances):g}, T <= {len(records[0][0])}; "
                         f"asked for R up to {rmax} and T + 1 = {t + 1}")
    jack = [average(records[: b * binsize] + records[(b + 1) * binsize:]) for b in range(nb)]
    central = potential(average(records), t, rows)
    jv = [potential(j, t, rows) for j in jack]

    verr = [jackknife_error([j[k] for j in jv]) for k in range(len(rs))]
    fit = cornell_fit(rs, central, verr)
    jfits = [cornell_fit(rs, j, verr) for j in jv]
    r0 = r0_of(fit[1], fit[2])
    r0_err = jackknife_error([r0_of(f[1], f[2]) for f in jfits])
    errs = [jackknife_error([f[i] for f in jfits]) for i in range(3)]
    return rs, central, verr, fit, errs, r0, r0_err, nb


def report(records, distances, a):
    rs, v, verr, fit, errs, r0, r0_err, nb = analyse(records, distances, a.t, a.rmin, a.rmax, a.bin)
    print(f"static potential from {nb * a.bin} configurations ({nb} bins of {a.bin}); "
          f"V(R) a = log W(R,{a.t}) / W(R,{a.t + 1}){' (on- and off-axis)' if getattr(a, 'off_axis', False) else ''}")
    for r, x, s in zip(rs, v, verr):
        print(f"  R = {r:.4f}:  V a = {x:.6f} +- {s:.6f}")
    dof = len(rs) - 3
    print(f"  Cornell fit R = {a.rmin}..{a.rmax} ({len(rs)} distances): A = {fit[0]:.5f}({errs[0]:.5f}), e = {fit[1]:.5f}({errs[1]:.5f}), "
          f"sigma a^2 = {fit[2]:.5f}({errs[2]:.5f}), chi2/dof = {fit[3]:.2f}/{dof}")
    print(f"  r0/a = {r0:.4f} +- {r0_err:.4f}   (r^2 F(r0) = 1.65)")
    return r0, r0_err


def self_test():
    """Loops W(R, T) = c(R) exp(-V(R) T) of a known Cornell potential (A, e, sigma) with 0.1% noise on
    each configuration: the fit must return them, and r0 within its error (and within 1%)."""
    A, e, sigma = 0.62, 0.28, 0.048
    rng = random.Random(5)
    # On-axis R = 1..8 and the off-axis distances sqrt(a^2 + b^2 + c^2) of a >= b >= 1.
    distances = [float(r) for r in range(1, 9)]
    distances += sorted({math.sqrt(a * a + b * b + c * c) for a in range(1, 8) for b in range(1, a + 1)
                         for c in range(0, b + 1) if a * a + b * b + c * c <= 49})
    records = []
    for _ in range(40):
        records.append([[0.9 ** r * math.exp(-(A - e / r + sigma * r) * t) * (1 + 0.001 * rng.gauss(0, 1))
                         for t in range(1, 9)] for r in distances])
    exact = r0_of(e, sigma)
    ok = True
    for n in (8, len(distances)):
        args = argparse.Namespace(t=3, rmin=2, rmax=7, bin=4, off_axis=n > 8)
        r0, r0_err = report([rec[:n] for rec in records], distances[:n], args)
        ok = ok and abs(r0 - exact) < max(3 * r0_err, 1e-9) and abs(r0 - exact) < 0.01 * exact
    print(f"self-test: exact r0/a = {exact:.4f}: {'ok' if ok else 'FAILED'}")
    return 0 if ok else 1


def read_loops(path, off_axis=False):
    """(records, distances) of lqcd measure --json --loops output: per configuration the loops W[T-1] at each
    distance, the on-axis R = 1, 2, ... first, then (off_axis) those of "wilson_loops_off_axis"."""
    records, distances = [], None
    with open(path) as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                j = json.loads(line)
                rows = list(j["wilson_loops"])
                d = [float(r) for r in range(1, len(rows) + 1)]
                if off_axis:
                    for o in j["wilson_loops_off_axis"]:
                        rows.append(o["W"])
                        d.append(o["distance"])
            except (ValueError, KeyError, TypeError) as err:
                raise ValueError(f"{path}:{n}: expected a JSON object with \"wilson_loops\" (lqcd measure --json "
                                 f"--loops{' --off-axis' if off_axis else ''}): {err!r}") from None
            if distances is not None and d != distances:
                raise ValueError(f"{path}:{n}: the loops' distances differ from the first record's")
            distances = d
            records.append(rows)
    if not records:
        raise ValueError(f"{path}: no records")
    return records, distances


def main(argv=None):
    ap = argparse.ArgumentParser(prog="static_potential", description=__doc__.splitlines()[0])
    ap.add_argument("file", nargs="?")
    ap.add_argument("--t", type=int, default=4, help="T of V(R) = log W(R,T)/W(R,T+1)")
    ap.add_argument("--rmin", type=int, default=2)
    ap.add_argument("--rmax", type=int, default=6)
    ap.add_argument("--bin", type=int, default=5)
    ap.add_argument("--off-axis", action="store_true", help="fit the off-axis distances as well")
    ap.add_argument("--self-test", action="store_true")
    a = ap.parse_args(argv)
    if a.self_test:
        return self_test()
    if not a.file:
        ap.error("FILE.jsonl is required (or --self-test)")
    if a.rmax - a.rmin < 3:
        ap.error("--rmin..--rmax must hold at least 4 distances for a 3-parameter fit")
    try:
        records, distances = read_loops(a.file, a.off_axis)
        report(records, distances, a)
    except (OSError, ValueError, ZeroDivisionError) as err:
        sys.exit(f"static_potential: {err}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
