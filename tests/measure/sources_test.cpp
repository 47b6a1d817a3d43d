// Sources: where they are non-zero, and their noise statistics.
#include <gtest/gtest.h>

#include "core/error.hpp"
#include "fields/spinor_blas.hpp"
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
}

}  // namespace
}  // namespace lqcd
