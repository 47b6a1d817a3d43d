// Wilson loops on a decomposed lattice (issue 29): the path fields cross process boundaries one site per
// step; every W(R, T) up to 4 x 8 equals the single-process value. Run under mpirun -np 2 and 4 with the
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
  const auto ref = wilson_loops(to_gauge_field(links, Geometry::single_process(global), loc), 4, 8);
  for (const Dims& grid : test::mpi_grids()) {
    SCOPED_TRACE(dims_string(grid));
    const auto w = wilson_loops(to_gauge_field(links, ProcessGrid::of_run(grid).decompose(global), loc), 4, 8);
    for (int r = 0; r < 4; ++r)
      for (int t = 0; t < 8; ++t) EXPECT_NEAR(w[r][t], ref[r][t], 1e-13) << r << " " << t;
  }
}

INSTANTIATE_TEST_SUITE_P(Locations, DistributedWilsonLoops, ::testing::Values(Location::Host, Location::Device),
                         [](const auto& info) { return std::string(to_string(info.param)); });

}  // namespace
}  // namespace lqcd
