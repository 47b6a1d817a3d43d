#pragma once
// A fermion monomial on stout-smeared links (C. Morningstar, M. Peardon, Phys. Rev. D 69 (2004) 054501):
// a decorator whose action is the wrapped monomial's action at V = stout^n(U). Its force is the wrapped
// monomial's force at V, F_V, carried back to the thin links by the chain rule (gauge/stout_force.hpp):
// F += chain_rule(F_V). The pseudofermions are drawn at V too, so the heatbath still makes the first
// term of the action eta^dag eta. The gauge action stays on the thin links (it is not wrapped).

#include <memory>

#include "gauge/stout_smearing.hpp"
#include "hmc/monomial.hpp"

namespace lqcd {

class SmearedFermionMonomial : public Monomial {
 public:
  // Throws lqcd::Error for bad params (prefix "stout") or a null inner monomial. The level is the
  // decorator's own (the integrator reads it); set it after construction as for any monomial.
  SmearedFermionMonomial(std::unique_ptr<Monomial> inner, const StoutParams& params);

  // "<inner name> on 2 stout steps (rho 0.125)".
  std::string name() const override;
  void refresh(const GaugeField<double>& U, std::uint64_t seed, std::uint32_t trajectory) override;
  double action(const GaugeField<double>& U) override;
  double action_after_refresh(const GaugeField<double>& U) override;
  void add_force(const GaugeField<double>& U, MomentumField& F) override;
  SolverStats take_solver_stats() override { return inner_->take_solver_stats(); }
  std::vector<std::string> take_warnings() override { return inner_->take_warnings(); }

  Monomial& inner() { return *inner_; }
  const Monomial& inner() const { return *inner_; }
  const StoutParams& params() const { return params_; }

 private:
  std::unique_ptr<Monomial> inner_;
  StoutParams params_;
};

// The monomial a chain of decorators wraps (m itself when it is none): for the casts that ask what
// kind of monomial it is (the rational monomial's spectrum, the force tolerance).
const Monomial& innermost(const Monomial& m);
Monomial& innermost(Monomial& m);

}  // namespace lqcd
