#pragma once
// Site kernel of Wuppertal (gauge-covariant Gaussian) smearing (S. Guesken et al., Phys. Lett. B
// 227 (1989) 266), run by lqcd::for_each on host or device. One step on the full lattice:
//   out(x) = (1 - 6 alpha) in(x) + alpha sum_{i=1..3} ( U_i(x) in(x + i) + U_i(x - i)^dag in(x - i) ),
// spatial hops only, periodic in space, no fermion boundary phases (time is never crossed), the
// same colour matrix on all four spins. Neighbours are loaded as in WilsonHoppingKernel.
// FLOPs per site: 6 x 264 (SU(3) x colour spinor) + 6 x 24 (sums) + 3 x 24 (two scalings, one add) = 1800.

#include "dirac/wilson_kernels.hpp"

namespace lqcd {

struct GaussianSmearKernel {
  GaugeView<double> U;
  SpinorView<double> in;   // full-lattice fields, in != out
  SpinorView<double> out;
  double alpha;  // the Laplacian's coefficient
  double site;   // 1 - 6 alpha

  LQCD_HOST_DEVICE void operator()(std::int64_t i) const {
    const int p = out.parity_of(i);
    const std::int64_t s = out.cb_of(i);
    int xc[4];
    U.idx.coords(p, s, xc);
    ColorSpinor<double> acc{};
    LQCD_UNROLL
    for (int mu = 0; mu < kTimeDir; ++mu) {
      int y[4] = {xc[0], xc[1], xc[2], xc[3]};
      U.idx.shift(y, mu, +1);  // every extent is even: the neighbours have the other parity
      acc += color_multiply(U.link(xc, mu), in.load(1 - p, U.idx.cb_index(y)));
      int z[4] = {xc[0], xc[1], xc[2], xc[3]};
      U.idx.shift(z, mu, -1);
      acc += color_adj_multiply(U.link(z, mu), in.load(1 - p, U.idx.cb_index(z)));
    }
    ColorSpinor<double> r = in.load(p, s);
    r *= Complex<double>(site);
    r += Complex<double>(alpha) * acc;
    out.store(p, s, r);
  }
};

}  // namespace lqcd
