// The multigrid's outer solve with a single-precision cycle near the critical mass
// (solvers/multigrid/multigrid_solve.cpp). Where D's lowest eigenvalue is below float's resolution of D
// (|lambda| / ||D|| ~ 1e-8 at the 32^4 field's kappa = 0.1352), the cycle's float operator can have
// that eigenvalue with the wrong size or sign, and plain defect correction (x += e with e from the float
// solve) then multiplies that mode's residual by 1 - lambda / lambda_float each cycle: it stalls. Here
// that is made exact on a small lattice: the free Wilson operator on a periodic 4^4 lattice has its
// constant modes at 1 - 8 kappa (diagonal in momentum space, dirac/dirac_operator_factory.hpp); the
// true operator has 1 - 8 kappa = +1e-4, the cycle's float operator -1e-4. The flexible GCR in double
// around the float cycles meets 1e-10 on the true residual, with the answer of a double solve; plain
// defect correction (outer_double_restart = 0) does not.
#include <gtest/gtest.h>

#include <cmath>

#include "dirac/dirac_operator_factory.hpp"
#include "field_test_support.hpp"
#include "fields/spinor_blas.hpp"
#include "gauge/updates.hpp"
#include "solvers/multigrid/multigrid.hpp"
#include "test_support.hpp"

namespace lqcd {
namespace {

DiracOperators free_periodic(const GaugeField<double>& U, double one_minus_8kappa, SloppyPrecision sloppy) {
  FermionParams fp;
  fp.action = FermionAction::Wilson;
  fp.wilson.kappa = (1.0 - one_minus_8kappa) / 8.0;
  fp.wilson.boundary = FermionBoundary{{Complex<double>(1), Complex<double>(1), Complex<double>(1), Complex<double>(1)}};
  return make_dirac_operators(U, fp, sloppy);
}

MultigridParams small_params() {
  MultigridParams mp;
  mp.block = {2, 2, 2, 2};
  mp.test_vectors = 12;  // 2 x 12 chiral components: room for the 12 spin-colour constant modes
  mp.setup_iterations = 20;
  mp.adaptive_cycles = 1;
  return mp;
}

TEST(MultigridSinglePrecisionCycle, MeetsTheDoubleToleranceWhereTheFloatOperatorMissesTheLowestMode) {
  const Geometry geom = Geometry::single_process({4, 4, 4, 4});
  GaugeField<double> U(geom, Location::Host);
  set_unit_gauge(U);
  const DiracOperators truth = free_periodic(U, 1e-4, SloppyPrecision::None);
  const DiracOperators sloppy = free_periodic(U, -1e-4, SloppyPrecision::Single);
  const SpinorField<double> b = to_spinor_field(test::random_spinor(geom, 77), geom, Location::Host);
  SolverParams sp;
  sp.tolerance = 1e-10;
  sp.max_iterations = 300;

  MultigridParams mp = small_params();
  MultigridPreconditioner<double> exact(*truth.full, mp);
  exact.setup();
  SpinorField<double> want = truth.full->make_field();
  set_zero(want);
  ASSERT_TRUE(solve_multigrid(*truth.full, exact, want, b, sp).converged);

  MultigridPreconditioner<float> single(*sloppy.full_single, mp);
  single.setup();
  SpinorField<double> x = truth.full->make_field();
  set_zero(x);
  const SolverResult s = solve_multigrid(*truth.full, single, x, b, sp);
  EXPECT_TRUE(s.converged);
  SpinorField<double> r = truth.full->make_field();
  truth.full->apply(r, x);
  axpy(Complex<double>(-1.0), b, r);
  EXPECT_LE(std::sqrt(norm2(r) / norm2(b)), 1e-10);
  // Both answers are within 1e-10 / 1e-4 (the residual over the lowest eigenvalue) of the solution.
  axpy(Complex<double>(-1.0), want, x);
  EXPECT_LT(std::sqrt(norm2(x) / norm2(want)), 1e-5);

  // Plain defect correction: the constant modes' residual doubles each cycle.
  mp.outer_double_restart = 0;
  MultigridPreconditioner<float> plain(*sloppy.full_single, mp);
  plain.setup();
  SpinorField<double> y = truth.full->make_field();
  set_zero(y);
  bool converged = true;
  try {
    converged = solve_multigrid(*truth.full, plain, y, b, sp).converged;
  } catch (const SolverError&) {
    converged = false;
  }
  EXPECT_FALSE(converged) << "defect correction converged: the test no longer probes the float operator's error";
}

}  // namespace
}  // namespace lqcd
