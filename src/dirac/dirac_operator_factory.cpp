#include "dirac/dirac_operator_factory.hpp"

#include <cmath>
#include <utility>

#include "core/error.hpp"
#include "dirac/clover_even_odd.hpp"
#include "dirac/clover_operator.hpp"
#include "dirac/wilson_even_odd.hpp"
#include "dirac/wilson_even_odd_multi_rhs.hpp"

namespace lqcd {

namespace {

// The full-lattice Wilson-clover operator, shared with the even-odd operator (one clover field).
template <typename Real>
class SharedCloverOperator : public LinearOperator<Real> {
 public:
  explicit SharedCloverOperator(std::shared_ptr<const WilsonCloverOperator<Real>> M) : M_(std::move(M)) {}
  void apply(SpinorField<Real>& out, const SpinorField<Real>& in) const override { M_->apply(out, in); }
  void apply_dagger(SpinorField<Real>& out, const SpinorField<Real>& in) const override {
    M_->apply_dagger(out, in);
  }
  Subset subset() const override { return M_->subset(); }
  const Geometry& geometry() const override { return M_->geometry(); }
  Location location() const override { return M_->location(); }
  double flops_per_site() const override { return M_->flops_per_site(); }

 private:
  std::shared_ptr<const WilsonCloverOperator<Real>> M_;
};

void check_finite(double value, const char* key) {
  if (!std::isfinite(value)) fail("{}: must be a finite number (got {})", key, value);
}

}  // namespace

FermionAction fermion_action_from_name(const std::string& name, const std::string& key) {
  if (name == "wilson") return FermionAction::Wilson;
  if (name == "clover") return FermionAction::Clover;
  if (name == "twisted_mass") return FermionAction::TwistedMass;
  fail("{}: unknown fermion action \"{}\" (expected \"wilson\", \"clover\" or \"twisted_mass\")", key, name);
}

const char* fermion_action_name(FermionAction action) {
  switch (action) {
    case FermionAction::Wilson: return "wilson";
    case FermionAction::Clover: return "clover";
    case FermionAction::TwistedMass: return "twisted_mass";
  }
  return "unknown";
}

void check_fermion_params(const FermionParams& p) {
  check_finite(p.wilson.kappa, "fermion.kappa");
  check_finite(p.wilson.mu, "fermion.mu");
  check_finite(p.csw, "fermion.csw");
  if (!(p.wilson.kappa > 0)) fail("fermion.kappa: must be positive (got {})", p.wilson.kappa);
  if (p.csw < 0) fail("fermion.csw: must be non-negative (got {})", p.csw);
  if (p.action == FermionAction::Wilson) {
    if (p.csw != 0)
      fail("fermion.csw = {} is set, but fermion.action = \"wilson\" has no clover term (use \"clover\")", p.csw);
    if (p.wilson.mu != 0)
      fail("fermion.mu = {} is set, but fermion.action = \"wilson\" has no twisted mass (use \"twisted_mass\" or "
           "\"clover\")",
           p.wilson.mu);
  }
}

void check_kappa_below_free_critical(double kappa, double mu) {
  check_finite(kappa, "fermion.kappa");
  if (mu != 0 && kappa > 0.125)
    fail("fermion.kappa = {} is beyond the free-field critical value 1/8 (m0 < 0; at maximal twist m0 = 0, kappa = "
         "1/8)",
         kappa);
  if (mu == 0 && !(kappa < 0.125))
    fail("fermion.kappa = {} is at or beyond the free-field critical value 1/8 (m0 <= 0 with a unit gauge field "
         "makes the operator singular)",
         kappa);
}

DiracOperators make_dirac_operators(const GaugeField<double>& U, const FermionParams& p, SloppyPrecision sloppy,
                                    int block_rhs) {
  check_fermion_params(p);
  DiracOperators ops;
  const bool clover = p.action == FermionAction::Clover || (p.action == FermionAction::TwistedMass && p.csw != 0);
  const bool single_precision = sloppy == SloppyPrecision::Single;
  if (sloppy == SloppyPrecision::Half) {
    if (clover)
      fail("solver.precision = \"half\": implemented for the wilson and twisted_mass actions (without csw); use "
           "\"single\" with clover quarks");
    ops.links_half = std::make_unique<const GaugeField<Half, 6>>(convert_links<Half, 6>(U));
    ops.even_odd_half = std::make_unique<WilsonEvenOddOperator<Half, 6>>(*ops.links_half, p.wilson);
  }
  if (single_precision) ops.links_single = std::make_unique<const GaugeField<float>>(convert_precision<float>(U));
  if (clover) {
    auto M = std::make_shared<WilsonCloverOperator<double>>(U, p.wilson, p.csw);
    if (single_precision) {
      auto Ms = std::make_shared<WilsonCloverOperator<float>>(*ops.links_single, *M);
      ops.full_single = std::make_unique<SharedCloverOperator<float>>(Ms);
      ops.even_odd_single = std::make_unique<WilsonCloverEvenOddOperator<float>>(std::move(Ms));
    }
    ops.full = std::make_unique<SharedCloverOperator<double>>(M);
    ops.even_odd = std::make_unique<WilsonCloverEvenOddOperator<double>>(std::move(M));
  } else {
    ops.full = std::make_unique<WilsonOperator<double>>(U, p.wilson);
    ops.even_odd = std::make_unique<WilsonEvenOddOperator<double>>(U, p.wilson);
    if (single_precision) {
      ops.full_single = std::make_unique<WilsonOperator<float>>(*ops.links_single, p.wilson);
      ops.even_odd_single = std::make_unique<WilsonEvenOddOperator<float>>(*ops.links_single, p.wilson);
    }
  }
  if (block_rhs > 0) {
    if (clover)
      fail("solver.multi_rhs = true: the multi-RHS operator is Wilson or twisted mass without csw; set "
           "solver.multi_rhs = false for clover quarks");
    if (U.geometry().processes() > 1)
      fail("solver.multi_rhs = true: not yet on a lattice split over processes ({} here); set solver.multi_rhs = "
           "false, or run on one process",
           U.geometry().processes());
    // The links as they are (18 reals): a configuration read in single precision is SU(3) only to
    // ~1e-7, and 12-real links would rebuild a third row that differs by that much, a different
    // operator from `even_odd`, whose residual the propagator checks. With 12 rhs per link load the
    // 6 extra reals cost little.
    ops.even_odd_block = std::make_unique<WilsonEvenOddMultiRHS<double, 9>>(U, p.wilson, block_rhs);
    if (single_precision) {
      ops.links_block_single = std::make_unique<const GaugeField<float, 6>>(convert_links<float, 6>(U));
      ops.even_odd_block_single =
          std::make_unique<WilsonEvenOddMultiRHS<float, 6>>(*ops.links_block_single, p.wilson, block_rhs);
    }
    if (ops.links_half)
      ops.even_odd_block_half = std::make_unique<WilsonEvenOddMultiRHS<Half, 6>>(*ops.links_half, p.wilson, block_rhs);
  }
  return ops;
}

}  // namespace lqcd
