"""A heatbath or HMC run's history (PREFIX.jsonl of lqcd heatbath / lqcd hmc): every scalar observable
after thermalisation with its Gamma-method error and integrated autocorrelation time (in units of the
measurement spacing), the acceptance, and <exp(-dH)>, which must be 1 within errors for a correct HMC
(M. Creutz, Phys. Rev. D 38 (1988) 1228)."""

import numpy as np

from .autocorrelation import gamma_method
from .jsonl import read_jsonl  # noqa: F401 (part of the package's interface)

# Bookkeeping, not observables.
_SKIP = ("sweep", "trajectory", "seconds", "joules", "iterations", "thermalized", "max_su3", "reversibility")


def _scalars(record):
    out = {}
    for key, value in record.items():
        if any(s in key for s in _SKIP):
            continue
        if isinstance(value, bool):
            out[key] = float(value)
        elif isinstance(value, (int, float)):
            out[key] = float(value)
        elif isinstance(value, list) and len(value) == 2 and all(isinstance(v, (int, float)) for v in value):
            out[key + ".re"], out[key + ".im"] = float(value[0]), float(value[1])  # complex [re, im]
    return out


def run_series(records, thermalization=None):
    """{observable: array} over the thermalised records: those marked "thermalized" (lqcd's runs), or all
    after the first `thermalization` records when given. Only finite series of at least 4 values."""
    if thermalization is not None:
        kept = records[thermalization:]
    else:
        kept = [r for r in records if r.get("thermalized", True)]
    rows = [_scalars(r) for r in kept]
    out = {}
    for name in sorted({k for r in rows for k in r}):
        series = np.array([r[name] for r in rows if name in r])
        if len(series) >= 4 and np.all(np.isfinite(series)):
            out[name] = series
    return out


def analyse_run(records, thermalization=None):
    """{observable: GammaResult} for every series of run_series."""
    return {name: gamma_method(series) for name, series in run_series(records, thermalization).items()}
