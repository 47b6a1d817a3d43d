"""t0/a^2 and w0/a of an ensemble from `lqcd flow --json` output (one object per configuration).

The scales are defined on the ensemble average (M. Luscher, JHEP 1008 (2010) 071: <t^2 E(t0)> = 0.3;
BMW, JHEP 1209 (2012) 010: t d/dt <t^2 E>(w0^2) = 0.3), so <t^2 E(t)> (clover E) is averaged over the
configurations on their common flow times, the crossings found by linear interpolation (W from the
difference quotient of neighbouring times, at their mid time: lqcd's own flow_scales, called through its C
interface, docs/conventions.md), and the errors estimated by the jackknife over bins of BIN consecutive
configurations. Also: <Q^2> at the flow time nearest t0, and how far Q lies from the nearest integer there
and at the end of the flow (<|Q - round Q|>, the clover charge and, when the flow measured it (lqcd flow
--improved-charge), the O(a^2)-improved one).

    python3 -m lqcd.analysis flow-scales FILE.jsonl [--bin 5] [--reference 0.3]
    scripts/flow_scales.py FILE.jsonl [--bin 5] [--reference 0.3]      (the same)

Standard library only (no NumPy; the crossings from liblqcd_capi.so through ctypes), so that
scripts/flow_scales.py runs with any python3.
"""
import argparse
import math
import sys
from dataclasses import dataclass, field

try:  # in the package, or loaded as a top-level module beside jsonl.py (scripts/flow_scales.py, no NumPy)
    from .jsonl import read_jsonl
    from .native import flow_scales as native_flow_scales
    from .plain_jackknife import jackknife_error
except ImportError:
    from jsonl import read_jsonl
    from native import flow_scales as native_flow_scales
    from plain_jackknife import jackknife_error


def scales(ts, curves, ref=0.3):
    """(t0/a^2, w0/a) of the average of the t^2 E curves (each a list over the common times ts): the
    crossings of lqcd's own flow_scales (gauge/gradient_flow.hpp, through lqcd.analysis.native)."""
    n = len(curves)
    mean = [sum(c[k] for c in curves) / n for k in range(len(ts))]
    return native_flow_scales(ts, mean, ref)


@dataclass
class FlowScales:
    t0: float  # t0/a^2 (NaN: not reached)
    t0_error: float  # jackknife (NaN with fewer than two bins)
    w0: float  # w0/a
    w0_error: float
    configurations: int  # used: a whole number of bins
    bins: int
    times: list = field(default_factory=list)  # the common flow times t/a^2
    mean_t2E: list = field(default_factory=list)  # <t^2 E> (clover) at those times


def histories(records):
    """The common flow times and every record's t^2 E_clover on them. The records must share their times (fixed
    steps): histories of different lengths are cut to the shortest; different times (adaptive steps) are an error."""
    if not records:
        raise ValueError("no flow records")
    try:
        length = min(len(r["history"]) for r in records)
        ts = [h["t"] for h in records[0]["history"][:length]]
        curves = [[h["t2E_clover"] for h in r["history"][:length]] for r in records]
        for n, r in enumerate(records):
            if any(abs(h["t"] - t) > 1e-9 * max(1.0, abs(t)) for h, t in zip(r["history"], ts)):
                raise ValueError(f"record {n + 1}: its flow times differ from the first record's (adaptive steps?); "
                                 "the ensemble average needs common times (lqcd flow without --tolerance)")
    except (KeyError, TypeError) as err:
        raise ValueError(f"expected lqcd flow --json records with a \"history\" of t, t2E_clover: {err!r}") from None
    if length < 2:
        raise ValueError("the flow histories have fewer than two measurements")
    return ts, curves


def ensemble_scales(records, binsize=5, reference=0.3):
    """t0, w0 of the ensemble average of the records (lqcd flow --json objects) with jackknife errors over bins
    of `binsize` consecutive configurations (the records after the last whole bin are left out)."""
    ts, curves = histories(records)
    nb = len(curves) // binsize
    if nb < 1:
        raise ValueError(f"{len(curves)} configurations are fewer than one bin of {binsize}")
    curves = curves[: nb * binsize]
    t0, w0 = scales(ts, curves, reference)
    jack = [scales(ts, curves[: b * binsize] + curves[(b + 1) * binsize:], reference) for b in range(nb)] \
        if nb > 1 else []
    n = len(curves)
    return FlowScales(t0, jackknife_error([j[0] for j in jack]), w0, jackknife_error([j[1] for j in jack]), n, nb,
                      ts, [sum(c[k] for c in curves) / n for k in range(len(ts))])


def read_records(path):
    return read_jsonl(path)


def report(records, binsize=5, reference=0.3, out=sys.stdout):
    s = ensemble_scales(records, binsize, reference)
    ts, length = s.times, len(s.times)
    used = records[: s.configurations]
    k0 = min(range(length), key=lambda k: abs(ts[k] - s.t0)) if s.t0 == s.t0 else length - 1
    charges = [r["history"][k0].get("Q", math.nan) for r in used]
    q2 = sum(q * q for q in charges) / len(charges)
    print(f"{s.configurations} configurations (bins of {binsize}), flow to t = {ts[-1]:.3f}: "
          f"t0/a^2 = {s.t0:.4f} +- {s.t0_error:.4f}, w0/a = {s.w0:.4f} +- {s.w0_error:.4f}, "
          f"<Q^2> at t = {ts[k0]:.2f}: {q2:.3f}", file=out)
    for key, name in (("Q", "clover"), ("Q_improved", "improved")):
        if not all(key in r["history"][0] for r in used):
            continue
        for k in sorted({k0, length - 1}):
            qs = [r["history"][k][key] for r in used]
            off = sum(abs(q - round(q)) for q in qs) / len(qs)
            print(f"  {name} Q at t = {ts[k]:.2f}: <|Q - round Q|> = {off:.4f} "
                  f"(max {max(abs(q - round(q)) for q in qs):.4f}), <Q^2> = {sum(q * q for q in qs) / len(qs):.3f}",
                  file=out)
    return s


def main(argv=None):
    ap = argparse.ArgumentParser(prog="flow_scales", description=__doc__.splitlines()[0])
    ap.add_argument("file")
    ap.add_argument("--bin", type=int, default=5, help="configurations per jackknife bin")
    ap.add_argument("--reference", type=float, default=0.3, help="the value of t^2 E and of W at the scales")
    a = ap.parse_args(argv)
    if a.bin < 1:
        ap.error("--bin must be at least 1")
    try:
        report(read_records(a.file), a.bin, a.reference)
    except (OSError, ValueError) as err:
        sys.exit(f"flow_scales: {a.file}: {err}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
