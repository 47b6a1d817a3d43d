#pragma once
// Even-odd (Schur) preconditioning of the Wilson / twisted-mass operator. With the site term
// A = 1 + 2 i kappa mu gamma_5 (the same on both parities) M = [[A, -kappa H_eo], [-kappa H_oe, A]],
// and M x = b is solved on the even sites with the Schur complement
//   M_hat = A - kappa^2 H_eo A^{-1} H_oe,      A^{-1} = (1 - 2 i kappa mu gamma_5) / (1 + 4 kappa^2 mu^2),
//   M_hat x_e = b_e + kappa H_eo A^{-1} b_o,   then  x_o = A^{-1} (b_o + kappa H_oe x_e)
// (T. DeGrand, P. Rossi, Comput. Phys. Commun. 60 (1990) 211). M_hat^dag = gamma_5 M_hat(-mu) gamma_5.
// Real = double, float or Half: the storage precision of links and fields (math/precision.hpp);
// LinkComponents = 9, 6 or 4: links stored with 18, 12 or 8 reals (gauge_view.hpp). The
// instantiations: double and float with every link storage, Half with 12 and 8 reals.

#include "dirac/wilson_operator.hpp"

namespace lqcd {

template <typename Real, int LinkComponents = 9>
class WilsonEvenOddOperator : public SchurOperator<Real> {
 public:
  WilsonEvenOddOperator(const GaugeField<Real, LinkComponents>& U, const WilsonParams& params);

  const Geometry& geometry() const override { return U_.geometry(); }
  Location location() const override { return U_.location(); }
  // Two hopping terms and the site term with the axpy (QUDA's count for Wilson: 2 x 1320 + 48); twisted
  // mass adds the inverse site term (72) and the gamma_5 part of the site term (96 instead of 48).
  double flops_per_site() const override { return params_.mu != 0 ? 2 * 1320 + 72 + 96 : 2 * 1320 + 48; }

  void apply(SpinorField<Real>& out, const SpinorField<Real>& in) const override;
  void apply_dagger(SpinorField<Real>& out, const SpinorField<Real>& in) const override;

  // The even-site right-hand side b_e + kappa H_eo A^{-1} b_o of a full-lattice b.
  SpinorField<Real> prepare_source(const SpinorField<Real>& b) const override;
  // The full solution from the even-site solution x_e and the full right-hand side b.
  SpinorField<Real> reconstruct(const SpinorField<Real>& x_even, const SpinorField<Real>& b) const override;

  // The pieces (for the HMC force): out = (1 + i c5 gamma_5) x + alpha H in on out's parity, in of
  // the other parity (H^dag with dagger); x may be null (then out = alpha H in).
  void hop(SpinorField<Real>& out, const SpinorField<Real>& in, const SpinorField<Real>* x, double alpha,
           double c5, int dagger) const;
  // out = A^{-1} in ((A^dag)^{-1} in with dagger), A = 1 + 2 i kappa mu gamma_5; in may be out. For Wilson
  // (mu = 0) A = 1: a copy, and nothing at all when in is out.
  void site_inverse(SpinorField<Real>& out, const SpinorField<Real>& in, int dagger) const;

 private:
  void run(SpinorField<Real>& out, const SpinorField<Real>& in, int dagger) const;

  const GaugeField<Real, LinkComponents>& U_;
  WilsonParams params_;
  mutable SpinorField<Real> tmp_odd_;  // work space of apply()
  int t_tile_;                         // the hopping kernel's visiting order (dirac/visiting_order.hpp)
};

}  // namespace lqcd
