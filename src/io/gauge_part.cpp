#include "io/gauge_part.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "comm/communicator.hpp"
#include "core/error.hpp"
#include "io/nersc.hpp"

namespace lqcd::io {

namespace {

// The first failing (site, mu) as global_site * 4 + mu, or "none", agreed between the processes.
constexpr std::int64_t kNone = std::numeric_limits<std::int64_t>::max();

[[noreturn]] void fail_first(std::int64_t first, const Geometry& g, const std::filesystem::path& path,
                             bool writing) {
  const std::int64_t site = first / 4;
  const int mu = int(first % 4);
  if (!writing) fail_non_finite(path, g.global, site, mu);
  fail("{}: refusing to write a non-finite value (NaN or Inf) at site {}, mu = {}", path.string(), site, mu);
}

std::int64_t global_site(const SiteIndexer& idx, std::int64_t i) {
  int x[4];
  idx.coords_lex(i, x);
  return std::int64_t(idx.global_lex(x));
}

}  // namespace

void check_part_dims(const Dims& dims, const Geometry& g, const std::filesystem::path& path) {
  if (dims != g.global)
    fail("{}: lattice dims {} do not match the input's {}", path.string(), dims_string(dims), dims_string(g.global));
}

LexicographicGauge decode_part(std::span<const std::uint8_t> data, const Geometry& g, RealFormat f, int rows,
                               const std::filesystem::path& path) {
  LexicographicGauge box(g.local);
  const std::size_t link_bytes = std::size_t(reals_per_link(rows)) * f.bytes;
  const SiteIndexer idx = SiteIndexer::from(g);
  std::int64_t first = kNone;
  for (std::int64_t i = 0; i < g.volume(); ++i)
    for (int mu = 0; mu < 4; ++mu)
      if (!decode_link(data.data() + (std::size_t(i) * 4 + mu) * link_bytes, f, rows, box(i, mu)))
        first = std::min(first, global_site(idx, i) * 4 + mu);
  first = comm::min(g.grid, first);
  if (first != kNone) fail_first(first, g, path, false);
  return box;
}

void check_part(const LexicographicGauge& box, const Geometry& g, const std::filesystem::path& path) {
  if (box.dims != g.local || box.links.size() != std::size_t(g.volume()) * 4)
    fail("{}: the field to write has {} links on a box of {}, but the local lattice is {}", path.string(),
         box.links.size(), dims_string(box.dims), dims_string(g.local));
  const SiteIndexer idx = SiteIndexer::from(g);
  std::int64_t first = kNone;
  for (std::int64_t i = 0; i < g.volume(); ++i)
    for (int mu = 0; mu < 4; ++mu)
      for (const auto& row : box(i, mu).m)
        for (const auto& z : row)
          if (!std::isfinite(z.re) || !std::isfinite(z.im)) first = std::min(first, global_site(idx, i) * 4 + mu);
  first = comm::min(g.grid, first);
  if (first != kNone) fail_first(first, g, path, true);
}

std::uint32_t nersc_checksum_part(std::span<const std::uint8_t> data, RealFormat f, const Geometry& g) {
  return comm::wrapping_sum(g.grid, nersc_checksum(data, f));
}

ScidacChecksum scidac_checksum_part(std::span<const std::uint8_t> data, std::size_t site_bytes, const Geometry& g) {
  const SiteIndexer idx = SiteIndexer::from(g);
  ScidacChecksum sum;
  for (std::int64_t i = 0; i < g.volume(); ++i)
    scidac_checksum_add(sum, data.data() + std::size_t(i) * site_bytes, site_bytes, std::uint64_t(global_site(idx, i)));
  std::uint32_t both[2] = {sum.suma, sum.sumb};
  comm::bitwise_xor(g.grid, both);
  return {both[0], both[1]};
}

double mean_link_trace(const LexicographicGauge& box, const Geometry& g) {
  // Terms of |Re tr U| <= 2^20 (3 for SU(3)) scaled by 2^64 stay below 2^84 and 2^40 links of them
  // below 2^124: no overflow of the 128-bit sum. Larger (non-SU(3)) values fall back to a double sum,
  // which then depends on the grouping.
  constexpr double kLimit = 1048576.0;
  bool small = true;
  for (const auto& u : box.links) small = small && std::abs(re_trace(u)) <= kLimit;
  const double links = 4.0 * double(g.global_volume());
  if (!comm::any(g.grid, !small)) {
    __int128 sum = 0;
    for (const auto& u : box.links) sum += static_cast<__int128>(std::ldexp(re_trace(u), 64));
    sum = comm::sum(g.grid, sum);
    return std::ldexp(static_cast<double>(sum), -64) / (3.0 * links);
  }
  double sum = 0;
  for (const auto& u : box.links) sum += re_trace(u);
  return comm::sum(g.grid, sum) / (3.0 * links);
}

}  // namespace lqcd::io
