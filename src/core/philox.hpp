#pragma once
// Philox-4x32-10, the counter-based generator of J. K. Salmon, M. A. Moraes, R. O. Dror and
// D. E. Shaw, "Parallel random numbers: as easy as 1, 2, 3", SC'11 (doi:10.1145/2063384.2063405).
// Output = bijection(counter, key): no state, so every site can draw its numbers independently on any
// thread, process or device and still get the same ones.

#include <cstdint>

#include "core/macros.hpp"

namespace lqcd {

struct Philox4x32 {
  struct Block {
    std::uint32_t v[4];
  };

  LQCD_HOST_DEVICE static Block generate(Block ctr, std::uint32_t k0, std::uint32_t k1) {
    constexpr std::uint32_t kM0 = 0xD2511F53u, kM1 = 0xCD9E8D57u;
    constexpr std::uint32_t kW0 = 0x9E3779B9u, kW1 = 0xBB67AE85u;
    for (int round = 0; round < 10; ++round) {
      if (round > 0) {
        k0 += kW0;
        k1 += kW1;
      }
      const std::uint64_t p0 = std::uint64_t(kM0) * ctr.v[0];
      const std::uint64_t p1 = std::uint64_t(kM1) * ctr.v[2];
      ctr = Block{{std::uint32_t(p1 >> 32) ^ ctr.v[1] ^ k0, std::uint32_t(p1),
                   std::uint32_t(p0 >> 32) ^ ctr.v[3] ^ k1, std::uint32_t(p0)}};
    }
    return ctr;
  }
};

}  // namespace lqcd
