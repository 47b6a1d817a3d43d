#pragma once
// Two degenerate flavours of Wilson or twisted-mass quarks, even-odd preconditioned, through one
// pseudofermion phi on the even sites:
//   det(M^dag M) = const * det(M_hat^dag M_hat),  S = phi^dag (M_hat^dag M_hat)^{-1} phi,
// with M_hat = A - kappa^2 H_eo A^{-1} H_oe (dirac/wilson_even_odd.hpp) and A = 1 + 2 i kappa mu gamma_5
// independent of the links (for twisted mass det M_hat(mu) M_hat(-mu) is the two-flavour determinant).
// Heatbath: phi = M_hat^dag eta with P(eta) ~ exp(-eta^dag eta), so S = eta^dag eta at the start.
// Force (X = (M_hat^dag M_hat)^{-1} phi, Y = M_hat X):
//   dS = -2 Re Y^dag dM_hat X = 2 kappa^2 Re [ Y^dag dH_eo Z + W^dag dH_oe X ],
//   Z = A^{-1} H_oe X,  W = (A^dag)^{-1} (H^dag)_oe Y,
// i.e. 2 kappa^2 d Re <a, H b> with a = (Y, W), b = (X, Z) on (even, odd) sites (HoppingForceKernel).

#include <memory>
#include <optional>

#include "dirac/wilson_operator.hpp"
#include "fields/spinor_field.hpp"
#include "hmc/monomial.hpp"
#include "solvers/solver.hpp"

namespace lqcd {

class TwoFlavourMonomial : public Monomial {
 public:
  // stream: separates the pseudofermions of several fermion monomials with one seed.
  TwoFlavourMonomial(const WilsonParams& params, const SolverParams& solver, std::uint32_t stream);
  std::string name() const override;
  void refresh(const GaugeField<double>& U, std::uint64_t seed, std::uint32_t trajectory) override;
  double action(const GaugeField<double>& U) override;
  void add_force(const GaugeField<double>& U, MomentumField& F) override;
  SolverStats take_solver_stats() override;

  // The pseudofermion (even sites), set by refresh(); tests may set it directly.
  std::optional<SpinorField<double>> phi;

 private:
  // X = (M_hat^dag M_hat)^{-1} phi on U.
  SpinorField<double> solve_normal(const GaugeField<double>& U);

  WilsonParams params_;
  SolverParams solver_;
  std::uint32_t stream_;
  SolverStats stats_;
};

}  // namespace lqcd
