// The decomposed lattice against the single-process one (issue 6's acceptance): run under
// `mpirun -np 2` and `-np 4` (ctest does both). Every rank computes the single-process reference on the
// whole lattice itself (a one-process grid never communicates) and compares the distributed result,
// gathered back to the whole lattice, with it, for several process-grid shapes.
#include <cstdio>
#include <gtest/gtest.h>

#include <cmath>
#include <tuple>
#include <vector>

#include "comm/communicator.hpp"
#include "comm/device_messages.hpp"
#include "comm/process_grid.hpp"
#include "dirac/dirac_operator_factory.hpp"
#include "field_test_support.hpp"
#include "gauge/observables.hpp"
#include "gauge/open_boundary.hpp"
#include "gauge/updates.hpp"
#include "hmc/gauge_monomial.hpp"
#include "hmc/momentum_field.hpp"
#include "hmc/two_flavour_monomial.hpp"
#include "mpi_grids.hpp"
#include "solvers/solver.hpp"
#include "test_support.hpp"

namespace lqcd {
namespace {

const Dims kGlobal{8, 4, 4, 8};

std::vector<Dims> grids() { return test::mpi_grids(); }

double max_link_diff(const LexicographicGauge& a, const LexicographicGauge& b) {
  double d = 0;
  for (std::size_t i = 0; i < a.links.size(); ++i) d = std::max(d, test::max_abs_diff(a.links[i], b.links[i]));
  return d;
}

class Distributed : public test::DistributedTest {};

TEST_P(Distributed, HeatbathIsBitIdenticalAndObservablesAgree) {
  const Location loc = GetParam();
  const Geometry whole = Geometry::single_process(kGlobal);
  const GaugeAction action = GaugeAction::from_name("wilson", 5.7);
  GaugeField<double> U0 = test::rough_gauge(whole, loc);
  heatbath_sweep(U0, action, 9, 1);
  overrelaxation_sweep(U0, action);
  const LexicographicGauge ref = to_lexicographic(U0);
  const GaugeObservables o0 = gauge_observables(U0);
  for (const Dims& grid : grids()) {
    SCOPED_TRACE(dims_string(grid));
    const Geometry g = ProcessGrid::of_run(grid).decompose(kGlobal);
    GaugeField<double> U = test::rough_gauge(g, loc);
    heatbath_sweep(U, action, 9, 1);
    overrelaxation_sweep(U, action);
    EXPECT_EQ(max_link_diff(to_lexicographic(U), ref), 0.0) << "the counter-based RNG is keyed by global site";
    const GaugeObservables o = gauge_observables(U);
    EXPECT_NEAR(o.plaquette, o0.plaquette, 1e-14);
    EXPECT_NEAR(o.rectangle, o0.rectangle, 1e-14);
    EXPECT_NEAR(o.link_trace, o0.link_trace, 1e-14);
    EXPECT_NEAR(o.polyakov_loop.re, o0.polyakov_loop.re, 1e-14);
    EXPECT_NEAR(o.polyakov_loop.im, o0.polyakov_loop.im, 1e-14);
  }
}

// Open boundaries in time (gauge/time_boundary.hpp): the frozen links are zero on every rank, halos
// included (a halo left non-zero changes the staples of x0 = 0 on the next rank), so the heatbath stays
// bit-identical, and the weighted action and the gauge force equal the single-process ones.
TEST_P(Distributed, OpenBoundaryHeatbathActionAndForceEqualTheSingleProcessOnes) {
  const Location loc = GetParam();
  GaugeAction action = GaugeAction::from_name("wilson", 5.7);
  action.boundary = TimeBoundaryType::Open;
  action.c_G = 1.4;
  const TimeBoundary b = action.time_boundary(kGlobal[3]);
  const auto run = [&](const Geometry& g) {
    GaugeField<double> U = test::rough_gauge(g, loc);
    apply_time_boundary(U, b);
    heatbath_sweep(U, action, 9, 1);
    overrelaxation_sweep(U, action);
    GaugeMonomial gauge(action);
    MomentumField F(g, loc);
    set_zero(F);
    gauge.add_force(U, F);
    return std::tuple{to_lexicographic(U), to_lexicographic(F), gauge.action(U)};
  };
  const auto [ref, f0, S0] = run(Geometry::single_process(kGlobal));
  for (const Dims& grid : grids()) {
    SCOPED_TRACE(dims_string(grid));
    const auto [links, f, S] = run(ProcessGrid::of_run(grid).decompose(kGlobal));
    EXPECT_EQ(max_link_diff(links, ref), 0.0);
    EXPECT_LT(max_link_diff(f, f0), 1e-12);
    EXPECT_NEAR(S, S0, 1e-11 * std::abs(S0));
  }
}

TEST_P(Distributed, DiracOperatorsAndTheSolverEqualTheSingleProcessOnes) {
  const Location loc = GetParam();
  const Geometry whole = Geometry::single_process(kGlobal);
  const LexicographicGauge links = to_lexicographic(test::rough_gauge(whole, Location::Host));
  const LexicographicSpinor src = test::random_spinor(whole, 21);
  const GaugeField<double> U0 = to_gauge_field(links, whole, loc);
  for (FermionAction act : {FermionAction::Wilson, FermionAction::Clover, FermionAction::TwistedMass}) {
    FermionParams p;
    p.action = act;
    p.wilson.kappa = 0.125;
    p.wilson.mu = act == FermionAction::TwistedMass ? 0.03 : 0.0;
    p.csw = act == FermionAction::Clover ? 1.8 : 0.0;
    const DiracOperators d0 = make_dirac_operators(U0, p);
    const SpinorField<double> in0 = to_spinor_field(src, whole, loc);
    SpinorField<double> m0 = in0.like(), md0 = in0.like();
    d0.full->apply(m0, in0);
    d0.full->apply_dagger(md0, in0);
    const LexicographicSpinor ref = to_lexicographic(m0), ref_dagger = to_lexicographic(md0);
    // The even-odd normal equations solved by CG, as HMC does.
    const SpinorField<double> b0 = d0.even_odd->prepare_source(in0);
    const NormalOperator<double> A0(*d0.even_odd);
    SpinorField<double> x0 = b0.like();
    set_zero(x0);
    SolverParams sp;
    sp.tolerance = 1e-10;
    const SolverResult r0 = solve_hermitian(A0, x0, b0, sp);
    SpinorField<double> whole_x0(whole, loc);
    set_zero(whole_x0);
    whole_x0.set_parity_part(0, x0);
    const LexicographicSpinor ref_x = to_lexicographic(whole_x0);

    for (const Dims& grid : grids()) {
      SCOPED_TRACE(dims_string(grid) + " action " + std::to_string(int(act)));
      const Geometry g = ProcessGrid::of_run(grid).decompose(kGlobal);
      const GaugeField<double> U = to_gauge_field(links, g, loc);
      const DiracOperators d = make_dirac_operators(U, p);
      const SpinorField<double> in = to_spinor_field(src, g, loc);
      SpinorField<double> m = in.like();
      d.full->apply(m, in);
      const double scale = test::max_norm(ref);
      EXPECT_LT(test::max_diff(to_lexicographic(m), ref), 1e-13 * scale);
      d.full->apply_dagger(m, in);
      EXPECT_LT(test::max_diff(to_lexicographic(m), ref_dagger), 1e-13 * scale);

      const SpinorField<double> b = d.even_odd->prepare_source(in);
      const NormalOperator<double> A(*d.even_odd);
      SpinorField<double> x = b.like();
      set_zero(x);
      const SolverResult r = solve_hermitian(A, x, b, sp);
      EXPECT_EQ(r.iterations, r0.iterations);
      SpinorField<double> whole_x(g, loc);
      set_zero(whole_x);
      whole_x.set_parity_part(0, x);
      EXPECT_LT(test::max_diff(to_lexicographic(whole_x), ref_x), 1e-12 * test::max_norm(ref_x));
    }
  }
}

// The stream-resident solvers on a decomposed lattice (solvers/krylov/resident_loop.hpp: the global sums in
// the stream, by NCCL on GPUs, by MPI for host fields) against the host loops on the same lattice:
// CG on M^dag M, CGNR and BiCGStab. For host fields and on two ranks the sums are the same numbers
// (a + b on both sides), so the solves agree bit for bit; with more GPU ranks NCCL may add in another
// order than MPI, and they agree to rounding.
TEST_P(Distributed, StreamResidentSolversMatchTheHostLoops) {
  const Location loc = GetParam();
  const Geometry whole = Geometry::single_process(kGlobal);
  const LexicographicGauge links = to_lexicographic(test::rough_gauge(whole, Location::Host));
  const LexicographicSpinor src = test::random_spinor(whole, 23);
  FermionParams fp;
  fp.wilson.kappa = 0.124;
  const bool exact = loc == Location::Host || comm::size() == 2;
  for (const Dims& grid : grids()) {
    SCOPED_TRACE(dims_string(grid));
    const Geometry g = ProcessGrid::of_run(grid).decompose(kGlobal);
    const GaugeField<double> U = to_gauge_field(links, g, loc);  // the operators keep a reference
    const DiracOperators d = make_dirac_operators(U, fp);
    const SpinorField<double> b = to_spinor_field(src, g, loc).parity_part(0);
    const NormalOperator<double> A(*d.even_odd);
    for (const SolverType type : {SolverType::CG, SolverType::BiCGStab}) {
      for (const bool hermitian : {true, false}) {
        if (hermitian && type != SolverType::CG) continue;
        SCOPED_TRACE(solver_type_name(type) + (hermitian ? " on M^dag M" : " on M"));
        SolverParams sp;
        sp.type = type;
        sp.tolerance = 1e-10;
        sp.hermitian = hermitian;
        const auto solve_with = [&](const char* setting) {
          const test::ScopedEnv env("LQCD_STREAM_RESIDENT", setting);
          // Off by default on several processes; on GPUs only with an NCCL communicator (not with two
          // ranks on one GPU).
          const bool resident =
              std::string(setting) == "1" && (loc == Location::Host || comm::device_messages_available());
          EXPECT_EQ(stream_resident_solver(loc, g.processes()), resident) << setting;
          SpinorField<double> x = b.like();
          set_zero(x);
          const SolverResult r = hermitian ? solve_hermitian(A, x, b, sp) : solve(*d.even_odd, x, b, sp);
          return std::pair{r, std::move(x)};
        };
        const auto [r0, x0] = solve_with("0");
        EXPECT_FALSE(stream_resident_solver(loc, g.processes())) << "the default on several processes";
        {
          // Ranks that disagree agree on the host loop (one rank's all-reduces alone would hang).
          const test::ScopedEnv some("LQCD_STREAM_RESIDENT", comm::rank() == 0 ? "1" : "0");
          EXPECT_FALSE(stream_resident_solver(loc, g.processes())) << "rank 0 alone asked";
        }
        const auto [r1, x1] = solve_with("1");
        EXPECT_LE(r1.true_residual, sp.tolerance);
        if (exact) {
          EXPECT_EQ(r1.residual_history, r0.residual_history);
          EXPECT_EQ(r1.true_residual, r0.true_residual);
          EXPECT_EQ(r1.flops, r0.flops);
          EXPECT_EQ(test::relative_difference(x1, x0), 0.0);
        } else {
          EXPECT_NEAR(r1.iterations, r0.iterations, 1);
          EXPECT_LT(test::relative_difference(x1, x0), 1e-9);
        }
      }
    }
  }
}

TEST_P(Distributed, ForcesEqualTheSingleProcessOnes) {
  const Location loc = GetParam();
  const Geometry whole = Geometry::single_process(kGlobal);
  const LexicographicGauge links = to_lexicographic(test::rough_gauge(whole, Location::Host));
  WilsonParams w;
  w.kappa = 0.125;
  SolverParams sp;
  sp.tolerance = 1e-12;
  const auto forces = [&](const Geometry& g) {
    const GaugeField<double> U = to_gauge_field(links, g, loc);
    GaugeMonomial gauge(GaugeAction::from_name("symanzik", 4.0));
    TwoFlavourMonomial clover(w, 1.9, sp, 0);
    clover.refresh(U, 77, 3);
    MomentumField F(g, loc);
    set_zero(F);
    gauge.add_force(U, F);
    clover.add_force(U, F);
    return std::pair{to_lexicographic(F), gauge.action(U) + clover.action(U)};
  };
  const auto [ref, S0] = forces(whole);
  double scale = 0;
  for (const auto& m : ref.links) scale = std::max(scale, test::max_abs_diff(m, SU3<double>{}));
  for (const Dims& grid : grids()) {
    SCOPED_TRACE(dims_string(grid));
    const auto [f, S] = forces(ProcessGrid::of_run(grid).decompose(kGlobal));
    EXPECT_LT(max_link_diff(f, ref), 1e-11 * scale);
    EXPECT_NEAR(S, S0, 1e-10 * std::abs(S0));
  }
}

TEST_P(Distributed, ConfigurationFilesRoundTripBitExactly) {
  const Location loc = GetParam();
  const LexicographicGauge links = to_lexicographic(test::rough_gauge(Geometry::single_process(kGlobal), Location::Host));
  for (const Dims& grid : grids()) {
    const Geometry g = ProcessGrid::of_run(grid).decompose(kGlobal);
    const GaugeField<double> U = to_gauge_field(links, g, loc);
    EXPECT_EQ(max_link_diff(to_lexicographic(U), links), 0.0) << dims_string(grid);
  }
}

INSTANTIATE_TEST_SUITE_P(Locations, Distributed, ::testing::Values(Location::Host, Location::Device),
                         [](const auto& info) { return std::string(to_string(info.param)); });

}  // namespace
}  // namespace lqcd

int main(int argc, char** argv) {
  lqcd::comm::Session session(&argc, &argv);
  ::testing::InitGoogleTest(&argc, argv);
  const int status = RUN_ALL_TESTS();
  // ctest reports a test whose every case was skipped (e.g. the device cases without a GPU) as skipped,
  // not passed: tests/CMakeLists.txt matches this line.
  // Agreed over the ranks (a failure on one rank must not hide behind another's "skipped"); rank 0 prints.
  const ::testing::UnitTest& unit = *::testing::UnitTest::GetInstance();
  const bool all_skipped = unit.test_to_run_count() > 0 && unit.skipped_test_count() == unit.test_to_run_count();
  const lqcd::Dims everyone{1, 1, 1, lqcd::comm::size()};
  const bool failed_anywhere = lqcd::comm::any(everyone, status != 0);
  const bool ran_anywhere = lqcd::comm::any(everyone, !all_skipped);
  if (!failed_anywhere && !ran_anywhere && lqcd::comm::rank() == 0)
    std::printf("lqcd-test: all cases skipped (%d)\n", unit.skipped_test_count());
  return status;
}
