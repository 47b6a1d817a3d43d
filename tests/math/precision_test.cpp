// 16-bit fixed point (math/precision.hpp): rounding to nearest, clamping, and the round trip of a
// scaled complex number.
#include <gtest/gtest.h>

#include <cmath>

#include "math/precision.hpp"

namespace lqcd {
namespace {

// The integer q that x is stored as (to_fixed gives its code, fixed_value the integer back).
float fixed_integer(float x) { return fixed_value(to_fixed(x)); }
// The stored code of the integer q: offset binary, q + 32768 in 16 bits (precision.hpp).
std::int16_t code_of(int q) { return std::int16_t(std::uint16_t(q + 32768)); }

TEST(FixedPoint, RoundsToNearestAndClamps) {
  EXPECT_EQ(fixed_integer(0.0f), 0.0f);
  EXPECT_EQ(fixed_integer(1.0f), 32767.0f);
  EXPECT_EQ(fixed_integer(-1.0f), -32767.0f);
  EXPECT_EQ(fixed_integer(2.0f), 32767.0f) << "values beyond the scale clamp";
  EXPECT_EQ(fixed_integer(-7.0f), -32767.0f);
  EXPECT_EQ(fixed_integer(0.4f / 32767.0f), 0.0f);
  EXPECT_EQ(fixed_integer(0.6f / 32767.0f), 1.0f);
  EXPECT_EQ(fixed_integer(-0.6f / 32767.0f), -1.0f);
  EXPECT_FLOAT_EQ(from_fixed(code_of(32767)), 1.0f);
  EXPECT_FLOAT_EQ(from_fixed(code_of(-16384)), -16384.0f / 32767.0f);
}

TEST(FixedPoint, CodesAreOffsetBinary) {
  // The storage format (a half-precision field's bytes): q + 32768, i.e. q's 16 bits with the top bit
  // flipped; zero is 0x8000, and the all-zero bytes of a fresh buffer mean -32768 (times a zero norm).
  EXPECT_EQ(std::uint16_t(to_fixed(0.0f)), 0x8000u);
  EXPECT_EQ(std::uint16_t(to_fixed(1.0f)), 0xFFFFu);
  EXPECT_EQ(std::uint16_t(to_fixed(-1.0f)), 0x0001u);
  EXPECT_EQ(std::uint16_t(to_fixed(-1.0f / 32767.0f)), 0x7FFFu);
  EXPECT_EQ(fixed_value(std::int16_t(0)), -32768.0f);
}

TEST(FixedPoint, MagicNumberConversionsEqualTheConversionInstructions) {
  // fixed_value and to_fixed avoid I2F/F2I (precision.hpp): every 16-bit code must come back as the
  // float the conversion instruction gives for its integer, and rounding must be rintf's (ties to even).
  for (int q = -32768; q <= 32767; ++q) ASSERT_EQ(fixed_value(code_of(q)), float(q)) << q;
  for (int i = -200000; i <= 200000; ++i) {
    const float x = float(i) * (1.0f / 200000.0f);
    ASSERT_EQ(to_fixed(x), code_of(int(rintf(x * 32767.0f)))) << x;
  }
  EXPECT_EQ(fixed_integer(2.5f / 32767.0f), 2.0f) << "2.5 rounds to the even neighbour";
  EXPECT_EQ(fixed_integer(-3.5f / 32767.0f), -4.0f) << "-3.5 rounds to the even neighbour";
}

TEST(FixedPoint, RoundTripErrorIsHalfAStep) {
  // Every x in [-1, 1] comes back within half a step 1 / (2 * 32767) (plus float rounding).
  double worst = 0;
  for (int i = -10000; i <= 10000; ++i) {
    const float x = float(i) / 10000.0f * 0.999f + 1e-5f * float(i % 7);
    worst = std::max(worst, double(std::fabs(from_fixed(to_fixed(x)) - x)));
  }
  EXPECT_LE(worst, 0.5 / 32767.0 + 1e-7);
  EXPECT_GT(worst, 0.25 / 32767.0) << "a fixed-point grid must show its steps";
}

TEST(FixedPoint, ScaledComplexNumbersKeepTheirRelativePrecision) {
  // A spinor component stored against its site's norm: the error scales with the norm, not with 1.
  for (float norm : {1e-20f, 1e-3f, 1.0f, 1e6f}) {
    const Complex<float> z(0.3f * norm, -0.7f * norm);
    const Complex<std::int16_t> q = encode<Half>(z, 1.0f / norm);
    const Complex<float> back = decode<Half>(q, norm);
    EXPECT_LE(std::fabs(back.re - z.re), 0.51f / 32767.0f * norm) << norm;
    EXPECT_LE(std::fabs(back.im - z.im), 0.51f / 32767.0f * norm) << norm;
  }
  // Floating-point precisions pass through unchanged.
  const Complex<double> w(0.1, 0.2);
  EXPECT_EQ(decode<double>(encode<double>(w, 1.0), 1.0).re, 0.1);
  EXPECT_STREQ(precision_name<Half>(), "half");
  EXPECT_STREQ(precision_name<float>(), "single");
}

}  // namespace
}  // namespace lqcd
