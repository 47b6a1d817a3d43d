#include "dirac/dirac_operator_factory.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include "core/error.hpp"
#include "dirac/clover_even_odd.hpp"
#include "dirac/clover_operator.hpp"
#include "dirac/quark_time_boundary.hpp"
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
  std::optional<WilsonHoppingPart<Real>> hopping_part() const override { return M_->hopping_part(); }

 private:
  std::shared_ptr<const WilsonCloverOperator<Real>> M_;
};

void check_finite(double value, const char* name) {
  if (!std::isfinite(value)) fail("{}: must be a finite number (got {})", name, value);
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
  check_finite(p.wilson.kappa, "kappa");
  check_finite(p.wilson.mu, "mu");
  check_finite(p.csw, "csw");
  if (!(p.wilson.kappa > 0)) fail("kappa: must be positive (got {})", p.wilson.kappa);
  // kappa <= 0 is m0 <= -4 or infinite: the light mode is a doubler, which no run means (the operator
  // at -kappa is the one at kappa up to the sign (-1)^(x+y+z+t)). A negative c_sw is accepted: it is
  // unusual, not ill-defined.
  if (p.action == FermionAction::Wilson) {
    if (p.csw != 0)
      fail("csw = {} is set, but the Wilson action has no clover term (use the clover action)", p.csw);
    if (p.wilson.mu != 0)
      fail("mu = {} is set, but the Wilson action has no twisted mass (use the twisted-mass or the clover action)",
           p.wilson.mu);
  }
  if (p.clover_trace_kept && p.csw == 0)
    fail("clover_trace_kept is set, but there is no clover term (csw = 0): it changes only the clover term");
  check_finite(p.c_F, "c_F");
  if (p.c_F != 1.0 && !p.open_time)
    fail("c_F = {} is set, but c_F is the coefficient of open boundaries in time, which are not set", p.c_F);
  if (p.c_F != 1.0 && p.action != FermionAction::Clover)
    fail("c_F = {}: the boundary term lives in the clover action's site term; use the clover action (csw = 0 for "
         "Wilson quarks)",
         p.c_F);
}

std::optional<std::array<int, 4>> free_field_zero_mode(const WilsonParams& p, const Dims& dims) {
  if (p.mu != 0) return std::nullopt;
  // Which of p_mu = 0 and p_mu = pi the boundary phase allows in each direction.
  const auto is = [](Complex<double> phase, double value) {
    return std::abs(phase.re - value) < 1e-12 && std::abs(phase.im) < 1e-12;
  };
  std::array<bool, 4> zero{}, pi{};
  for (int mu = 0; mu < 4; ++mu) {
    zero[std::size_t(mu)] = is(p.boundary.phase[mu], 1.0);
    pi[std::size_t(mu)] = is(p.boundary.phase[mu], dims[std::size_t(mu)] % 2 == 0 ? 1.0 : -1.0);
  }
  const double m0 = p.mass();
  // The 16 corners of the Brillouin zone with every component in {0, pi}.
  for (int corner = 0; corner < 16; ++corner) {
    std::array<int, 4> mode{};
    int k = 0;
    bool allowed = true;
    for (int mu = 0; mu < 4; ++mu) {
      mode[std::size_t(mu)] = (corner >> mu) & 1;
      k += mode[std::size_t(mu)];
      allowed = allowed && (mode[std::size_t(mu)] ? pi[std::size_t(mu)] : zero[std::size_t(mu)]);
    }
    if (allowed && std::abs(m0 + 2 * k) <= 1e-12 * std::max(1.0, std::abs(m0))) return mode;
  }
  return std::nullopt;
}

void check_free_field_invertible(const WilsonParams& p, const Dims& dims) {
  check_finite(p.kappa, "kappa");
  const auto mode = free_field_zero_mode(p, dims);
  if (!mode) return;
  const auto component = [](int m) { return m ? "pi" : "0"; };
  fail("kappa = {:.17g} (m0 = {:.17g}) makes the free-field operator singular on {}: the momentum p = ({}, "
       "{}, {}, {}) is an exact zero mode with these boundary conditions (m0 = -2 x the number of components equal to "
       "pi); change kappa, give a twisted mass or change the boundary conditions",
       p.kappa, p.mass(), dims_string(dims), component((*mode)[0]), component((*mode)[1]), component((*mode)[2]),
       component((*mode)[3]));
}

DiracOperators make_dirac_operators(const GaugeField<double>& U, const FermionParams& p, SloppyPrecision sloppy,
                                    int block_rhs) {
  check_fermion_params(p);
  DiracOperators ops;
  const bool clover = p.action == FermionAction::Clover || (p.action == FermionAction::TwistedMass && p.csw != 0);
  const QuarkTimeBoundary boundary = quark_time_boundary(p.open_time, p.c_F, U.geometry());
  if (p.open_time) {
    if (U.geometry().global[kTimeDir] < 4)
      fail("open boundaries in time need at least 4 time slices (got {})", U.geometry().global[kTimeDir]);
    ops.links_open = std::make_unique<const GaugeField<double>>(quark_hopping_links(U, boundary));
  }
  // H: the links of the hops (the clover term is always computed from U itself)
  const GaugeField<double>& H = p.open_time ? *ops.links_open : U;
  const bool single_precision = sloppy == SloppyPrecision::Single;
  if (sloppy == SloppyPrecision::Half) {
    if (clover)
      fail("solver.precision = \"half\": implemented for the wilson and twisted_mass actions (without csw); use "
           "\"single\" with clover quarks");
    ops.links_half = std::make_unique<const GaugeField<Half, 6>>(convert_links<Half, 6>(H));
    ops.even_odd_half = std::make_unique<WilsonEvenOddOperator<Half, 6>>(*ops.links_half, p.wilson);
  }
  if (single_precision) ops.links_single = std::make_unique<const GaugeField<float>>(convert_precision<float>(H));
  if (clover) {
    auto M = std::make_shared<WilsonCloverOperator<double>>(U, p.wilson, p.csw, p.clover_trace_kept, &H, boundary);
    if (single_precision) {
      auto Ms = std::make_shared<WilsonCloverOperator<float>>(*ops.links_single, *M);
      ops.full_single = std::make_unique<SharedCloverOperator<float>>(Ms);
      ops.even_odd_single = std::make_unique<WilsonCloverEvenOddOperator<float>>(std::move(Ms));
    }
    ops.full = std::make_unique<SharedCloverOperator<double>>(M);
    ops.even_odd = std::make_unique<WilsonCloverEvenOddOperator<double>>(std::move(M));
  } else {
    ops.full = std::make_unique<WilsonOperator<double>>(H, p.wilson);
    ops.even_odd = std::make_unique<WilsonEvenOddOperator<double>>(H, p.wilson);
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
    ops.even_odd_block = std::make_unique<WilsonEvenOddMultiRHS<double, 9>>(H, p.wilson, block_rhs);
    if (single_precision) {
      ops.links_block_single = std::make_unique<const GaugeField<float, 6>>(convert_links<float, 6>(H));
      ops.even_odd_block_single =
          std::make_unique<WilsonEvenOddMultiRHS<float, 6>>(*ops.links_block_single, p.wilson, block_rhs);
    }
    if (ops.links_half)
      ops.even_odd_block_half = std::make_unique<WilsonEvenOddMultiRHS<Half, 6>>(*ops.links_half, p.wilson, block_rhs);
  }
  return ops;
}

}  // namespace lqcd
