#include "dirac/visiting_order.hpp"

#include <charconv>
#include <cstdlib>
#include <cstring>

#include "core/error.hpp"

namespace lqcd {

namespace {
// Measured on the H100 (docs/performance.md, seventh and eighth sessions): at 32^4 a slice of the
// one-RHS double kernel moves 9.4 MB and storage order is best; at 48^4 it moves 32 MB and the kernel
// ran 13% slower per site than at 32^4. With 12 sources at 32^4, single (19 MB per slice of input)
// gains 12% with 8 slices, double (38 MB) 7% with 4; half (10 MB) loses 3-4% with any tile.
constexpr std::int64_t kSliceTrafficInL2 = std::int64_t(24) << 20;
constexpr std::int64_t kTilePlanesTraffic = std::int64_t(6) << 20;

int forced_t_tile(const char* variable, const SiteIndexer& idx) {
  const char* v = std::getenv(variable);
  if (!v) return 0;
  int tile = 0;
  const char* end = v + std::strlen(v);
  if (std::from_chars(v, end, tile).ptr != end || tile < 1 || idx.n[3] % tile != 0)
    fail("{}={}: expected a divisor of the local time extent {}", variable, v, idx.n[3]);
  return tile;
}
}  // namespace

int t_tile(const Geometry& g, const char* variable, std::int64_t slice_bytes, std::int64_t plane_bytes) {
  const SiteIndexer idx = SiteIndexer::from(g);
  if (const int forced = forced_t_tile(variable, idx)) return forced;
  const std::int64_t slice = slice_bytes * idx.vh / idx.n[3];
  return slice <= kSliceTrafficInL2 ? 1 : idx.tile_in_t(plane_bytes, kTilePlanesTraffic);
}

}  // namespace lqcd
