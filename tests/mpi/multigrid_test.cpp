// The multigrid on a decomposed lattice (issue 27: "a two-process run gives the same iterations as one
// process"): the fine level split like the gauge field, the coarse levels whole on every rank
// (solvers/multigrid/coarse_agglomeration.hpp), or split like the fine one (coarse_distributed). Run under mpirun -np 2 and -np 4 by ctest (mpi_np2, mpi_np4).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "comm/communicator.hpp"
#include "comm/process_grid.hpp"
#include "dirac/dirac_operator_factory.hpp"
#include "field_test_support.hpp"
#include "mpi_grids.hpp"
#include "solvers/multigrid/multigrid.hpp"
#include "solvers/multigrid/schwarz_smoother.hpp"
#include "test_support.hpp"

namespace lqcd {
namespace {

const Dims kGlobal{8, 8, 8, 8};
const Dims kBlock{2, 2, 2, 2};

// The run's grids whose every local box the blocks tile into an even number (>= 2) of blocks per
// direction (what the Schwarz smoother's red-black colouring needs).
std::vector<Dims> multigrid_grids(const Dims& global = kGlobal) {
  std::vector<Dims> out;
  for (const Dims& grid : test::mpi_grids()) {
    bool fits = true;
    for (std::size_t mu = 0; mu < 4; ++mu) fits = fits && (global[mu] / grid[mu]) % (2 * kBlock[mu]) == 0;
    if (fits) out.push_back(grid);
  }
  return out;
}

std::vector<Complex<double>> blocks_on_host(const CoarseOperator<double>& A) {
  std::vector<Complex<double>> v(std::size_t(kStencilDirections) * std::size_t(A.lattice().sites) *
                                 std::size_t(A.dof() * A.dof()));
  detail::copy_bytes(v.data(), Location::Host, A.view().a, A.location(), v.size() * sizeof(Complex<double>));
  return v;
}

class DistributedMultigrid : public test::DistributedTest {};

FermionParams clover() {
  FermionParams p;
  p.action = FermionAction::Clover;
  p.wilson.kappa = 0.1255;
  p.csw = 1.0;
  return p;
}

MultigridParams small_params() {
  MultigridParams mp;
  mp.block = kBlock;
  mp.test_vectors = 6;
  mp.setup_iterations = 10;
  mp.adaptive_cycles = 1;
  mp.post_smoothing = 2;
  return mp;
}

// small_params with the random test vectors as they start (no setup iterations or adaptive cycles): the
// same on one process and on ranks, whatever the solves in between.
MultigridParams random_vector_params() {
  MultigridParams mp = small_params();
  mp.setup_iterations = 0;
  mp.adaptive_cycles = 0;
  return mp;
}

// The hierarchy of D from mp with the coarse level gathered whole onto every process, and with it split over
// them (coarse_distributed), both set up.
std::pair<std::unique_ptr<MultigridPreconditioner<double>>, std::unique_ptr<MultigridPreconditioner<double>>>
gathered_and_split(const LinearOperator<double>& D, const MultigridParams& mp) {
  auto gathered = std::make_unique<MultigridPreconditioner<double>>(D, mp);
  gathered->setup();
  MultigridParams split_params = mp;
  split_params.coarse_distributed = true;
  auto split = std::make_unique<MultigridPreconditioner<double>>(D, split_params);
  split->setup();
  return {std::move(gathered), std::move(split)};
}

// From the same (unimproved) random test vectors, the whole coarse operator gathered from the ranks'
// rows, each built by probing with the distributed operator, equals the single-process one built from
// the links, block by block.
TEST_P(DistributedMultigrid, GatheredCoarseOperatorEqualsTheSingleProcessOne) {
  const Location loc = GetParam();
  const Geometry whole = Geometry::single_process(kGlobal);
  const LexicographicGauge links = to_lexicographic(test::rough_gauge(whole, Location::Host));
  const MultigridParams mp = random_vector_params();
  const auto coarse_blocks = [&](const Geometry& g) {
    const GaugeField<double> U = to_gauge_field(links, g, loc);
    const DiracOperators d = make_dirac_operators(U, clover());
    MultigridPreconditioner<double> mg(*d.full, mp);
    mg.setup();
    EXPECT_EQ(mg.info().coarse, (Dims{4, 4, 4, 4}));
    return blocks_on_host(mg.coarse_operator());
  };
  const std::vector<Complex<double>> ref = coarse_blocks(whole);
  double scale = 0;
  for (const auto& z : ref) scale = std::max(scale, std::abs(z.re) + std::abs(z.im));
  for (const Dims& grid : multigrid_grids()) {
    SCOPED_TRACE(dims_string(grid));
    const std::vector<Complex<double>> got = coarse_blocks(ProcessGrid::of_run(grid).decompose(kGlobal));
    ASSERT_EQ(got.size(), ref.size());
    double worst = 0;
    for (std::size_t i = 0; i < ref.size(); ++i)
      worst = std::max(worst, std::abs(got[i].re - ref[i].re) + std::abs(got[i].im - ref[i].im));
    EXPECT_LT(worst, 1e-12 * scale);
  }
}

// The Schwarz smoother on each process's blocks (block operators from the links, hops across a process
// boundary left out: they always leave the block) equals the single-process smoother.
TEST_P(DistributedMultigrid, SchwarzSmootherEqualsTheSingleProcessOne) {
  const Location loc = GetParam();
  const Geometry whole = Geometry::single_process(kGlobal);
  const LexicographicGauge links = to_lexicographic(test::rough_gauge(whole, Location::Host));
  const LexicographicSpinor src = test::random_spinor(whole, 41);
  const auto smoothed = [&](const Geometry& g) {
    const GaugeField<double> U = to_gauge_field(links, g, loc);
    const DiracOperators d = make_dirac_operators(U, clover());
    EXPECT_TRUE(d.full->hopping_part().has_value());
    const AggregationTables tables(Aggregation::make(g, kBlock, "block"), loc);
    SchwarzSmoother<double> sap(*d.full, tables.aggregation(), 4);
    SpinorField<double> e = d.full->make_field();
    sap.smooth(e, to_spinor_field(src, g, loc), 2);
    return to_lexicographic(e);
  };
  const LexicographicSpinor ref = smoothed(whole);
  for (const Dims& grid : multigrid_grids()) {
    SCOPED_TRACE(dims_string(grid));
    EXPECT_LT(test::max_diff(smoothed(ProcessGrid::of_run(grid).decompose(kGlobal)), ref), 1e-13 * test::max_norm(ref));
  }
}

// The whole solve with mp, the cycle in single precision, on one process and on each grid of the run: the
// same outer iterations and coarse iterations, and the same solution to the tolerance. Returns the
// single-process run's levels and coarse iterations.
struct SolveOutcome {
  SolverResult result;
  long long coarse_iterations;
  int levels;
  LexicographicSpinor x;
};
SolveOutcome expect_ranks_solve_as_one_process(Location loc, const MultigridParams& mp, std::uint64_t seed,
                                               const std::string& what) {
  const Geometry whole = Geometry::single_process(kGlobal);
  const LexicographicGauge links = to_lexicographic(test::rough_gauge(whole, Location::Host));
  const LexicographicSpinor src = test::random_spinor(whole, seed);
  SolverParams sp;
  sp.tolerance = 1e-10;
  sp.max_iterations = 200;
  const auto solve_on = [&](const Geometry& g) {
    const GaugeField<double> U = to_gauge_field(links, g, loc);
    const DiracOperators d = make_dirac_operators(U, clover(), SloppyPrecision::Single);
    MultigridPreconditioner<float> mg(*d.full_single, mp);
    mg.setup();
    mg.reset_solve_timings();
    const SpinorField<double> b = to_spinor_field(src, g, loc);
    SpinorField<double> x = d.full->make_field();
    set_zero(x);
    const SolverResult r = solve_multigrid(*d.full, mg, x, b, sp);
    EXPECT_LE(test::relative_residual(*d.full, x, b), sp.tolerance);
    return SolveOutcome{r, mg.timings().coarse_iterations, mg.info().levels, to_lexicographic(x)};
  };
  const SolveOutcome ref = solve_on(whole);
  for (const Dims& grid : multigrid_grids()) {
    SCOPED_TRACE(dims_string(grid) + ", " + what);
    const SolveOutcome o = solve_on(ProcessGrid::of_run(grid).decompose(kGlobal));
    EXPECT_TRUE(o.result.converged);
    EXPECT_EQ(o.levels, ref.levels);
    EXPECT_EQ(o.result.iterations, ref.result.iterations);
    EXPECT_EQ(o.coarse_iterations, ref.coarse_iterations);
    EXPECT_LT(test::max_diff(o.x, ref.x), 1e-8 * test::max_norm(ref.x));
  }
  return ref;
}

// Two and three levels, the coarse levels whole on every process.
TEST_P(DistributedMultigrid, SolvesTakeTheSingleProcessIterations) {
  for (const int levels : {2, 3}) {
    MultigridParams mp = small_params();
    mp.levels = levels;
    mp.coarse_test_vectors = 4;
    mp.coarse_setup_iterations = 10;
    EXPECT_EQ(expect_ranks_solve_as_one_process(GetParam(), mp, 31, std::to_string(levels) + " levels").levels, levels);
  }
}

// The coarse level split over the processes (coarse_distributed, solvers/multigrid/coarse_halo.hpp): each
// process's rows of D_c applied to its part of a coarse field, the hops across the process boundaries from
// the exchanged faces, equal the whole operator's rows (gathered on the same grid from the same test
// vectors) applied to the whole field. The same terms in the same order: equal to rounding of 1e-14.
TEST_P(DistributedMultigrid, SplitCoarseOperatorAppliesAsTheWholeOne) {
  const Location loc = GetParam();
  const Geometry whole = Geometry::single_process(kGlobal);
  const LexicographicGauge links = to_lexicographic(test::rough_gauge(whole, Location::Host));
  const MultigridParams mp = random_vector_params();
  for (const Dims& grid : multigrid_grids()) {
    SCOPED_TRACE(dims_string(grid));
    const Geometry g = ProcessGrid::of_run(grid).decompose(kGlobal);
    const GaugeField<double> U = to_gauge_field(links, g, loc);
    const DiracOperators d = make_dirac_operators(U, clover());
    const auto [gathered_mg, split_mg] = gathered_and_split(*d.full, mp);
    MultigridPreconditioner<double>& gathered = *gathered_mg;
    MultigridPreconditioner<double>& split = *split_mg;
    EXPECT_TRUE(split.info().coarse_distributed);
    const CoarseOperator<double>& A = gathered.coarse_operator();
    const CoarseOperator<double>& B = split.coarse_operator();
    ASSERT_TRUE(B.distributed());
    ASSERT_EQ(A.lattice().sites, B.lattice().sites * std::int64_t(process_count(grid)));
    const int dof = A.dof();
    const CoarseField<double> v = test::random_coarse(A.lattice(), dof, loc, 77);  // the same on every rank
    // This process's sites of a whole field: coarse coordinates offset by the fine offset / block.
    const CoarseLattice part = B.lattice();
    const auto part_of = [&](const CoarseField<double>& f) {
      const CoarseField<double> h = f.clone(Location::Host);
      CoarseField<double> p(part, dof, Location::Host, grid);
      for (std::int64_t s = 0; s < part.sites; ++s) {
        int x[4];
        part.coords(s, x);
        for (int mu = 0; mu < 4; ++mu) x[mu] += g.offset[std::size_t(mu)] / kBlock[std::size_t(mu)];
        for (int k = 0; k < dof; ++k) p.view().at(s, k) = h.view().at(A.lattice().lex(x), k);
      }
      return p;
    };
    const auto worst_relative = [](const CoarseField<double>& got_field, const CoarseField<double>& ref) {
      const CoarseField<double> got = got_field.clone(Location::Host);
      double worst = 0, scale = 0;
      for (std::int64_t i = 0; i < got.size(); ++i) {
        const Complex<double> a = got.view().data[i], b = ref.view().data[i];
        worst = std::max(worst, std::abs(a.re - b.re) + std::abs(a.im - b.im));
        scale = std::max(scale, std::abs(b.re) + std::abs(b.im));
      }
      return worst / scale;
    };
    CoarseField<double> Av = A.make_field();
    A.apply(Av, v);
    const CoarseField<double> in = part_of(v).clone(loc);
    CoarseField<double> out = B.make_field();
    B.apply(out, in);
    EXPECT_LT(worst_relative(out, part_of(Av)), 1e-14);
    // The even-odd form on the split level (each parity pass exchanging its input's faces) likewise.
    ASSERT_NE(gathered.coarse_schur(), nullptr);
    ASSERT_NE(split.coarse_schur(), nullptr);
    CoarseField<double> Sv = A.make_field(), Sin = B.make_field();
    gathered.coarse_schur()->apply(Sv, v);
    split.coarse_schur()->apply(Sin, in);
    EXPECT_LT(worst_relative(Sin, part_of(Sv)), 1e-13);
    // The reductions of the split fields sum over the processes: |v|^2 of the parts is the whole one's, and
    // the coarse GCR's Gram-Schmidt leaves D_c v orthogonal to v over the whole lattice.
    EXPECT_NEAR(norm2(in), norm2(v), 1e-12 * norm2(v));
    std::vector<CoarseField<double>> q, z;
    q.push_back(in.clone(loc));
    q.push_back(out.clone(loc));
    z.push_back(in.clone(loc));
    z.push_back(out.clone(loc));
    lqcd::scale(Complex<double>(1.0 / std::sqrt(norm2(q[0]))), q[0]);  // the earlier directions are orthonormal
    gcr_orthogonalise(q, z, 1);
    EXPECT_LT(std::abs(dot(q[0], q[1]).re) + std::abs(dot(q[0], q[1]).im), 1e-12 * std::sqrt(norm2(out)));
  }
}

// A third level below the split second one: each process's rows of D_cc = P_c^dag D_c P_c, the hops of D_c
// across the process boundaries reading the neighbours' test vectors from the exchanged faces, gathered
// whole, equal D_cc built from the whole (gathered) D_c with the same test vectors. Blocks that never
// leave their process and the same sums in the same order: equal to rounding.
TEST_P(DistributedMultigrid, SplitSecondLevelGivesTheWholeThirdLevel) {
  const Location loc = GetParam();
  MultigridParams mp = random_vector_params();
  mp.test_vectors = 4;
  mp.levels = 3;
  mp.coarse_test_vectors = 4;
  mp.coarse_setup_iterations = 0;  // the random second-level vectors, the same for any split
  // 8^4: one third-level block per process in a split direction; 8^3 x 16: two along t (hops between
  // blocks inside a process as well as across the boundary).
  for (const Dims& global : {kGlobal, Dims{8, 8, 8, 16}}) {
    const Geometry whole = Geometry::single_process(global);
    const LexicographicGauge links = to_lexicographic(test::rough_gauge(whole, Location::Host));
    for (const Dims& grid : multigrid_grids(global)) {
      if (global[3] == 16 && grid[3] == 1) continue;  // (there only the split t direction is of interest)
      SCOPED_TRACE(dims_string(global) + " on " + dims_string(grid));
      const Geometry g = ProcessGrid::of_run(grid).decompose(global);
      const GaugeField<double> U = to_gauge_field(links, g, loc);
      const DiracOperators d = make_dirac_operators(U, clover());
      const auto [gathered_mg, split_mg] = gathered_and_split(*d.full, mp);
      const MultigridPreconditioner<double>& gathered = *gathered_mg;
      const MultigridPreconditioner<double>& split = *split_mg;
      ASSERT_TRUE(split.coarse_operator().distributed());
      ASSERT_NE(gathered.third_level(), nullptr);
      ASSERT_NE(split.third_level(), nullptr);
      const std::vector<Complex<double>> a = blocks_on_host(gathered.third_level()->op);
      const std::vector<Complex<double>> b = blocks_on_host(split.third_level()->op);
      ASSERT_EQ(a.size(), b.size());
      double worst = 0, scale = 0;
      for (std::size_t i = 0; i < a.size(); ++i) {
        worst = std::max(worst, std::abs(a[i].re - b[i].re) + std::abs(a[i].im - b[i].im));
        scale = std::max(scale, std::abs(a[i].re) + std::abs(a[i].im));
      }
      EXPECT_GT(scale, 0.1);
      EXPECT_LT(worst, 1e-13 * scale);
    }
  }
}

// The coarse level split over the processes (full-lattice coarse GCR driven from the host; with three
// levels the third gathered) on one process and on the ranks.
TEST_P(DistributedMultigrid, SplitCoarseLevelSolvesAsOneProcess) {
  for (const int levels : {2, 3}) {
    MultigridParams mp = small_params();
    mp.coarse_distributed = true;
    mp.levels = levels;
    mp.coarse_test_vectors = 4;
    mp.coarse_setup_iterations = 10;
    const SolveOutcome ref =
        expect_ranks_solve_as_one_process(GetParam(), mp, 33, "coarse level split, " + std::to_string(levels) + " levels");
    EXPECT_EQ(ref.levels, levels);
    EXPECT_GT(ref.coarse_iterations, 0);
  }
}

INSTANTIATE_TEST_SUITE_P(Locations, DistributedMultigrid, ::testing::Values(Location::Host, Location::Device),
                         [](const auto& info) { return std::string(to_string(info.param)); });

}  // namespace
}  // namespace lqcd
