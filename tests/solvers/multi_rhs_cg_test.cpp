// The multi-RHS CG (solvers/krylov/multi_rhs_cg.hpp) on a rough gauge field: every right-hand side meets the
// tolerance on its own normal equations, recomputed here with the one-field operators; each takes the
// iterations its own one-field CG takes (the same iteration, up to the summation order); a zero source
// gives zero; mixed single and half precision reach the double tolerance; the iteration limit and
// wrong shapes are errors; the stream-resident cycles (LQCD_STREAM_RESIDENT=1, and on the device by
// default) give the host loop's iterates bit for bit. Host and device.
#include <gtest/gtest.h>

#include <cmath>
#include <algorithm>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include "dirac/wilson_even_odd.hpp"
#include "dirac/wilson_even_odd_multi_rhs.hpp"
#include "field_test_support.hpp"
#include "fields/spinor_block_blas.hpp"
#include "fields/spinor_block_field.hpp"
#include "solvers/krylov/multi_rhs_cg.hpp"
#include "solvers/solver.hpp"
#include "test_support.hpp"

namespace lqcd {
namespace {

class MultiRhsCgTest : public ::testing::TestWithParam<Location> {};

struct BlockProblem {
  Geometry geom = Geometry::single_process({4, 4, 4, 8});
  Location loc;
  GaugeField<double> U;
  WilsonParams prm;
  BlockProblem(Location where, double mu) : loc(where), U(test::rough_gauge(geom, where)) {
    prm.kappa = 0.124;
    prm.mu = mu;
  }
  // n random even-site sources; source `zero` (if in range) is zero.
  std::vector<SpinorField<double>> sources(int n, int zero = -1) const {
    std::vector<SpinorField<double>> b = test::random_fields<double>(geom, loc, Subset::Even, n, 500);
    if (zero >= 0 && zero < n) set_zero(b[std::size_t(zero)]);
    return b;
  }
};

// ||b - M^dag M x|| / ||b|| with the one-field operator.
double normal_residual(const LinearOperator<double>& M, const SpinorField<double>& x, const SpinorField<double>& b) {
  const NormalOperator<double> A(M);
  return test::relative_residual(A, x, b);
}

SpinorBlockField<double> packed(const std::vector<SpinorField<double>>& fields) {
  SpinorBlockField<double> b(fields[0].geometry(), fields[0].location(), int(fields.size()), fields[0].subset());
  pack_rhs<double>(b, fields);
  return b;
}

SpinorField<double> rhs_of(const SpinorBlockField<double>& block, int j) {
  SpinorField<double> f(block.geometry(), block.location(), block.subset());
  unpack_rhs(f, block, j);
  return f;
}

TEST_P(MultiRhsCgTest, EveryRhsSolvesItsNormalEquationsInItsOwnIterations) {
  for (double mu : {0.0, 0.03}) {
    const BlockProblem problem(GetParam(), mu);
    const GaugeField<double, 6> U6 = convert_links<double, 6>(problem.U);
    const int n = 4;
    const WilsonEvenOddMultiRHS<double, 6> Mb(U6, problem.prm, n);
    const WilsonEvenOddOperator<double, 6> M(U6, problem.prm);
    const std::vector<SpinorField<double>> b = problem.sources(n, 2);
    const SpinorBlockField<double> bb = packed(b);
    SpinorBlockField<double> xb = Mb.make_block();
    set_zero(xb);
    SolverParams p;
    p.tolerance = 1e-10;
    const SolverResult r = solve_normal_multi_rhs(Mb, xb, bb, p);
    EXPECT_TRUE(r.converged);
    ASSERT_EQ(r.rhs_iterations.size(), std::size_t(n));
    ASSERT_EQ(r.rhs_true_residuals.size(), std::size_t(n));
    for (int j = 0; j < n; ++j) {
      SCOPED_TRACE("mu " + std::to_string(mu) + ", rhs " + std::to_string(j));
      const SpinorField<double> x = rhs_of(xb, j);
      if (j == 2) {  // the zero source
        EXPECT_EQ(norm2(x), 0.0);
        EXPECT_EQ(r.rhs_iterations[2], 0);
        continue;
      }
      const double res = normal_residual(M, x, b[std::size_t(j)]);
      EXPECT_LE(res, 1e-10);
      EXPECT_NEAR(r.rhs_true_residuals[std::size_t(j)], res, 0.01 * res);
      // The one-field CG on the same system (solve_hermitian on M^dag M).
      const NormalOperator<double> A(M);
      SpinorField<double> x1 = M.make_field();
      set_zero(x1);
      const SolverResult one = solve_hermitian(A, x1, b[std::size_t(j)], p);
      EXPECT_LE(std::abs(r.rhs_iterations[std::size_t(j)] - one.iterations), 1)
          << "multi-RHS " << r.rhs_iterations[std::size_t(j)] << ", one-field " << one.iterations;
      EXPECT_LE(test::relative_difference(x, x1), 1e-8);
      EXPECT_GT(r.rhs_iterations[std::size_t(j)], 10);
    }
    EXPECT_EQ(r.iterations, *std::max_element(r.rhs_iterations.begin(), r.rhs_iterations.end()));
  }
}

template <typename Sloppy>
void expect_mixed_meets_double_tolerance(Location loc) {
  const BlockProblem problem(loc, 0.0);
  const GaugeField<double, 6> U6 = convert_links<double, 6>(problem.U);
  const GaugeField<Sloppy, 6> Us = convert_links<Sloppy, 6>(problem.U);
  const int n = 3;
  const WilsonEvenOddMultiRHS<double, 6> Mb(U6, problem.prm, n);
  const WilsonEvenOddMultiRHS<Sloppy, 6> Ms(Us, problem.prm, n);
  const WilsonEvenOddOperator<double, 6> M(U6, problem.prm);
  const std::vector<SpinorField<double>> b = problem.sources(n);
  SpinorBlockField<double> xb = Mb.make_block();
  set_zero(xb);
  SolverParams p;
  p.tolerance = 1e-10;
  p.precision = is_fixed_point_v<Sloppy> ? SolverPrecision::Half : SolverPrecision::Single;
  const SolverResult r = solve_normal_multi_rhs_mixed(Mb, Ms, xb, packed(b), p);
  EXPECT_TRUE(r.converged);
  EXPECT_GE(r.corrections, 2) << "each correction gains at most the inner tolerance";
  for (int j = 0; j < n; ++j)
    EXPECT_LE(normal_residual(M, rhs_of(xb, j), b[std::size_t(j)]), 1e-10) << precision_name<Sloppy>() << ", rhs " << j;
}

TEST_P(MultiRhsCgTest, MixedPrecisionReachesTheDoubleTolerance) {
  expect_mixed_meets_double_tolerance<float>(GetParam());
  expect_mixed_meets_double_tolerance<Half>(GetParam());
}

TEST_P(MultiRhsCgTest, TheIterationLimitAndWrongShapesAreErrors) {
  const BlockProblem problem(GetParam(), 0.0);
  const GaugeField<double, 6> U6 = convert_links<double, 6>(problem.U);
  const WilsonEvenOddMultiRHS<double, 6> Mb(U6, problem.prm, 2);
  const SpinorBlockField<double> b = packed(problem.sources(2));
  SpinorBlockField<double> x = Mb.make_block();
  set_zero(x);
  SolverParams p;
  p.max_iterations = 5;
  std::string e = test::error_of([&] { solve_normal_multi_rhs(Mb, x, b, p); });
  EXPECT_NE(e.find("not converged in 5 iterations"), std::string::npos) << e;
  SpinorBlockField<double> three(problem.geom, problem.loc, 3, Subset::Even);
  p.max_iterations = 100;
  e = test::error_of([&] { solve_normal_multi_rhs(Mb, three, b, p); });
  EXPECT_NE(e.find("does not have the operator's shape"), std::string::npos) << e;
}

// A block operator that only forwards apply and apply_dagger: the solver then takes BlockOperator's
// unfused steps (apply, then the block BLAS's norms and axpy) instead of the fused hopping kernels.
template <typename Real>
class ForwardingBlockOperator : public BlockOperator<Real> {
 public:
  explicit ForwardingBlockOperator(const BlockOperator<Real>& M) : M_(M) {}
  void apply(SpinorBlockField<Real>& out, const SpinorBlockField<Real>& in) const override { M_.apply(out, in); }
  void apply_dagger(SpinorBlockField<Real>& out, const SpinorBlockField<Real>& in) const override {
    M_.apply_dagger(out, in);
  }
  Subset subset() const override { return M_.subset(); }
  const Geometry& geometry() const override { return M_.geometry(); }
  Location location() const override { return M_.location(); }
  int rhs() const override { return M_.rhs(); }
  double flops_per_site() const override { return M_.flops_per_site(); }

 private:
  const BlockOperator<Real>& M_;
};

// A solve from x = 0 with LQCD_STREAM_RESIDENT = setting (nullptr: unset): its result or error, and x.
struct BlockOutcome {
  SolverResult result;
  std::string error;
  std::vector<SpinorField<double>> x;
};
template <typename Solve>
BlockOutcome block_solve_with(const char* setting, const BlockOperator<double>& M, Solve&& solve) {
  const test::ScopedEnv env("LQCD_STREAM_RESIDENT", setting ? setting : "");  // "": as if unset
  SpinorBlockField<double> x = M.make_block();
  set_zero(x);
  BlockOutcome o;
  try {
    o.result = solve(x);
  } catch (const SolverError& e) {
    o.error = e.what();
    o.result = e.result();
  }
  for (int j = 0; j < M.rhs(); ++j) o.x.push_back(rhs_of(x, j));
  return o;
}

void expect_same(const BlockOutcome& host_loop, const BlockOutcome& resident) {
  EXPECT_EQ(host_loop.error, resident.error);
  EXPECT_EQ(host_loop.result.converged, resident.result.converged);
  EXPECT_EQ(host_loop.result.iterations, resident.result.iterations);
  EXPECT_EQ(host_loop.result.corrections, resident.result.corrections);
  EXPECT_EQ(host_loop.result.rhs_iterations, resident.result.rhs_iterations);
  EXPECT_EQ(host_loop.result.rhs_true_residuals, resident.result.rhs_true_residuals);
  EXPECT_EQ(host_loop.result.residual_history, resident.result.residual_history);
  EXPECT_GT(host_loop.result.flops, 0.0);
  EXPECT_EQ(host_loop.result.flops, resident.result.flops);
  for (std::size_t j = 0; j < host_loop.x.size(); ++j) {
    SpinorField<double> d = resident.x[j].clone(resident.x[j].location());
    axpy(Complex<double>(-1.0), host_loop.x[j], d);
    EXPECT_EQ(norm2(d), 0.0) << "rhs " << j;
  }
}

TEST_P(MultiRhsCgTest, StreamResidentCyclesGiveTheHostLoopsIteratesBitForBit) {
  const Location loc = GetParam();
  const BlockProblem problem(loc, 0.03);
  const GaugeField<double, 6> U6 = convert_links<double, 6>(problem.U);
  const GaugeField<float, 6> Us = convert_links<float, 6>(problem.U);
  const GaugeField<Half, 6> Uh = convert_links<Half, 6>(problem.U);
  const int n = 4;
  const WilsonEvenOddMultiRHS<double, 6> Mb(U6, problem.prm, n);
  const ForwardingBlockOperator<double> unfused(Mb);
  const WilsonEvenOddMultiRHS<float, 6> Ms(Us, problem.prm, n);
  const WilsonEvenOddMultiRHS<Half, 6> Mh(Uh, problem.prm, n);
  const SpinorBlockField<double> b = packed(problem.sources(n, 1));  // rhs 1: a zero source
  SolverParams p;
  p.tolerance = 1e-10;
  SolverParams limited = p;
  limited.max_iterations = 7;
  SolverParams single = p, half = p;
  single.precision = SolverPrecision::Single;
  half.precision = SolverPrecision::Half;
  struct Case {
    const char* what;
    const BlockOperator<double>* M;
    std::function<SolverResult(SpinorBlockField<double>&)> solve;
  };
  const std::vector<Case> cases = {
      {"double, fused", &Mb, [&](SpinorBlockField<double>& x) { return solve_normal_multi_rhs(Mb, x, b, p); }},
      {"double, unfused", &unfused, [&](SpinorBlockField<double>& x) { return solve_normal_multi_rhs(unfused, x, b, p); }},
      {"iteration limit", &Mb, [&](SpinorBlockField<double>& x) { return solve_normal_multi_rhs(Mb, x, b, limited); }},
      {"double/single", &Mb,
       [&](SpinorBlockField<double>& x) { return solve_normal_multi_rhs_mixed(Mb, Ms, x, b, single); }},
      {"double/half", &Mb, [&](SpinorBlockField<double>& x) { return solve_normal_multi_rhs_mixed(Mb, Mh, x, b, half); }},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    const BlockOutcome host_loop = block_solve_with("0", *c.M, c.solve);
    if (std::string(c.what) == "iteration limit")
      EXPECT_NE(host_loop.error.find("not converged in 7 iterations"), std::string::npos) << host_loop.error;
    else
      EXPECT_TRUE(host_loop.result.converged) << host_loop.error;
    std::vector<const char*> settings = {"1"};
    if (loc == Location::Device) settings.push_back(nullptr);  // resident by default
    for (const char* setting : settings) {
      SCOPED_TRACE(setting ? "LQCD_STREAM_RESIDENT=1" : "unset");
      expect_same(host_loop, block_solve_with(setting, *c.M, c.solve));
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Locations, MultiRhsCgTest, ::testing::ValuesIn(test::locations()),
                         [](const auto& info) { return info.param == Location::Host ? "Host" : "Device"; });

}  // namespace
}  // namespace lqcd
