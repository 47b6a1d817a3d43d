// Distillation on a lattice split along t (issue 30's --grid): every process computes the Laplacian
// eigenvectors and elementals of its own time slices and contracts its own sink times, the solves of
// the perambulator are distributed, and the correlator matrix (summed over the processes) equals the
// single-process one; a split in space is refused. Run under mpirun -np 2 and 4 with the other
// distributed tests (distributed_test.cpp has the main).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "comm/process_grid.hpp"
#include "core/error.hpp"
#include "dirac/dirac_operator_factory.hpp"
#include "field_test_support.hpp"
#include "measure/distillation_contractions.hpp"
#include "measure/laplacian_eigenvectors.hpp"
#include "measure/perambulator.hpp"
#include "mpi_grids.hpp"
#include "test_support.hpp"

namespace lqcd {
namespace {

class DistributedDistillation : public test::DistributedTest {};

struct Distilled {
  std::vector<double> eigenvalues;  // this process's slices
  int t_begin = 0;
  CorrelatorMatrix C;
};

Distilled distil(const LexicographicGauge& links, const Geometry& g, Location loc, int t0) {
  const GaugeField<double> U = to_gauge_field(links, g, loc);
  LaplacianEigenParams p;
  p.nv = 6;
  const LaplacianEigenvectors E = laplacian_eigenvectors(U, p);
  FermionParams f;
  f.wilson.kappa = 0.11;
  const DiracOperators D = make_dirac_operators(U, f);
  PropagatorOptions o;
  o.solver.tolerance = 1e-12;
  o.multi_rhs = false;  // the multi-RHS CG runs on one process only
  const Perambulator tau = perambulator(D, true, E, t0, o);
  const std::vector<ElementalKind> kinds = {{{0, 0, 0}, -1}, {{1, 0, 0}, -1}, {{0, 0, 0}, 2}};
  const Elementals phi = meson_elementals(U, E, kinds);
  std::vector<DistillationOperator> ops;
  for (const ElementalKind& k : kinds)
    for (int gamma : {15, 1, 7}) ops.push_back({gamma, k});
  return {E.eigenvalues, E.t_begin, distillation_correlators(tau, phi, ops)};
}

TEST_P(DistributedDistillation, TimeSplitEqualsOneProcess) {
  const Location loc = GetParam();
  const Dims global{4, 4, 4, 8};
  const LexicographicGauge links = to_lexicographic(test::rough_gauge(Geometry::single_process(global), Location::Host));
  const int t0 = 5;  // held by a process other than rank 0 on 1,1,1,2 and 1,1,1,4
  const Distilled ref = distil(links, Geometry::single_process(global), loc, t0);
  double scale = 0;
  for (const auto& c : ref.C.values) scale = std::max(scale, abs(c));
  ASSERT_GT(scale, 0);
  int grids = 0;
  for (const Dims& grid : test::mpi_grids()) {
    if (grid[0] != 1 || grid[1] != 1 || grid[2] != 1) continue;
    ++grids;
    SCOPED_TRACE(dims_string(grid));
    const Distilled r = distil(links, ProcessGrid::of_run(grid).decompose(global), loc, t0);
    ASSERT_EQ(r.C.values.size(), ref.C.values.size());
    // The slices are whole on every process: the same arithmetic as on one process.
    for (std::size_t i = 0; i < r.eigenvalues.size(); ++i)
      EXPECT_NEAR(r.eigenvalues[i], ref.eigenvalues[std::size_t(r.t_begin) * 6 + i], 1e-13);
    double worst = 0;
    for (std::size_t i = 0; i < r.C.values.size(); ++i) worst = std::max(worst, abs(r.C.values[i] - ref.C.values[i]));
    EXPECT_LT(worst, 1e-10 * scale) << "largest |C_split - C_one| relative to max |C|";
  }
  EXPECT_EQ(grids, 1) << "one time-split grid per run size";
}

TEST_P(DistributedDistillation, SpaceSplitIsRefused) {
  const Location loc = GetParam();
  const Dims global{8, 4, 4, 8};
  for (const Dims& grid : test::mpi_grids()) {
    if (grid[0] == 1 && grid[1] == 1 && grid[2] == 1) continue;
    SCOPED_TRACE(dims_string(grid));
    const GaugeField<double> U(ProcessGrid::of_run(grid).decompose(global), loc);
    LaplacianEigenParams p;
    p.nv = 6;
    try {
      (void)laplacian_eigenvectors(U, p);
      ADD_FAILURE() << "a lattice split in space was accepted";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("--grid 1,1,1,N"), std::string::npos) << e.what();
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Locations, DistributedDistillation, ::testing::Values(Location::Host, Location::Device),
                         [](const auto& info) { return std::string(to_string(info.param)); });

}  // namespace
}  // namespace lqcd
