// Gauge fixing on a decomposed lattice (issue 29): the overrelaxation method reads links and the gauge
// transformation across process boundaries and must give the single-process result; the
// Fourier-accelerated method refuses a decomposed lattice in one line. Run under mpirun -np 2 and 4 with
// the other distributed tests (distributed_test.cpp has the main).
#include <gtest/gtest.h>

#include <string>

#include "comm/process_grid.hpp"
#include "core/error.hpp"
#include "field_test_support.hpp"
#include "gauge/gauge_fixing.hpp"
#include "mpi_grids.hpp"
#include "test_support.hpp"

namespace lqcd {
namespace {

class DistributedGaugeFixing : public test::DistributedTest {};

TEST_P(DistributedGaugeFixing, OverrelaxationEqualsTheSingleProcessOne) {
  const Location loc = GetParam();
  const Dims global{8, 4, 4, 8};
  const LexicographicGauge links = to_lexicographic(test::rough_gauge(Geometry::single_process(global), Location::Host));
  for (GaugeCondition gauge : {GaugeCondition::Landau, GaugeCondition::Coulomb}) {
    GaugeFixParams p;
    p.gauge = gauge;
    p.method = GaugeFixMethod::Overrelaxation;
    p.max_iterations = 40;
    p.precision = 1e-30;  // a fixed number of iterations: the same path everywhere
    const auto fix = [&](const Geometry& g, LexicographicGauge& out) {
      GaugeField<double> U = to_gauge_field(links, g, loc);
      const GaugeFixResult r = fix_gauge(U, p);
      out = to_lexicographic(U);
      return r;
    };
    LexicographicGauge ref_links;
    const GaugeFixResult ref = fix(Geometry::single_process(global), ref_links);
    EXPECT_LT(ref.final.theta, 0.1 * ref.initial.theta);
    for (const Dims& grid : test::mpi_grids()) {
      SCOPED_TRACE(dims_string(grid) + " " + to_string(gauge));
      LexicographicGauge r_links;
      const GaugeFixResult r = fix(ProcessGrid::of_run(grid).decompose(global), r_links);
      EXPECT_EQ(r.iterations, ref.iterations);
      EXPECT_NEAR(r.final.theta, ref.final.theta, 1e-10 * ref.final.theta);
      EXPECT_NEAR(r.final.functional, ref.final.functional, 1e-13);
      EXPECT_LT(test::max_link_difference(r_links, ref_links), 1e-12);
      GaugeField<double> U = to_gauge_field(links, ProcessGrid::of_run(grid).decompose(global), loc);
      GaugeFixParams fft;
      try {
        fix_gauge(U, fft);
        ADD_FAILURE() << "the FFT method accepted a decomposed lattice";
      } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("overrelaxation"), std::string::npos) << e.what();
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Locations, DistributedGaugeFixing, ::testing::Values(Location::Host, Location::Device),
                         [](const auto& info) { return std::string(to_string(info.param)); });

}  // namespace
}  // namespace lqcd
