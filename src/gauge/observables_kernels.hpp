#pragma once
// Site kernels of the gauge observables (run by lqcd::reduce on host or device).

#include "core/reduction.hpp"
#include "gauge/staples.hpp"
#include "gauge/time_boundary.hpp"

namespace lqcd {

// Per site: [0] sum of Re tr P/3 over the 3 spatial planes, [1] over the 3 temporal planes,
// [2] sum of Re tr R/3 over the 12 oriented 1x2 rectangles, [3] sum of Re tr U/3 over the 4 links.
// FLOPs per site: 6 plaquettes x 3 products x 198 + 12 rectangles x 5 x 198 ~ 15.5k.
struct GaugeObservablesKernel {
  GaugeView<double> U;
  LQCD_HOST_DEVICE void operator()(std::int64_t i, Sums<4>& acc) const {
    int x[4];
    U.idx.coords_lex(i, x);
    for (int mu = 0; mu < 4; ++mu) {
      acc[3] += re_trace(U.link(x, mu)) / 3.0;
      for (int nu = 0; nu < 4; ++nu) {
        if (nu == mu) continue;
        if (nu > mu) {
          const int plaq[4] = {fwd(mu), fwd(nu), bwd(mu), bwd(nu)};
          acc[nu == kTimeDir ? 1 : 0] += re_trace(U.path(x, plaq)) / 3.0;
        }
        const int rect[6] = {fwd(mu), fwd(mu), fwd(nu), bwd(mu), bwd(mu), bwd(nu)};
        acc[2] += re_trace(U.path(x, rect)) / 3.0;
      }
    }
  }
};

// Per spatial site (t = 0): the trace/3 of the product of the time links along t.
struct PolyakovLoopKernel {
  GaugeView<double> U;
  LQCD_HOST_DEVICE void operator()(std::int64_t i, Sums<2>& acc) const {
    int x[4];
    U.idx.coords_lex(i, x);  // i < spatial volume, so x[3] = 0
    SU3<double> p = SU3<double>::identity();
    for (int t = 0; t < U.idx.n[kTimeDir]; ++t) {
      x[kTimeDir] = t;
      p = p * U.link(x, kTimeDir);
    }
    const Complex<double> tr = trace(p);
    acc[0] += tr.re / 3.0;
    acc[1] += tr.im / 3.0;
  }
};

// How far the links are from SU(3): the largest deviation (su3_deviation) and the number of links
// beyond a tolerance or not finite. Combined with max / + so chunks merge in any grouping.
struct UnitarityStats {
  double max_deviation = 0;
  double violations = 0;
  LQCD_HOST_DEVICE UnitarityStats& operator+=(const UnitarityStats& o) {
    max_deviation = o.max_deviation > max_deviation ? o.max_deviation : max_deviation;
    violations += o.violations;
    return *this;
  }
};

// Open boundaries (b): the frozen links (zero, or SU(3) in a file from a periodic run) are not checked.
struct UnitarityKernel {
  GaugeView<double> U;
  double tolerance;
  TimeBoundary b;
  LQCD_HOST_DEVICE void operator()(std::int64_t i, UnitarityStats& acc) const {
    int x[4];
    U.idx.coords_lex(i, x);
    for (int mu = 0; mu < 4; ++mu) {
      if (b.frozen(x[kTimeDir] + U.idx.off[kTimeDir], mu)) continue;
      const double d = su3_deviation(U.link(x, mu));
      if (d > acc.max_deviation) acc.max_deviation = d;
      if (!(d <= tolerance)) acc.violations += 1.0;  // NaN fails the comparison and is counted
    }
  }
};

}  // namespace lqcd
