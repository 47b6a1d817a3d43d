#pragma once
// The even-odd Wilson-clover (and twisted-clover) operator M_hat = A_ee - kappa^2 H_eo A_oo^{-1} H_oe
// (clover_even_odd.hpp has the formulas) in the storage the inner solves of mixed precision read: the
// links in Real (float or Half) with 12 reals each (LinkComponents = 6: two rows, the third rebuilt in
// registers) or 18 (9), the clover blocks and their inverses in single precision, and A_oo^{-1}
// applied at the output sites of the first hopping term instead of in a pass of its own. One
// application reads and writes, per even site in single precision with 12-real links, about
// 2 x 384 (links) + 2 x 288 (clover) + 4 x 96 (spinors) bytes against 2 x 576 + 2 x 288 + 6 x 96
// for WilsonCloverEvenOddOperator<float>; in half precision the links and spinors take half as much
// again (QUDA's half-precision clover solver stores the clover term in 16 bits too: here it stays in
// single, a third of the traffic).
//
// Made from the double-precision operator (its links rounded, its clover field rounded); owns both
// copies, so it does not depend on the double operator's lifetime. Made again, not updated, when the
// links change. Instantiated for (float, 6), (float, 9) and (Half, 6).

#include "dirac/clover_even_odd.hpp"

namespace lqcd {

template <typename Real, int LinkComponents>
class CompressedCloverEvenOddOperator : public SchurOperator<Real> {
 public:
  explicit CompressedCloverEvenOddOperator(const WilsonCloverEvenOddOperator<double>& M);

  const Geometry& geometry() const override { return links_.geometry(); }
  Location location() const override { return links_.location(); }
  const WilsonParams& params() const { return params_; }
  // As WilsonCloverEvenOddOperator's count (the fused inverse does the same arithmetic).
  double flops_per_site() const override { return 2 * 1320 + 24 + (params_.mu != 0 ? 1056 : 504) + 552 + 48; }

  void apply(SpinorField<Real>& out, const SpinorField<Real>& in) const override;         // M_hat in
  void apply_dagger(SpinorField<Real>& out, const SpinorField<Real>& in) const override;  // M_hat^dag in
  SpinorField<Real> prepare_source(const SpinorField<Real>& b) const override;
  SpinorField<Real> reconstruct(const SpinorField<Real>& x_even, const SpinorField<Real>& b) const override;

 private:
  // out = alpha H in + A x (x may be null: no site term); with `then_inverse` A^{-1} (alpha H in)
  // instead (x must be null). H^dag, A^dag with dagger.
  void hop(SpinorField<Real>& out, const SpinorField<Real>& in, const SpinorField<Real>* x, double alpha,
           bool then_inverse, int dagger) const;
  void run(SpinorField<Real>& out, const SpinorField<Real>& in, int dagger) const;

  GaugeField<Real, LinkComponents> links_;
  CloverField<float> clover_;
  WilsonParams params_;
  mutable SpinorField<Real> tmp_odd_;  // work space of apply()
  int t_tile_;                         // the hopping kernel's visiting order (dirac/visiting_order.hpp)
};

}  // namespace lqcd
