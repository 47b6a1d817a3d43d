#pragma once
// Division of a 32-bit unsigned number n < 2^31 by a divisor d fixed before a kernel runs, as one
// 64-bit multiplication and a shift: floor(n / d) = floor(n m / 2^(31 + l)) with l = ceil(log2 d) and
// m = ceil(2^(31 + l) / d), exact for every n < 2^31 because m d - 2^(31 + l) < d <= 2^l
// (T. Granlund and P. L. Montgomery, "Division by invariant integers using multiplication", PLDI
// 1994, Theorem 4.2 with N = 31). A GPU divides by a run-time integer in ~20 instructions; the site
// kernels turn a thread's index into coordinates with three such divisions (SiteIndexer::tiled_site).

#include <cstdint>

#include "core/macros.hpp"

namespace lqcd {

struct FastDivisor {
  std::uint32_t m = 1u << 31;
  int shift = 31;  // 31 + l

  static FastDivisor of(std::uint32_t divisor) {
    FastDivisor f;
    int l = 0;
    while ((std::uint64_t(1) << l) < divisor) ++l;
    f.shift = 31 + l;
    f.m = std::uint32_t(((std::uint64_t(1) << f.shift) + divisor - 1) / divisor);
    return f;
  }
  // n / divisor for n < 2^31.
  LQCD_HOST_DEVICE std::uint32_t divide(std::uint32_t n) const {
    return std::uint32_t((std::uint64_t(n) * m) >> shift);
  }
};

}  // namespace lqcd
