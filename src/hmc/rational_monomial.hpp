#pragma once
// One flavour of Wilson or clover quarks by RHMC (M. A. Clark, A. D. Kennedy, Phys. Rev. Lett. 98
// (2007) 051601), even-odd preconditioned: |det M| = |det A_oo| det(M_hat^dag M_hat)^{1/2} with
//   S = phi^dag R(M_hat^dag M_hat) phi - log |det A_oo|,  R(x) ~ x^{-1/2} on [lambda_min, lambda_max]
// (rational_approximation.hpp: Zolotarev's optimum, R = c prod (x + a_l)/(x + b_l)
//  = c (1 + sum rho_l / (x + b_l))), evaluated by one multi-shift CG.
// Heatbath (as openQCD's RHMC): with the Hermitian Q = gamma_5 M_hat (Q^2 = M_hat^dag M_hat),
//   R^{-1} = B B^dag,  B = c^{-1/2} prod_l (Q + i sqrt(b_l)) / (Q + i sqrt(a_l)),  phi = B eta,
// so phi^dag R phi = eta^dag eta exactly; (Q + i q)^{-1} = (Q - i q)(Q^2 + q^2)^{-1} (multi-shift CG).
// Force: dS = sum_l c rho_l (-2 Re Y_l^dag dM_hat X_l) - d log |det A_oo|,
//   X_l = (M_hat^dag M_hat + b_l)^{-1} phi, Y_l = M_hat X_l.
// Needs gamma_5-hermiticity of M_hat: Wilson and clover (no twisted mass).

#include <optional>
#include <string>
#include <vector>

#include "hmc/even_odd_fermion.hpp"
#include "hmc/pseudofermion_monomial.hpp"
#include "hmc/rational_approximation.hpp"
#include "solvers/krylov/spectral_bounds.hpp"

namespace lqcd {

class RationalMonomial : public PseudofermionMonomial {
 public:
  RationalMonomial(const EvenOddQuark& quark, const RationalApproximation& r, const SolverParams& solver,
                   std::uint32_t stream);
  std::string name() const override;
  void refresh(const GaugeField<double>& U, std::uint64_t seed, std::uint32_t trajectory) override;
  double action(const GaugeField<double>& U) override;
  void add_force(const GaugeField<double>& U, MomentumField& F) override;
  std::vector<std::string> take_warnings() override;

  // With n > 0, each refresh estimates the extreme eigenvalues of M_hat^dag M_hat by n Lanczos steps
  // from the heatbath's noise (solvers/krylov/spectral_bounds.hpp) and warns when a Ritz value lies outside
  // [lambda_min, lambda_max]: then the spectrum certainly leaves the range where R(x) ~ x^{-1/2} holds.
  void check_spectrum(int iterations) { spectrum_iterations_ = iterations; }
  // The last estimate (none before the first refresh or with the check off).
  const std::optional<SpectralBounds>& last_spectrum() const { return spectrum_; }

  double eta_norm2 = 0;  // |eta|^2 of the last heatbath: the pseudofermion action right after it

 private:
  // X_l = (M_hat^dag M_hat + shift_l)^{-1} b, M = M_hat on U, solved with p (solver_ or force_solver_;
  // p.precision = Single or Half: the multi-shift CG in single precision, refined in double).
  std::vector<SpinorField<double>> solve_shifted(const GaugeField<double>& U, const SchurOperator<double>& M,
                                                 const std::vector<double>& shifts, const SpinorField<double>& b,
                                                 const SolverParams& p);

  EvenOddQuark quark_;
  RationalApproximation r_;
  int spectrum_iterations_ = 0;
  std::optional<SpectralBounds> spectrum_;
  std::vector<std::string> warnings_;
};

}  // namespace lqcd
