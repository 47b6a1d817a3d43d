#pragma once
// Random numbers keyed by (seed, global site, purpose, update counter), DESIGN.md: a run gives the
// same numbers on CPU or GPU, with any thread count and any process grid, and a resumed run continues
// exactly where it stopped (the counter is the sweep/trajectory number, not a stored state).
//
// Counter words: [0] global site (low 32 bits), [1] site bits 32..47 | purpose << 24 | sub-stream << 16,
// [2] update counter, [3] draw index within this (site, purpose, update). Key = the 64-bit seed.

#include <cmath>
#include <cstdint>

#include "core/philox.hpp"

namespace lqcd {

enum class RngPurpose : std::uint32_t {
  HotStart = 1,
  Heatbath = 2,
  GaugeTransformation = 3,
  Momenta = 4,
  Pseudofermion = 5,
  Source = 6,
  Metropolis = 7,
  MultigridSetup = 8,
  Test = 255,
};

class SiteRandom {
 public:
  LQCD_HOST_DEVICE SiteRandom(std::uint64_t seed, std::uint64_t global_site, RngPurpose purpose,
                              std::uint32_t substream, std::uint32_t update)
      : k0_(std::uint32_t(seed)), k1_(std::uint32_t(seed >> 32)) {
    ctr_.v[0] = std::uint32_t(global_site);
    ctr_.v[1] = (std::uint32_t(global_site >> 32) & 0xFFFFu) | ((std::uint32_t(purpose) & 0xFFu) << 24) |
                ((substream & 0xFFu) << 16);
    ctr_.v[2] = update;
    ctr_.v[3] = 0;
  }

  LQCD_HOST_DEVICE std::uint32_t next_u32() {
    if (used_ == 4) {
      out_ = Philox4x32::generate(ctr_, k0_, k1_);
      ++ctr_.v[3];
      used_ = 0;
    }
    // Constant indices only: a run-time index would put the block into GPU local memory.
    const std::uint32_t r = used_ == 0 ? out_.v[0] : used_ == 1 ? out_.v[1] : used_ == 2 ? out_.v[2] : out_.v[3];
    ++used_;
    return r;
  }

  // Uniform in [0, 1) with 53 random bits.
  LQCD_HOST_DEVICE double uniform() {
    const std::uint64_t a = next_u32() >> 5, b = next_u32() >> 6;  // 27 + 26 bits
    return double(a * 67108864ull + b) * (1.0 / 9007199254740992.0);
  }
  // Uniform in (0, 1]: safe as the argument of a logarithm.
  LQCD_HOST_DEVICE double uniform_open0() { return 1.0 - uniform(); }

  // Standard normal (Box-Muller).
  LQCD_HOST_DEVICE double gaussian() {
    if (have_spare_) {
      have_spare_ = false;
      return spare_;
    }
    const double r = sqrt(-2.0 * log(uniform_open0()));
    const double phi = 2.0 * 3.14159265358979323846 * uniform();
    spare_ = r * sin(phi);
    have_spare_ = true;
    return r * cos(phi);
  }

 private:
  Philox4x32::Block ctr_{};
  Philox4x32::Block out_{};
  std::uint32_t k0_, k1_;
  int used_ = 4;
  bool have_spare_ = false;
  double spare_ = 0;
};

}  // namespace lqcd
