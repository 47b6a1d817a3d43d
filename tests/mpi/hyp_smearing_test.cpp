// HYP smearing on a decomposed lattice (issue 29): each level reads the previous level's decorated links
// across process boundaries (their halos exchanged); the result equals the single-process smearing.
// Run under mpirun -np 2 and 4 with the other distributed tests (distributed_test.cpp has the main).
#include <gtest/gtest.h>

#include "comm/process_grid.hpp"
#include "field_test_support.hpp"
#include "gauge/hyp_smearing.hpp"
#include "mpi_grids.hpp"
#include "test_support.hpp"

namespace lqcd {
namespace {

class DistributedHyp : public test::DistributedTest {};

TEST_P(DistributedHyp, EqualsTheSingleProcessSmearing) {
  const Location loc = GetParam();
  const Dims global{8, 4, 4, 8};
  const LexicographicGauge links = to_lexicographic(test::rough_gauge(Geometry::single_process(global), Location::Host));
  HypParams p;
  p.steps = 2;
  const LexicographicGauge ref =
      to_lexicographic(hyp_smear(to_gauge_field(links, Geometry::single_process(global), loc), p));
  HypParams spatial_ref = p;
  spatial_ref.spatial = true;
  const LexicographicGauge ref_spatial =
      to_lexicographic(hyp_smear(to_gauge_field(links, Geometry::single_process(global), loc), spatial_ref));
  for (const Dims& grid : test::mpi_grids()) {
    SCOPED_TRACE(dims_string(grid));
    const GaugeField<double> U = to_gauge_field(links, ProcessGrid::of_run(grid).decompose(global), loc);
    EXPECT_LT(test::max_link_difference(to_lexicographic(hyp_smear(U, p)), ref), 1e-13);
    HypParams spatial = p;
    spatial.spatial = true;
    EXPECT_LT(test::max_link_difference(to_lexicographic(hyp_smear(U, spatial)), ref_spatial), 1e-13) << "3D HYP";
  }
}

INSTANTIATE_TEST_SUITE_P(Locations, DistributedHyp, ::testing::Values(Location::Host, Location::Device),
                         [](const auto& info) { return std::string(to_string(info.param)); });

}  // namespace
}  // namespace lqcd
