#include "measure/statistics.hpp"

#include <cmath>

namespace lqcd {

Estimate binned_jackknife(const std::vector<double>& series, int bin_size) {
  Estimate e;
  e.bin_size = bin_size < 1 ? 1 : bin_size;
  const std::size_t nbins = series.size() / std::size_t(e.bin_size);
  e.bins = int(nbins);
  if (nbins == 0) return e;
  std::vector<double> bins(nbins, 0.0);
  double total = 0;
  for (std::size_t b = 0; b < nbins; ++b) {
    for (int i = 0; i < e.bin_size; ++i) bins[b] += series[b * e.bin_size + i];
    total += bins[b];
  }
  const double n = double(nbins) * e.bin_size;
  e.mean = total / n;
  if (nbins < 2) return e;
  double var = 0;
  for (double b : bins) {
    const double leave_one_out = (total - b) / (n - e.bin_size);
    var += (leave_one_out - e.mean) * (leave_one_out - e.mean);
  }
  e.error = std::sqrt(var * double(nbins - 1) / double(nbins));
  return e;
}

int default_bin_size(std::size_t samples) {
  const int b = int(samples / 20);
  return b < 1 ? 1 : b;
}

}  // namespace lqcd
