#pragma once
// The loop every link smearing shares (APE, stout): `steps` applications of step(in, out), which fills
// out from in (every new link from the old field); the first reads U itself, later ones alternate
// between two buffers. 0 steps: a copy of U.

#include <utility>

#include "fields/gauge_field.hpp"

namespace lqcd {

template <typename Step>
GaugeField<double> repeated_smearing(const GaugeField<double>& U, int steps, Step&& step) {
  const Location loc = U.location();
  if (steps == 0) return U.clone(loc);
  GaugeField<double> cur(U.geometry(), loc);
  step(U, cur);
  cur.exchange_halo();
  if (steps > 1) {
    GaugeField<double> next(U.geometry(), loc);
    for (int k = 1; k < steps; ++k) {
      step(cur, next);
      next.exchange_halo();
      std::swap(cur, next);
    }
  }
  return cur;
}

}  // namespace lqcd
