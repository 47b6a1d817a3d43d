// Division by multiplication (core/fast_divisor.hpp) against the division instruction: every divisor
// a lattice extent can give, dividends at the edges and spread over [0, 2^31).
#include <gtest/gtest.h>

#include <cstdint>

#include "core/fast_divisor.hpp"

namespace lqcd {
namespace {

TEST(FastDivisor, EqualsIntegerDivisionBelow2To31) {
  const std::uint32_t top = (std::uint32_t(1) << 31) - 1;
  for (std::uint32_t d = 1; d <= 4096; ++d) {
    const FastDivisor f = FastDivisor::of(d);
    // Multiples of d and their neighbours, where a rounding error would show first.
    for (std::uint32_t k : {0u, 1u, 2u, 1000u, top / d - 1, top / d}) {
      const std::uint64_t base = std::uint64_t(k) * d;
      for (std::int64_t delta = -1; delta <= 1; ++delta) {
        const std::int64_t n = std::int64_t(base) + delta;
        if (n < 0 || n > std::int64_t(top)) continue;
        ASSERT_EQ(f.divide(std::uint32_t(n)), std::uint32_t(n) / d) << n << " / " << d;
      }
    }
    ASSERT_EQ(f.divide(top), top / d) << d;
    // A spread of dividends (a linear congruential walk).
    std::uint32_t n = d * 2654435761u;
    for (int i = 0; i < 200; ++i) {
      n = n * 1664525u + 1013904223u;
      const std::uint32_t v = n & top;
      ASSERT_EQ(f.divide(v), v / d) << v << " / " << d;
    }
  }
}

}  // namespace
}  // namespace lqcd
