// Sources: where they are non-zero, their noise statistics, and the gaussian wavefunction source's
// values and propagator.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "comm/process_grid.hpp"
#include "core/error.hpp"
#include "fields/spinor_blas.hpp"
#include "gauge/updates.hpp"
#include "measure/propagator.hpp"
#include "measure/sources.hpp"
#include "test_support.hpp"

namespace lqcd {
namespace {

TEST(Sources, PointSourceHasOneUnitEntry) {
  const Geometry g = Geometry::single_process({4, 4, 4, 6});
  SourceSpec spec;
  spec.position = {1, 2, 3, 5};
  for (Location loc : test::locations()) {
    const SpinorField<double> b = make_source(spec, g, loc, 2, 1);
    EXPECT_EQ(norm2(b), 1.0);
    const LexicographicSpinor v = to_lexicographic(b);
    const std::size_t site = 1 + 4 * (2 + 4 * (3 + 4 * 5));
    EXPECT_EQ(v[site].s[2].c[1].re, 1.0);
  }
}

TEST(Sources, NoiseWallsLiveOnTheirTimeSliceWithUnitModulus) {
  const Geometry g = Geometry::single_process({4, 4, 4, 8});
  for (SourceType type : {SourceType::Z2Wall, SourceType::Z4Wall}) {
    SourceSpec spec;
    spec.type = type;
    spec.position = {0, 0, 0, 3};
    spec.seed = 11;
    const LexicographicSpinor v = to_lexicographic(make_source(spec, g, Location::Host, 0, 2));
    double sum_re = 0, sum_im2 = 0;
    for (std::size_t i = 0; i < v.size(); ++i) {
      const Complex<double> z = v[i].s[0].c[2];
      if (i / 64 == 3) {
        EXPECT_NEAR(abs(z), 1.0, 1e-15);
        sum_re += z.re;
        sum_im2 += z.im * z.im;
      } else {
        EXPECT_EQ(abs(z), 0.0);
      }
      EXPECT_EQ(norm2(v[i]), norm2(z));  // only spin 0, colour 2
    }
    EXPECT_LT(std::abs(sum_re), 32.0);  // 64 random signs: not all equal
    if (type == SourceType::Z2Wall) EXPECT_EQ(sum_im2, 0.0);
    else EXPECT_GT(sum_im2, 5.0);       // Z4 has imaginary entries
  }
}

TEST(Sources, PositionOutsideTheLatticeIsAnError) {
  SourceSpec spec;
  spec.position = {0, 0, 4, 0};
  EXPECT_THROW(check_source_position(spec, {4, 4, 4, 4}), Error);
  spec.type = SourceType::Z2Wall;  // walls only need the time slice
  EXPECT_NO_THROW(check_source_position(spec, {4, 4, 4, 4}));
  spec.position = {0, 0, 0, -1};
  EXPECT_THROW(check_source_position(spec, {4, 4, 4, 4}), Error);
  // The gaussian wavefunction's centre is a site: all four coordinates are checked.
  spec.type = SourceType::GaussianWavefunction;
  spec.position = {0, 0, 4, 0};
  EXPECT_THROW(check_source_position(spec, {4, 4, 4, 4}), Error);
  spec.position = {3, 3, 3, 3};
  EXPECT_NO_THROW(check_source_position(spec, {4, 4, 4, 4}));
}

// The gaussian wavefunction source (issue 29, MILC's "gaussian" source in Coulomb gauge): exp(-r^2/r0^2)
// with r the periodic spatial distance from the centre, on the centre's time slice only. The values at a
// few sites are written out by hand, including distances that are shorter across the boundary.
TEST(Sources, GaussianWavefunctionIsExpOfMinusRSquaredOverR0Squared) {
  EXPECT_EQ(source_type_from_name("gaussian_wavefunction"), SourceType::GaussianWavefunction);
  const Dims dims{6, 4, 8, 6};  // unequal extents: a direction mixed up shows
  const Geometry g = Geometry::single_process(dims);
  SourceSpec spec;
  spec.type = SourceType::GaussianWavefunction;
  spec.position = {5, 1, 0, 2};
  spec.radius = 1.5;
  const double r02 = 2.25;
  auto site = [&](int x, int y, int z, int t) { return std::size_t(x + 6 * (y + 4 * (z + 8 * t))); };
  for (Location loc : test::locations()) {
    const LexicographicSpinor v = to_lexicographic(make_source(spec, g, loc, 3, 2));
    auto at = [&](int x, int y, int z, int t) { return v[site(x, y, z, t)].s[3].c[2]; };
    EXPECT_EQ(at(5, 1, 0, 2).re, 1.0);                                    // the centre
    EXPECT_NEAR(at(0, 1, 0, 2).re, std::exp(-1.0 / r02), 1e-15);          // x: 0 is 1 from 5 across L = 6
    EXPECT_NEAR(at(5, 2, 7, 2).re, std::exp(-2.0 / r02), 1e-15);          // z: 7 is 1 from 0 across L = 8
    EXPECT_NEAR(at(1, 0, 3, 2).re, std::exp(-(4.0 + 1 + 9) / r02), 1e-15);  // dx 2 (across), dy 1, dz 3
    EXPECT_NEAR(at(2, 3, 4, 2).re, std::exp(-(9.0 + 4 + 16) / r02), 1e-15);  // the farthest: half of each extent
    EXPECT_NEAR(at(3, 1, 5, 2).re, std::exp(-(4.0 + 0 + 9) / r02), 1e-15);
    // Every site against the nearest periodic image found by trying the images x - x0 + k L, k = -1, 0, 1.
    double largest_off_slice = 0, largest_imag = 0, largest_other_component = 0;
    for (int t = 0; t < dims[3]; ++t)
      for (int z = 0; z < dims[2]; ++z)
        for (int y = 0; y < dims[1]; ++y)
          for (int x = 0; x < dims[0]; ++x) {
            const int c[3] = {x, y, z};
            double r2 = 0;
            for (int mu = 0; mu < 3; ++mu) {
              double best = std::numeric_limits<double>::max();
              for (int k = -1; k <= 1; ++k) {
                const double d = c[mu] - spec.position[std::size_t(mu)] + k * dims[mu];
                best = std::min(best, d * d);
              }
              r2 += best;
            }
            const Complex<double> z0 = at(x, y, z, t);
            if (t == 2) EXPECT_NEAR(z0.re, std::exp(-r2 / r02), 1e-15) << x << " " << y << " " << z;
            else largest_off_slice = std::max(largest_off_slice, abs(z0));
            largest_imag = std::max(largest_imag, std::abs(z0.im));
            largest_other_component =
                std::max(largest_other_component, norm2(v[site(x, y, z, t)]) - norm2(z0));  // only spin 3, colour 2
          }
    EXPECT_EQ(largest_off_slice, 0.0);
    EXPECT_EQ(largest_imag, 0.0);
    EXPECT_EQ(largest_other_component, 0.0);
  }
  // Only a finite radius > 0 makes a wavefunction; the error names the key.
  for (double r : {0.0, -1.0, std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity()}) {
    spec.radius = r;
    const std::string e = test::error_of([&] { make_source(spec, g, Location::Host, 0, 0); });
    EXPECT_NE(e.find("source.radius"), std::string::npos) << r << ": " << e;
    EXPECT_THROW(check_source_radius(r), Error);
  }
  EXPECT_NO_THROW(check_source_radius(0.5));
}

// On a decomposed lattice each box holds its part of the one-process source: the distances are taken
// in global coordinates (the boxes built here as the ranks of a 2 x 1 x 2 x 2 grid would build theirs).
TEST(Sources, GaussianWavefunctionOnADecomposedLatticeIsTheOneProcessSource) {
  const Dims dims{4, 4, 8, 4};
  SourceSpec spec;
  spec.type = SourceType::GaussianWavefunction;
  spec.position = {3, 0, 6, 1};  // the centre in the second box along x and z; its tails reach the others
  spec.radius = 2.5;
  const LexicographicSpinor whole =
      to_lexicographic(make_source(spec, Geometry::single_process(dims), Location::Host, 1, 0));
  const Dims grid{2, 1, 2, 2};
  double checked_norm = 0;
  for (int rank = 0; rank < process_count(grid); ++rank) {
    const Geometry box = ProcessGrid(grid, rank).decompose(dims);
    const LexicographicSpinor part = to_local_lexicographic(make_source(spec, box, Location::Host, 1, 0));
    ASSERT_EQ(std::int64_t(part.size()), box.volume());
    for (std::int64_t i = 0; i < box.volume(); ++i) {
      int x[4];
      lexicographic_coords(i, box.local.data(), x);
      for (int mu = 0; mu < 4; ++mu) x[mu] += box.offset[mu];
      const std::size_t g = std::size_t(x[0] + dims[0] * (x[1] + dims[1] * (x[2] + dims[2] * x[3])));
      EXPECT_EQ(part[std::size_t(i)].s[1].c[0].re, whole[g].s[1].c[0].re) << rank << " " << i;
      checked_norm += norm2(part[std::size_t(i)]);
    }
  }
  double whole_norm = 0;
  for (const auto& s : whole) whole_norm += norm2(s);
  EXPECT_GT(whole_norm, 2.0);  // not just the centre
  EXPECT_DOUBLE_EQ(checked_norm, whole_norm);
}

// Exactness on the free field: the propagator is translation invariant in space and linear in the
// source, so the solution for the wavefunction source phi on slice t0 is
//   psi(x) = sum_y phi(y) S0(x - y),
// S0 the propagator of the point source at the slice's spatial origin (0, 0, 0, t0) (only spatial
// shifts, which are periodic: the antiperiodic time direction is not moved). The convolution is done
// here by plain loops over the point propagator's columns.
TEST(Sources, GaussianWavefunctionPropagatorIsTheConvolutionOfThePointPropagator) {
  const Dims dims{4, 4, 4, 8};
  const Geometry geom = Geometry::single_process(dims);
  GaugeField<double> U(geom, Location::Host);
  set_unit_gauge(U);
  FermionParams f;
  f.wilson.kappa = 0.12;
  const DiracOperators D = make_dirac_operators(U, f);
  PropagatorOptions o;
  o.solver.tolerance = 1e-12;
  const int t0 = 5;
  SourceSpec point;
  point.position = {0, 0, 0, t0};
  SourceSpec gauss;
  gauss.type = SourceType::GaussianWavefunction;
  gauss.position = {1, 3, 2, t0};
  gauss.radius = 1.7;
  const PointPropagator S0 = compute_propagator(D, true, point, o);
  const PointPropagator S = compute_propagator(D, true, gauss, o);
  const int L = 4;  // every spatial extent
  auto lex = [&](int x, int y, int z, int t) { return std::size_t(x + L * (y + L * (z + L * t))); };
  auto dist2 = [&](int a, int b) {
    const int d = std::abs(a - b);
    return double(std::min(d, L - d) * std::min(d, L - d));
  };
  double largest = 0, worst = 0;
  for (int col = 0; col < 12; ++col)
    for (int t = 0; t < dims[3]; ++t)
      for (int z = 0; z < L; ++z)
        for (int y = 0; y < L; ++y)
          for (int x = 0; x < L; ++x) {
            ColorSpinor<double> want{};
            for (int yz = 0; yz < L; ++yz)
              for (int yy = 0; yy < L; ++yy)
                for (int yx = 0; yx < L; ++yx) {
                  const double phi = std::exp(-(dist2(yx, 1) + dist2(yy, 3) + dist2(yz, 2)) / (1.7 * 1.7));
                  const auto& s0 = S0.column[std::size_t(col)][lex((x - yx + L) % L, (y - yy + L) % L,
                                                                    (z - yz + L) % L, t)];
                  for (int sp = 0; sp < 4; ++sp)
                    for (int c = 0; c < 3; ++c) want.s[sp].c[c] += phi * s0.s[sp].c[c];
                }
            const auto& got = S.column[std::size_t(col)][lex(x, y, z, t)];
            for (int sp = 0; sp < 4; ++sp)
              for (int c = 0; c < 3; ++c) {
                largest = std::max(largest, abs(want.s[sp].c[c]));
                worst = std::max(worst, abs(got.s[sp].c[c] - want.s[sp].c[c]));
              }
          }
  EXPECT_GT(largest, 0.1);
  EXPECT_LT(worst, 1e-9 * largest) << "largest entry " << largest;
  // The wavefunction source's propagator is not the point one (a test that compared S0 with itself
  // would pass above too if the source were a point).
  double diff = 0;
  for (std::size_t i = 0; i < S.column[0].size(); ++i) diff = std::max(diff, norm2(S.column[0][i] - S0.column[0][i]));
  EXPECT_GT(diff, 1e-2);
}

}  // namespace
}  // namespace lqcd
