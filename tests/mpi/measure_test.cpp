// Measurements on a decomposed lattice against the single-process ones (issue 6): sources, propagators
// (point and smeared wall sources), all meson correlators and the loading of configuration files.
// Like distributed_test.cpp, every rank computes the single-process reference itself (a one-process
// grid never communicates) and compares, for each process-grid shape of the run.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "comm/communicator.hpp"
#include "comm/process_grid.hpp"
#include "field_test_support.hpp"
#include "gauge/ape_smearing.hpp"
#include "measure/configuration.hpp"
#include "measure/propagator.hpp"
#include "mpi_grids.hpp"

namespace lqcd {
namespace {

const Dims kGlobal{4, 4, 4, 8};

// The grids of this run that fit kGlobal (local extents even: not 4 ranks along x).
std::vector<Dims> grids() {
  std::vector<Dims> g = test::mpi_grids();
  std::erase_if(g, [](const Dims& d) { return d[0] == 4; });
  return g;
}

class DistributedMeasure : public test::DistributedTest {};

// A source on the decomposed lattice, assembled, is the single-process source exactly: the point is
// set once (by the rank that owns it), the wall noise does not depend on which rank holds the slice.
TEST_P(DistributedMeasure, SourcesAreTheSingleProcessOnes) {
  const Location loc = GetParam();
  const Geometry whole = Geometry::single_process(kGlobal);
  for (SourceType type : {SourceType::Point, SourceType::Z2Wall, SourceType::Z4Wall}) {
    SourceSpec spec;
    spec.type = type;
    spec.position = {3, 3, 2, 6};  // on the last rank along x and t of every grid here
    spec.seed = 4;
    const LexicographicSpinor ref = to_lexicographic(make_source(spec, whole, loc, 2, 1));
    for (const Dims& grid : grids()) {
      SCOPED_TRACE(dims_string(grid) + " source type " + std::to_string(int(type)));
      const Geometry g = ProcessGrid::of_run(grid).decompose(kGlobal);
      const SpinorField<double> eta = make_source(spec, g, loc, 2, 1);
      EXPECT_EQ(test::max_diff(to_lexicographic(eta), ref), 0.0);
      // Collective norm: a point counted once, a wall of 4 x 4 x 4 unit entries.
      EXPECT_DOUBLE_EQ(norm2(eta), type == SourceType::Point ? 1.0 : 64.0);
    }
  }
}

struct Case {
  const char* name;
  FermionParams fermion;
  bool even_odd;
  SourceSpec source;
  SolverParams solver;
  bool smeared;
};

std::vector<Case> cases() {
  std::vector<Case> c(2);
  c[0].name = "wilson, point source, even-odd CG";
  c[0].fermion.wilson.kappa = 0.10;  // far from critical: few iterations (CI time)
  c[0].even_odd = true;
  c[0].source.position = {3, 1, 2, 6};
  c[0].solver.type = SolverType::CG;
  c[0].smeared = false;
  c[1].name = "clover, Gaussian-smeared Z4 wall source and sink, full BiCGStab";
  c[1].fermion.action = FermionAction::Clover;
  c[1].fermion.wilson.kappa = 0.10;
  c[1].fermion.csw = 1.5;
  c[1].even_odd = false;
  c[1].source.type = SourceType::Z4Wall;
  c[1].source.position = {0, 0, 0, 3};
  c[1].source.seed = 9;
  c[1].solver.type = SolverType::BiCGStab;
  c[1].smeared = true;
  for (Case& k : c) k.solver.tolerance = 1e-10;
  return c;
}

struct Measured {
  std::array<LexicographicSpinor, 12> columns;  // gathered (rank 0 only)
  std::vector<std::vector<std::vector<Complex<double>>>> mesons;  // [Gamma][momentum][t]
  std::vector<double> pion;
  std::vector<int> iterations;
};

Measured measure(const Case& k, const LexicographicGauge& links, const Geometry& g, Location loc) {
  const GaugeField<double> U = to_gauge_field(links, g, loc);
  const DiracOperators ops = make_dirac_operators(U, k.fermion);
  std::unique_ptr<GaugeField<double>> smeared;
  PropagatorOptions o;
  o.solver = k.solver;
  if (k.smeared) {
    smeared = std::make_unique<GaugeField<double>>(ape_smear(U, ApeParams{0.5, 2, true}));
    o.smearing_links = smeared.get();
    o.source_smearing = o.sink_smearing = GaussianParams{0.25, 3};
  }
  Measured m;
  const PointPropagator S =
      compute_propagator(ops, k.even_odd, k.source, o, [&](const PropagatorSolve& s) { m.iterations.push_back(s.result.iterations); });
  m.columns = gather_propagator_on_root(S);
  for (int n = 0; n < 16; ++n)
    m.mesons.push_back(meson_correlator(S, SpinMatrix::basis(n), SpinMatrix::basis(n), {{0, 0, 0}, {1, 0, 0}, {0, 1, 1}}));
  // An off-diagonal pair too (gt g5 - g5, the PCAC mass's), with two different propagator objects.
  m.mesons.push_back(meson_correlator(S, S, SpinMatrix::gamma(3) * SpinMatrix::basis(15), SpinMatrix::basis(15),
                                      {{0, 0, 0}}));
  m.pion = pion_correlator_from_norms(S);
  return m;
}

// Propagators and every correlator agree with one process to rounding: 1e-12 relative to the largest
// entry of each correlator (channels that vanish by symmetry are pure rounding, so not entrywise),
// and the pion, positive everywhere, entrywise.
TEST_P(DistributedMeasure, PropagatorsAndCorrelatorsEqualTheSingleProcessOnes) {
  const Location loc = GetParam();
  const Geometry whole = Geometry::single_process(kGlobal);
  const LexicographicGauge links = to_lexicographic(test::rough_gauge(whole, Location::Host, 23, 6.0));
  for (const Case& k : cases()) {
    const Measured ref = measure(k, links, whole, loc);
    ASSERT_EQ(ref.iterations.size(), 12u);
    for (const Dims& grid : grids()) {
      SCOPED_TRACE(dims_string(grid) + ": " + k.name);
      const Measured m = measure(k, links, ProcessGrid::of_run(grid).decompose(kGlobal), loc);
      EXPECT_EQ(m.iterations, ref.iterations);
      if (comm::rank() == 0) {
        for (std::size_t col = 0; col < 12; ++col) {
          ASSERT_EQ(m.columns[col].size(), ref.columns[col].size());
          EXPECT_LT(test::max_diff(m.columns[col], ref.columns[col]), 1e-12 * test::max_norm(ref.columns[col]))
              << "column " << col;
        }
      } else {
        for (const auto& c : m.columns) EXPECT_TRUE(c.empty()) << "only rank 0 holds the gathered propagator";
      }
      ASSERT_EQ(m.mesons.size(), ref.mesons.size());
      for (std::size_t n = 0; n < ref.mesons.size(); ++n)
        for (std::size_t p = 0; p < ref.mesons[n].size(); ++p) {
          double scale = 0, diff = 0;
          for (std::size_t t = 0; t < ref.mesons[n][p].size(); ++t) {
            scale = std::max(scale, abs(ref.mesons[n][p][t]));
            diff = std::max(diff, abs(m.mesons[n][p][t] - ref.mesons[n][p][t]));
          }
          EXPECT_GT(scale, 0.0);
          EXPECT_LE(diff, 1e-12 * scale) << "Gamma " << n << " momentum " << p;
        }
      ASSERT_EQ(m.pion.size(), std::size_t(kGlobal[3]));
      for (std::size_t t = 0; t < m.pion.size(); ++t) {
        EXPECT_GT(ref.pion[t], 0.0);
        EXPECT_NEAR(m.pion[t], ref.pion[t], 1e-12 * ref.pion[t]) << "t = " << t;
      }
    }
  }
}

// load_configuration with a decomposition: this rank's part of the file's links, and the checks and
// observables computed on it equal the whole lattice's.
TEST_P(DistributedMeasure, LoadedConfigurationsAreDecomposed) {
  const Location loc = GetParam();
  LoadPolicy whole;
  whole.location = loc;
  const LoadedConfiguration ref = load_configuration(test::testdata("milc_l4448.scidac"), whole);
  const LexicographicGauge ref_links = to_lexicographic(ref.field);
  for (const Dims& grid : grids()) {  // the file is 4^3 x 8 too
    SCOPED_TRACE(dims_string(grid));
    LoadPolicy p = whole;
    p.decompose = [&](const Dims& global) { return ProcessGrid::of_run(grid).decompose(global); };
    const LoadedConfiguration c = load_configuration(test::testdata("milc_l4448.scidac"), p);
    EXPECT_EQ(c.field.geometry().grid, grid);
    const LexicographicGauge links = to_lexicographic(c.field);
    double d = 0;
    for (std::size_t i = 0; i < links.links.size(); ++i) d = std::max(d, test::max_abs_diff(links.links[i], ref_links.links[i]));
    EXPECT_EQ(d, 0.0);
    EXPECT_NEAR(c.observables.plaquette, ref.observables.plaquette, 1e-14);
    EXPECT_NEAR(c.observables.rectangle, ref.observables.rectangle, 1e-14);
    EXPECT_NEAR(c.observables.polyakov_loop.re, ref.observables.polyakov_loop.re, 1e-14);
    EXPECT_NEAR(c.observables.polyakov_loop.im, ref.observables.polyakov_loop.im, 1e-14);
    EXPECT_EQ(c.max_su3_deviation, ref.max_su3_deviation);
  }
}

INSTANTIATE_TEST_SUITE_P(Locations, DistributedMeasure, ::testing::Values(Location::Host, Location::Device),
                         [](const auto& info) { return std::string(to_string(info.param)); });

}  // namespace
}  // namespace lqcd
