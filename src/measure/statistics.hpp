#pragma once
// Error estimates for Monte Carlo time series.

#include <vector>

namespace lqcd {

struct Estimate {
  double mean = 0;
  double error = 0;
  int bins = 0;
  int bin_size = 0;
};

// Binned jackknife (B. Efron, SIAM 1982; for autocorrelated Markov chains the data are first
// averaged in bins longer than the autocorrelation time). Data beyond the last full bin are dropped.
// Fewer than two bins: error = 0 and bins < 2 tells the caller there is no estimate.
Estimate binned_jackknife(const std::vector<double>& series, int bin_size);

// A bin size that leaves at least 20 bins (>= 1): series.size() / 20.
int default_bin_size(std::size_t samples);

}  // namespace lqcd
