#include "dirac/visiting_order.hpp"

#include <charconv>
#include <cstdlib>
#include <cstring>

#include "core/error.hpp"

namespace lqcd {

namespace {
// Measured on the H100 (docs/performance.md, eighth session): at 32^4 a slice of the one-RHS double
// kernel moves 9.4 MB and storage order is best; at 48^4 it moves 32 MB and the kernel ran 13% slower
// per site than at 32^4.
constexpr std::int64_t kSliceTrafficInL2 = std::int64_t(24) << 20;
constexpr std::int64_t kTilePlanesTraffic = std::int64_t(6) << 20;
}  // namespace

int forced_t_tile(const char* variable, const SiteIndexer& idx) {
  const char* v = std::getenv(variable);
  if (!v) return 0;
  int tile = 0;
  const char* end = v + std::strlen(v);
  if (std::from_chars(v, end, tile).ptr != end || tile < 1 || idx.n[3] % tile != 0)
    fail("{}={}: expected a divisor of the local time extent {}", variable, v, idx.n[3]);
  return tile;
}

int hopping_t_tile(const Geometry& g, std::int64_t traffic_bytes) {
  const SiteIndexer idx = SiteIndexer::from(g);
  if (const int forced = forced_t_tile("LQCD_HOPPING_T_TILE", idx)) return forced;
  const std::int64_t slice = traffic_bytes * idx.vh / idx.n[3];
  return slice <= kSliceTrafficInL2 ? 1 : idx.tile_in_t(traffic_bytes, kTilePlanesTraffic);
}

}  // namespace lqcd
