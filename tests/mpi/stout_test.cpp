// Stout smearing and its force chain rule on a decomposed lattice (issue 28) against the single-process
// result: the smeared links read staples across process boundaries at every level, and the chain rule
// reads Lambda at neighbours (its halo exchange). Run under mpirun -np 2 and 4 with the other distributed
// tests (distributed_test.cpp has the main).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>

#include "comm/process_grid.hpp"
#include "field_test_support.hpp"
#include "gauge/stout_smearing.hpp"
#include "hmc/gauge_monomial.hpp"
#include "hmc/momentum_field.hpp"
#include "hmc/smeared_fermion_monomial.hpp"
#include "mpi_grids.hpp"
#include "test_support.hpp"

namespace lqcd {
namespace {

double max_link_diff(const LexicographicGauge& a, const LexicographicGauge& b) {
  double d = 0;
  for (std::size_t i = 0; i < a.links.size(); ++i) d = std::max(d, test::max_abs_diff(a.links[i], b.links[i]));
  return d;
}

class DistributedStout : public test::DistributedTest {};

// The plaquette action of V = stout^3(U) through the decorator: V, the action and the chain-ruled force.
TEST_P(DistributedStout, SmearedLinksAndTheirForceEqualTheSingleProcessOnes) {
  const Location loc = GetParam();
  const Dims global{8, 4, 4, 8};
  const LexicographicGauge links = to_lexicographic(test::rough_gauge(Geometry::single_process(global), Location::Host));
  const StoutParams prm{0.12, 3, false};
  struct Result {
    LexicographicGauge V, F;
    double S;
  };
  const auto compute = [&](const Geometry& g) {
    const GaugeField<double> U = to_gauge_field(links, g, loc);
    SmearedFermionMonomial m(std::make_unique<GaugeMonomial>(GaugeAction::from_name("wilson", 5.0)), prm);
    MomentumField F(g, loc);
    set_zero(F);
    m.add_force(U, F);
    return Result{to_lexicographic(stout_smear(U, prm)), to_lexicographic(F), m.action(U)};
  };
  const Result ref = compute(Geometry::single_process(global));
  double scale = 0;
  for (const auto& f : ref.F.links) scale = std::max(scale, test::max_abs_diff(f, SU3<double>{}));
  for (const Dims& grid : test::mpi_grids()) {
    SCOPED_TRACE(dims_string(grid));
    const Result r = compute(ProcessGrid::of_run(grid).decompose(global));
    EXPECT_LT(max_link_diff(r.V, ref.V), 1e-13);
    EXPECT_LT(max_link_diff(r.F, ref.F), 1e-12 * scale);
    EXPECT_NEAR(r.S, ref.S, 1e-11 * std::abs(ref.S));
  }
}

INSTANTIATE_TEST_SUITE_P(Locations, DistributedStout, ::testing::Values(Location::Host, Location::Device),
                         [](const auto& info) { return std::string(to_string(info.param)); });

}  // namespace
}  // namespace lqcd
