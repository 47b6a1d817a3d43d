// The Wilson flow on a decomposed lattice (issue 29) against the single-process
// flow: every stage reads staples across process boundaries, the measurement
// the clover leaves and (the improved charge) the 2x1 and 1x2 rectangles, two
// sites deep into the halo. Run under mpirun -np 2 and 4 with the other distributed
// tests (distributed_test.cpp has the main).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "comm/process_grid.hpp"
#include "field_test_support.hpp"
#include "gauge/gradient_flow.hpp"
#include "mpi_grids.hpp"
#include "test_support.hpp"

namespace lqcd {
namespace {

class DistributedFlow : public test::DistributedTest {};

TEST_P(DistributedFlow, FlowedFieldAndMeasurementsEqualTheSingleProcessOnes) {
  const Location loc = GetParam();
  const Dims global{8, 4, 4, 8};
  const LexicographicGauge links = to_lexicographic(
      test::rough_gauge(Geometry::single_process(global), Location::Host));
  for (FlowAction action : {FlowAction::Wilson, FlowAction::Zeuthen}) {
    SCOPED_TRACE(to_string(action));
    FlowParams p;
    p.action = action;
    p.epsilon = 0.05;
    p.t_max = 0.5;
    p.measure_every = 5;
    p.improved_charge = true;
    const auto flow = [&](const Geometry &g, LexicographicGauge &out) {
      GaugeField<double> V = to_gauge_field(links, g, loc);
      const std::vector<FlowMeasurement> h = run_gradient_flow(V, p);
      out = to_lexicographic(V);
      return h;
    };
    LexicographicGauge ref_links;
    const std::vector<FlowMeasurement> ref =
        flow(Geometry::single_process(global), ref_links);
    for (const Dims &grid : test::mpi_grids()) {
      SCOPED_TRACE(dims_string(grid));
      LexicographicGauge r_links;
      const std::vector<FlowMeasurement> r =
          flow(ProcessGrid::of_run(grid).decompose(global), r_links);
      ASSERT_EQ(r.size(), ref.size());
      for (std::size_t k = 0; k < r.size(); ++k) {
        EXPECT_NEAR(r[k].energy_plaquette, ref[k].energy_plaquette,
                    1e-12 * ref[k].energy_plaquette);
        EXPECT_NEAR(r[k].energy_clover, ref[k].energy_clover,
                    1e-12 * ref[k].energy_clover);
        EXPECT_NEAR(r[k].charge, ref[k].charge, 1e-12);
        ASSERT_TRUE(r[k].charge_improved && ref[k].charge_improved);
        EXPECT_NEAR(*r[k].charge_improved, *ref[k].charge_improved, 1e-12);
      }
      EXPECT_LT(test::max_link_difference(r_links, ref_links), 1e-13);
    }
  }
}

// openQCD's open boundaries: the frozen links and the doubled boundary forces sit on the processes that
// hold x0 = 0 and T, and the time-like plaquettes of each slice are added over the process grid.
TEST_P(DistributedFlow, OpenBoundaryFlowAndSlicesEqualTheSingleProcessOnes) {
  const Location loc = GetParam();
  const Dims global{8, 4, 4, 8};
  const LexicographicGauge links = to_lexicographic(
      test::rough_gauge(Geometry::single_process(global), Location::Host, 23, 6.0));
  FlowParams p;
  p.open_boundary = true;
  p.epsilon = 0.05;
  p.t_max = 0.3;
  p.measure_every = 3;
  const auto flow = [&](const Geometry &g, LexicographicGauge &out) {
    GaugeField<double> V = to_gauge_field(links, g, loc);
    const std::vector<FlowMeasurement> h = run_gradient_flow(V, p);
    out = to_lexicographic(V);
    return h;
  };
  LexicographicGauge ref_links;
  const std::vector<FlowMeasurement> ref = flow(Geometry::single_process(global), ref_links);
  for (const Dims &grid : test::mpi_grids()) {
    SCOPED_TRACE(dims_string(grid));
    LexicographicGauge r_links;
    const std::vector<FlowMeasurement> r = flow(ProcessGrid::of_run(grid).decompose(global), r_links);
    ASSERT_EQ(r.size(), ref.size());
    for (std::size_t k = 0; k < r.size(); ++k)
      for (std::size_t x0 = 0; x0 < std::size_t(global[3]); ++x0) {
        EXPECT_NEAR(r[k].slices->energy_plaquette[x0], ref[k].slices->energy_plaquette[x0],
                    1e-12 * ref[k].slices->energy_plaquette[x0]);
        EXPECT_NEAR(r[k].slices->energy_clover[x0], ref[k].slices->energy_clover[x0], 1e-12);
        EXPECT_NEAR(r[k].slices->charge[x0], ref[k].slices->charge[x0], 1e-12);
      }
    EXPECT_LT(test::max_link_difference(r_links, ref_links), 1e-13);
  }
}

INSTANTIATE_TEST_SUITE_P(Locations, DistributedFlow,
                         ::testing::Values(Location::Host, Location::Device),
                         [](const auto &info) {
                           return std::string(to_string(info.param));
                         });

} // namespace
} // namespace lqcd
