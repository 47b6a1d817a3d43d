// Wilson loops on a decomposed lattice (issue 29): the path fields cross process boundaries one site per
// step; every W(R, T) up to 4 x 8 and the off-axis W((2, 1, 1), T) equal the single-process values. Run under mpirun -np 2 and 4 with the
// other distributed tests (distributed_test.cpp has the main).
#include <gtest/gtest.h>

#include "comm/process_grid.hpp"
#include "field_test_support.hpp"
#include "gauge/wilson_loops.hpp"
#include "mpi_grids.hpp"
#include "test_support.hpp"

namespace lqcd {
namespace {

class DistributedWilsonLoops : public test::DistributedTest {};

TEST_P(DistributedWilsonLoops, EqualTheSingleProcessLoops) {
  const Location loc = GetParam();
  const Dims global{8, 4, 4, 8};
  const LexicographicGauge links = to_lexicographic(test::rough_gauge(Geometry::single_process(global), Location::Host));
  const GaugeField<double> single = to_gauge_field(links, Geometry::single_process(global), loc);
  const auto ref = wilson_loops(single, 4, 8);
  const auto ref_off = wilson_loops_along(single, {2, 1, 1}, 3);
  for (const Dims& grid : test::mpi_grids()) {
    SCOPED_TRACE(dims_string(grid));
    const GaugeField<double> U = to_gauge_field(links, ProcessGrid::of_run(grid).decompose(global), loc);
    const auto w = wilson_loops(U, 4, 8);
    for (int r = 0; r < 4; ++r)
      for (int t = 0; t < 8; ++t) EXPECT_NEAR(w[r][t], ref[r][t], 1e-13) << r << " " << t;
    // Off-axis: the staircase steps backwards as well as forwards across the boundaries.
    const auto off = wilson_loops_along(U, {2, 1, 1}, 3);
    for (std::size_t t = 0; t < 3; ++t) EXPECT_NEAR(off[t], ref_off[t], 1e-13) << t;
  }
}

INSTANTIATE_TEST_SUITE_P(Locations, DistributedWilsonLoops, ::testing::Values(Location::Host, Location::Device),
                         [](const auto& info) { return std::string(to_string(info.param)); });

}  // namespace
}  // namespace lqcd
