"""The jackknife error of values given on each jackknife sample, sqrt((B - 1)/B sum_k (x_k - xbar)^2), in
the standard library only: for the modules that run without NumPy (flow_scales, static_potential; the
NumPy form for arrays is resampling.jackknife_error). NaN with fewer than two samples.
"""
import math


def jackknife_error(values):
    nb = len(values)
    if nb < 2:
        return math.nan
    m = sum(values) / nb
    return math.sqrt((nb - 1) / nb * sum((x - m) ** 2 for x in values))
