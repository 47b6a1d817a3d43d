#pragma once
// One stout-smearing step as a site kernel (stout_smearing.hpp has the formula). The staples of
// staples.hpp, A = sum U_nu(x+mu) U_mu(x+nu)^dag U_nu(x)^dag + ..., close U_mu(x) A into plaquettes;
// Morningstar and Peardon's C is their adjoint times rho, so Omega = C U^dag = rho (U A)^dag.

#include "fields/gauge_view.hpp"
#include "gauge/staples.hpp"
#include "math/su3_exp.hpp"

namespace lqcd {

// Q = (i/2) (Omega^dag - Omega) - (i/6) tr(Omega^dag - Omega) of Omega (Hermitian, traceless).
LQCD_HOST_DEVICE inline SU3<double> stout_q(const SU3<double>& omega) {
  SU3<double> q;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      const Complex<double> d = conj(omega.m[j][i]) - omega.m[i][j];  // (Omega^dag - Omega)_ij
      q.m[i][j] = Complex<double>(-0.5 * d.im, 0.5 * d.re);            // (i/2) d
    }
  const double t = (q.m[0][0].re + q.m[1][1].re + q.m[2][2].re) / 3.0;  // the diagonal of q is real
  for (int i = 0; i < 3; ++i) q.m[i][i] = Complex<double>(q.m[i][i].re - t, 0.0);
  return q;
}

struct StoutSmearKernel {
  GaugeView<double> in;
  GaugeView<double> out;
  double rho;
  int spatial_only;

  LQCD_HOST_DEVICE void operator()(std::int64_t i) const {
    int x[4];
    in.idx.coords_lex(i, x);
    const int p = SiteIndexer::parity(x);
    const std::int64_t s = in.idx.cb_index(x);
    for (int mu = 0; mu < 4; ++mu) {
      const SU3<double> u = in.load(mu, p, s);
      if (spatial_only && mu == kTimeDir) {
        out.store(mu, p, s, u);
        continue;
      }
      const SU3<double> a = spatial_only ? plaquette_staple<kTimeDir>(in, x, mu) : plaquette_staple(in, x, mu);
      SU3<double> omega = dagger(u * a);
      omega *= rho;
      out.store(mu, p, s, exp_i(stout_q(omega)) * u);
    }
  }
};

}  // namespace lqcd
