#pragma once
// Hasenbusch mass preconditioning (M. Hasenbusch, Phys. Lett. B 519 (2001) 177): the ratio
//   det(M_hat^dag M_hat) / det(M_hat_2^dag M_hat_2) (times det A_oo^2 / det A2_oo^2 with clover)
// of a lighter quark M (kappa, mu) and a heavier one M_2 (kappa2, mu2), through one pseudofermion:
//   S = psi^dag (M_hat^dag M_hat)^{-1} psi - 2 log |det A_oo| + 2 log |det A2_oo|,   psi = M_hat_2^dag phi.
// Heatbath: phi = M_hat_2^{-dag} M_hat^dag eta (one solve), so the first term is eta^dag eta at the start.
// Force (X = (M_hat^dag M_hat)^{-1} psi, Y = M_hat X):  dS = -2 Re Y^dag dM_hat X + 2 Re phi^dag dM_hat_2 X
// (+ the log det terms). With two-flavour M_2 on an outer level and the ratio on an inner one, the
// small-eigenvalue part of the force is carried by the ratio, whose force is small.

#include <optional>

#include "hmc/even_odd_fermion.hpp"
#include "hmc/pseudofermion_monomial.hpp"

namespace lqcd {

class HasenbuschRatioMonomial : public PseudofermionMonomial {
 public:
  // forecast: kept solutions for the force solves' initial guesses (hmc/chronological_guess.hpp).
  HasenbuschRatioMonomial(const EvenOddQuark& light, const EvenOddQuark& heavy, const SolverParams& solver,
                          std::uint32_t stream, int forecast = 0);
  std::string name() const override;
  void refresh(const GaugeField<double>& U, std::uint64_t seed, std::uint32_t trajectory) override;
  double action(const GaugeField<double>& U) override;
  double action_after_refresh(const GaugeField<double>& U) override;
  void add_force(const GaugeField<double>& U, MomentumField& F) override;
  void use_multigrid(const HmcMultigridParams& p) override;

 private:
  EvenOddQuark light_, heavy_;
};

}  // namespace lqcd
