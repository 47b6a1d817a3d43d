"""Binned jackknife: errors of any function of averages, robust to autocorrelations shorter than the bin.

With N measurements in B = N // b bins of b, the jackknife samples are the averages without one bin;
the error of f is sqrt((B - 1)/B sum_k (f_k - fbar)^2) (B. Efron, The Jackknife, the Bootstrap and Other
Resampling Plans (1982); for lattice use e.g. C. Gattringer, C. Lang, Quantum Chromodynamics on the
Lattice (2010), section 4.5).
"""
import numpy as np


def bin_series(data, binsize):
    """Averages of consecutive bins of `binsize` along axis 0 (a trailing incomplete bin is dropped)."""
    a = np.asarray(data)
    nb = a.shape[0] // binsize
    if nb < 2:
        raise ValueError(f"need at least 2 bins of {binsize}, have {a.shape[0]} measurements")
    return a[: nb * binsize].reshape((nb, binsize) + a.shape[1:]).mean(axis=1)


def jackknife_samples(data, binsize=1):
    """The jackknife samples (B, ...) of the mean: the average of all bins but one."""
    b = bin_series(data, binsize)
    nb = b.shape[0]
    return (b.sum(axis=0)[None, ...] - b) / (nb - 1)


def jackknife_error(samples):
    """The jackknife error of quantities given on each jackknife sample (axis 0)."""
    s = np.asarray(samples, dtype=float)
    nb = s.shape[0]
    return np.sqrt((nb - 1) / nb * ((s - s.mean(axis=0)) ** 2).sum(axis=0))


def jackknife(data, f=lambda m: m, binsize=1):
    """f of the mean and its binned-jackknife error: (value, error, samples)."""
    a = np.asarray(data, dtype=float)
    value = np.asarray(f(a.mean(axis=0)))
    samples = np.array([f(s) for s in jackknife_samples(a, binsize)])
    return value, jackknife_error(samples), samples
