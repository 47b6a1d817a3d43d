#!/usr/bin/env python3
"""t0/a^2 and w0/a of an ensemble from `lqcd flow --json` output (one object per configuration).

The scales are defined on the ensemble average (M. Luscher, JHEP 1008 (2010) 071: <t^2 E(t0)> = 0.3;
BMW, JHEP 1209 (2012) 010: t d/dt <t^2 E>(w0^2) = 0.3), so <t^2 E(t)> (clover E) is averaged over the
configurations on their common flow times, the crossings found by linear interpolation (W from the
difference quotient of neighbouring times, at their mid time), and the errors estimated by the
jackknife over bins of BIN consecutive configurations. Also: <Q^2> at the flow time nearest t0, and how far
Q lies from the nearest integer there and at the end of the flow (<|Q - round Q|>, the clover charge and,
when the flow measured it (lqcd flow --improved-charge), the O(a^2)-improved one).

    scripts/flow_scales.py FILE.jsonl [--bin 5] [--reference 0.3]
"""
import argparse
import json
import math


def crossing(ts, ys, ref):
    for k in range(1, len(ts)):
        if ys[k - 1] < ref <= ys[k]:
            return ts[k - 1] + (ref - ys[k - 1]) / (ys[k] - ys[k - 1]) * (ts[k] - ts[k - 1])
    return math.nan


def scales(curves, ref):
    n = len(curves)
    ts = [t for t, _ in curves[0]]
    mean = [sum(c[k][1] for c in curves) / n for k in range(len(ts))]
    t0 = crossing(ts, mean, ref)
    mids = [(ts[k] + ts[k - 1]) / 2 for k in range(1, len(ts))]
    w = [mids[k - 1] * (mean[k] - mean[k - 1]) / (ts[k] - ts[k - 1]) for k in range(1, len(ts))]
    w0sq = crossing(mids, w, ref)
    return t0, math.sqrt(w0sq) if w0sq == w0sq else math.nan


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("file")
    ap.add_argument("--bin", type=int, default=5)
    ap.add_argument("--reference", type=float, default=0.3)
    a = ap.parse_args()
    records = [json.loads(line) for line in open(a.file) if line.strip()]
    length = min(len(r["history"]) for r in records)
    curves = [[(h["t"], h["t2E_clover"]) for h in r["history"][:length]] for r in records]
    charges = [[h["Q"] for h in r["history"][:length]] for r in records]
    nb = len(curves) // a.bin
    curves, charges = curves[: nb * a.bin], charges[: nb * a.bin]
    t0, w0 = scales(curves, a.reference)
    jack = [scales(curves[: b * a.bin] + curves[(b + 1) * a.bin:], a.reference) for b in range(nb)]
    def err(i, centre):
        m = sum(j[i] for j in jack) / nb
        return math.sqrt((nb - 1) / nb * sum((j[i] - m) ** 2 for j in jack))
    ts = [t for t, _ in curves[0]]
    k0 = min(range(len(ts)), key=lambda k: abs(ts[k] - t0)) if t0 == t0 else len(ts) - 1
    q2 = sum(q[k0] ** 2 for q in charges) / len(charges)
    print(f"{len(curves)} configurations (bins of {a.bin}), flow to t = {ts[-1]:.3f}: "
          f"t0/a^2 = {t0:.4f} +- {err(0, t0):.4f}, w0/a = {w0:.4f} +- {err(1, w0):.4f}, "
          f"<Q^2> at t = {ts[k0]:.2f}: {q2:.3f}")
    used = records[: nb * a.bin]
    for key, name in (("Q", "clover"), ("Q_improved", "improved")):
        if not all(key in r["history"][0] for r in used):
            continue
        for k in (k0, length - 1):
            qs = [r["history"][k][key] for r in used]
            off = sum(abs(q - round(q)) for q in qs) / len(qs)
            print(f"  {name} Q at t = {ts[k]:.2f}: <|Q - round Q|> = {off:.4f} "
                  f"(max {max(abs(q - round(q)) for q in qs):.4f}), <Q^2> = {sum(q * q for q in qs) / len(qs):.3f}")


if __name__ == "__main__":
    main()
