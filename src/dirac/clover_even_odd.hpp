#pragma once
// Even-odd (Schur) preconditioning of the Wilson-clover and twisted-clover operator
// M = A - kappa H (clover_operator.hpp), asymmetric form. With the site term A (the clover term with
// the twisted mass 2 i kappa mu gamma_5, different on every site) M = [[A_ee, -kappa H_eo],
// [-kappa H_oe, A_oo]], and M x = b is solved on the even sites with the Schur complement
//   M_hat = A_ee - kappa^2 H_eo A_oo^{-1} H_oe,
//   M_hat x_e = b_e + kappa H_eo A_oo^{-1} b_o,   then  x_o = A_oo^{-1} (b_o + kappa H_oe x_e),
//   M_hat^dag = A_ee^dag - kappa^2 H_oe^dag A_oo^{-dag} H_eo^dag
// (T. DeGrand, P. Rossi, Comput. Phys. Commun. 60 (1990) 211; the same conventions as
// WilsonEvenOddOperator, which this reduces to for c_sw = 0). det M = det A_oo det M_hat: the
// fermion action needs A_oo's log det as well (CloverField::log_det(1)).
//
// Built on the pieces of WilsonCloverOperator (hop, apply_clover, apply_clover_inverse); it holds
// that operator through a shared_ptr so that the full-lattice and the preconditioned operator can
// share one clover field (dirac_operator_factory.hpp does). Real = double or float.

#include <memory>

#include "dirac/clover_operator.hpp"

namespace lqcd {

template <typename Real>
class WilsonCloverEvenOddOperator : public SchurOperator<Real> {
 public:
  // Builds its own WilsonCloverOperator (and clover field) on U; U must outlive the operator.
  WilsonCloverEvenOddOperator(const GaugeField<double>& U, const WilsonParams& params, double csw)
    requires std::is_same_v<Real, double>;
  // Shares the full-lattice operator M (and its clover field); M must not be null.
  explicit WilsonCloverEvenOddOperator(std::shared_ptr<WilsonCloverOperator<Real>> M);

  const WilsonCloverOperator<Real>& full_operator() const { return *M_; }
  const WilsonParams& params() const { return M_->params(); }
  double csw() const { return M_->csw(); }
  const CloverField<Real>& clover() const { return M_->clover(); }
  // Rebuilds the (shared) clover field after the links changed.
  void update()
    requires std::is_same_v<Real, double>
  {
    M_->update();
  }

  const Geometry& geometry() const override { return M_->geometry(); }
  Location location() const override { return M_->location(); }
  // Per even site, counted as the kernels do it (and as QUDA counts the clover term):
  //   H_oe in, times 1                            1320 + 24
  //   A_oo^{-1}  (K_b v: 2 x 252; with twisted mass also H_b (K_b v) and the twist: 2 x (2 x 252 + 24))
  //                                               504 (mu = 0) or 1056 (mu != 0)
  //   A_ee in - kappa^2 H_eo (.)                  1320 + 552 + 48
  // = 3768 (mu = 0) or 4320 (mu != 0).
  double flops_per_site() const override {
    return 2 * 1320 + 24 + (params().mu != 0 ? 1056 : 504) + 552 + 48;
  }

  void apply(SpinorField<Real>& out, const SpinorField<Real>& in) const override;         // M_hat in
  void apply_dagger(SpinorField<Real>& out, const SpinorField<Real>& in) const override;  // M_hat^dag in

  // The even-site right-hand side b_e + kappa H_eo A_oo^{-1} b_o of a full-lattice b.
  SpinorField<Real> prepare_source(const SpinorField<Real>& b) const override;
  // The full solution from the even-site solution x_e and the full right-hand side b.
  SpinorField<Real> reconstruct(const SpinorField<Real>& x_even, const SpinorField<Real>& b) const override;

 private:
  void run(SpinorField<Real>& out, const SpinorField<Real>& in, bool dagger) const;

  std::shared_ptr<WilsonCloverOperator<Real>> M_;
  mutable SpinorField<Real> tmp_odd_;  // work space of apply()
};

}  // namespace lqcd
