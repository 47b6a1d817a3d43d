"""Statistical analysis of lqcd's outputs: autocorrelation-aware errors (Wolff's Gamma method), binned
jackknife, correlator folding and effective masses, correlated fits, and the GEVP.

    python3 -m lqcd.analysis RUN.jsonl            # a heatbath/HMC run: every observable with tau_int
    python3 -m lqcd.analysis plot RUN.jsonl       # history, histogram and autocorrelation plots (PNG)
    python3 -m lqcd.analysis correlators FILE.h5 … # an ensemble of lqcd spectrum outputs
"""
from .autocorrelation import GammaResult, gamma_method
from .resampling import bin_series, jackknife_samples, jackknife_error, jackknife
from .correlators import fold, fold_baryon, effective_mass
from .fits import FitResult, correlated_fit, one_exponential, two_exponentials, one_cosh
from .gevp import gevp, principal_correlators, gevp_effective_energies
from .runs import read_jsonl, run_series, analyse_run

__all__ = [
    "GammaResult", "gamma_method", "bin_series", "jackknife_samples", "jackknife_error", "jackknife", "fold", "fold_baryon",
    "effective_mass", "FitResult", "correlated_fit", "one_exponential", "two_exponentials", "one_cosh", "gevp",
    "principal_correlators", "gevp_effective_energies", "read_jsonl", "run_series", "analyse_run",
]
