// The multigrid on N right-hand sides at once (issue 46; solvers/multigrid/multigrid_block_cycle.cpp and the
// block solve_multigrid): every right-hand side meets the double-precision tolerance on its true
// residual (recomputed here with the fine operator), its answer equals the one-at-a-time solve's to
// the accuracy the tolerance allows, in about the same number of outer iterations, a zero source gives
// zero, and the coarse systems were solved as blocks (single- and double-precision cycles, 8^4 clover);
// and one block cycle gives each right-hand side the correction of its own cycle.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "dirac/dirac_operator_factory.hpp"
#include "field_test_support.hpp"
#include "fields/spinor_blas.hpp"
#include "solvers/multigrid/multigrid.hpp"
#include "test_support.hpp"

namespace lqcd {
namespace {

template <typename Sloppy>
void block_equals_single(Location loc) {
  const Geometry geom = Geometry::single_process({8, 8, 8, 8});
  const GaugeField<double> U = test::rough_gauge(geom, loc);
  FermionParams fp;
  fp.action = FermionAction::Clover;
  fp.wilson.kappa = 0.17;  // near enough to critical on this rough field for 20 outer iterations
  fp.csw = 1.0;
  const bool single = std::is_same_v<Sloppy, float>;
  const DiracOperators ops = make_dirac_operators(U, fp, single ? SloppyPrecision::Single : SloppyPrecision::None);
  const LinearOperator<Sloppy>* cycle_op = nullptr;
  if constexpr (std::is_same_v<Sloppy, float>)
    cycle_op = ops.full_single.get();
  else
    cycle_op = ops.full.get();
  MultigridParams mp;
  mp.block = {4, 4, 4, 4};
  mp.test_vectors = 8;
  mp.setup_iterations = 20;
  mp.adaptive_cycles = 1;
  mp.coarse_half = single;
  MultigridPreconditioner<Sloppy> mg(*cycle_op, mp);
  mg.setup();
  SolverParams sp;
  sp.tolerance = 1e-10;
  sp.max_iterations = 200;

  const int n = loc == Location::Device ? 12 : 4;  // 12: a point source's spins and colours
  std::vector<SpinorField<double>> b, x;
  for (int i = 0; i < n; ++i) {
    b.push_back(to_spinor_field(test::random_spinor(geom, 40 + std::uint64_t(i)), geom, loc));
    x.push_back(ops.full->make_field());
    set_zero(x.back());
  }
  set_zero(b[2]);
  mg.reset_solve_timings();
  const std::vector<SolverResult> got = solve_multigrid(*ops.full, mg, x, b, sp);
  ASSERT_EQ(got.size(), std::size_t(n));
  EXPECT_GT(mg.timings().coarse_block_solves, 0) << "the coarse systems were not solved as blocks";
  for (int i = 0; i < n; ++i) {
    SCOPED_TRACE("right-hand side " + std::to_string(i));
    const SolverResult& r = got[std::size_t(i)];
    EXPECT_TRUE(r.converged);
    if (i == 2) {
      EXPECT_EQ(norm2(x[2]), 0.0);
      EXPECT_EQ(r.iterations, 0);
      continue;
    }
    EXPECT_LE(test::relative_residual(*ops.full, x[std::size_t(i)], b[std::size_t(i)]), 1e-10);
    SpinorField<double> y = ops.full->make_field();
    set_zero(y);
    const SolverResult one = solve_multigrid(*ops.full, mg, y, b[std::size_t(i)], sp);
    EXPECT_GT(one.iterations, 3);
    EXPECT_LE(std::abs(r.iterations - one.iterations), 1) << "block " << r.iterations << ", single " << one.iterations;
    axpy(Complex<double>(-1.0), x[std::size_t(i)], y);
    EXPECT_LE(std::sqrt(norm2(y) / norm2(x[std::size_t(i)])), 1e-7);
  }
}

// One block cycle against single cycles, with the coarse systems solved to 1e-12 in double: the same
// corrections to 1e-9 for every right-hand side (the cycle itself, apart from the outer solver).
// Three levels: the K-cycle's flexible GCR and the third-level GCR each held to 3 iterations (their
// tolerances out of reach) and 2 MR steps after the third-level correction, so that the correction
// depends on K_c itself: the block K_c (block third-level solve, block transfers, block MR; with
// `deflated`, the third-level solves deflated as the single cycle's) must equal the single one.
// direct: the third level solved by its dense inverse (solvers/multigrid/coarse_direct_solve.hpp) instead.
void block_cycle_equals_single_cycles(Location loc, int levels, bool deflated = false, bool direct = false) {
  const Geometry geom = Geometry::single_process({8, 8, 8, 8});
  const GaugeField<double> U = test::rough_gauge(geom, loc);
  FermionParams fp;
  fp.action = FermionAction::Clover;
  fp.wilson.kappa = 0.17;
  fp.csw = 1.0;
  const DiracOperators ops = make_dirac_operators(U, fp);
  MultigridParams mp;
  mp.block = {4, 4, 4, 4};
  mp.test_vectors = 8;
  mp.setup_iterations = 10;
  mp.adaptive_cycles = 0;
  mp.coarse_tolerance = 1e-12;
  mp.coarse_max_iterations = 500;
  if (levels == 3) {
    mp.levels = 3;
    mp.block = {2, 2, 2, 2};  // coarse 4^4, third level 2^4
    mp.coarse_test_vectors = 8;
    mp.coarse_setup_iterations = 10;
    mp.coarse_tolerance = 1e-14;
    mp.coarse_max_iterations = 3;
    mp.coarsest_tolerance = 1e-14;
    mp.coarsest_max_iterations = 3;
    mp.coarse_smoothing = 2;
    mp.coarse_deflation = deflated;
    mp.coarsest_direct_max = direct ? 8192 : 0;
  }
  MultigridPreconditioner<double> mg(*ops.full, mp);
  mg.setup();
  EXPECT_EQ(mg.info().coarsest_direct, direct);
  const int n = loc == Location::Device ? 12 : 3;
  std::vector<SpinorField<double>> r, z;
  std::vector<SpinorField<double>*> zp;
  std::vector<const SpinorField<double>*> rp;
  for (int i = 0; i < n; ++i) {
    r.push_back(to_spinor_field(test::random_spinor(geom, 60 + std::uint64_t(i)), geom, loc));
    z.push_back(ops.full->make_field());
  }
  for (int i = 0; i < n; ++i) {
    zp.push_back(&z[std::size_t(i)]);
    rp.push_back(&r[std::size_t(i)]);
  }
  mg.apply(zp, rp);
  EXPECT_EQ(mg.timings().coarse_block_solves, 1);
  SpinorField<double> want = ops.full->make_field();
  for (int i = 0; i < n; ++i) {
    mg.apply(want, r[std::size_t(i)]);
    axpy(Complex<double>(-1.0), z[std::size_t(i)], want);
    EXPECT_LE(std::sqrt(norm2(want) / norm2(z[std::size_t(i)])), 1e-9) << "right-hand side " << i;
  }
}

class MultigridBlockTest : public ::testing::TestWithParam<Location> {};

TEST_P(MultigridBlockTest, EveryRightHandSideMeetsItsToleranceAndEqualsItsSingleSolve) {
  block_equals_single<float>(GetParam());
  block_equals_single<double>(GetParam());
}

TEST_P(MultigridBlockTest, BlockCycleEqualsSingleCycles) { block_cycle_equals_single_cycles(GetParam(), 2); }

TEST_P(MultigridBlockTest, ThreeLevelBlockCycleEqualsSingleCycles) { block_cycle_equals_single_cycles(GetParam(), 3); }

TEST_P(MultigridBlockTest, DeflatedThreeLevelBlockCycleEqualsSingleCycles) {
  block_cycle_equals_single_cycles(GetParam(), 3, true);
}

TEST_P(MultigridBlockTest, DirectThreeLevelBlockCycleEqualsSingleCycles) {
  block_cycle_equals_single_cycles(GetParam(), 3, false, true);
}

INSTANTIATE_TEST_SUITE_P(Locations, MultigridBlockTest, ::testing::ValuesIn(test::locations()),
                         [](const auto& info) { return std::string(to_string(info.param)); });

}  // namespace
}  // namespace lqcd
