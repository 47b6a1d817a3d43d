#pragma once
// Two degenerate flavours of Wilson, twisted-mass, clover or twisted-clover quarks, even-odd
// preconditioned, through one pseudofermion phi on the even sites. With M_hat = A_ee - kappa^2 H_eo
// A_oo^{-1} H_oe (dirac/wilson_even_odd.hpp, dirac/clover_even_odd.hpp), det M = det A_oo det M_hat and
//   S = phi^dag (M_hat^dag M_hat)^{-1} phi - 2 sum_{x odd} log |det A(x)|,
// the second term only for clover (for Wilson and twisted mass A = 1 + 2 i kappa mu gamma_5 is constant;
// for twisted mass det M_hat(mu) M_hat(-mu) is the two-flavour determinant).
// Heatbath: phi = M_hat^dag eta with P(eta) ~ exp(-eta^dag eta), so the first term is eta^dag eta at the start.
// Force (X = (M_hat^dag M_hat)^{-1} phi, Y = M_hat X, Z = A_oo^{-1} H_oe X, W = (A_oo^dag)^{-1} (H^dag)_oe Y):
//   dS_pf = -2 Re Y^dag dM_hat X
//         = 2 kappa^2 Re [Y^dag dH_eo Z + W^dag dH_oe X] - 2 Re [Y^dag dA_ee X + kappa^2 W^dag dA_oo Z],
//   dS_det = -2 Re sum_odd tr[A^{-1} dA],
// the hopping part as 2 kappa^2 d Re <a, H b> with a = (Y, W), b = (X, Z) on (even, odd) sites
// (HoppingForceKernel), the clover parts through CloverInsertionKernel and CloverForceKernel.

#include <memory>
#include <optional>

#include "dirac/wilson_operator.hpp"
#include "fields/spinor_field.hpp"
#include "hmc/even_odd_fermion.hpp"
#include "hmc/pseudofermion_monomial.hpp"

namespace lqcd {

class TwoFlavourMonomial : public PseudofermionMonomial {
 public:
  // stream: separates the pseudofermions of several fermion monomials with one seed.
  // csw = 0: Wilson / twisted mass; csw > 0: clover / twisted clover. forecast: kept solutions for the
  // force solves' initial guesses (hmc/chronological_guess.hpp; 0: none).
  TwoFlavourMonomial(const WilsonParams& params, double csw, const SolverParams& solver, std::uint32_t stream,
                     int forecast = 0);
  // The quark as a whole (its open time boundary too).
  TwoFlavourMonomial(const EvenOddQuark& quark, const SolverParams& solver, std::uint32_t stream, int forecast = 0);
  std::string name() const override;
  void refresh(const GaugeField<double>& U, std::uint64_t seed, std::uint32_t trajectory) override;
  double action(const GaugeField<double>& U) override;
  double action_after_refresh(const GaugeField<double>& U) override;
  void add_force(const GaugeField<double>& U, MomentumField& F) override;
  void use_multigrid(const HmcMultigridParams& p) override;

 private:
  EvenOddQuark quark_;
};

}  // namespace lqcd
