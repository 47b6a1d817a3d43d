#pragma once
// The t-tile of the hopping kernels' visiting order (SiteIndexer::tiled_site): how many time slices a
// kernel sweeps together before moving on in z. A site's input spinor is read by its 8 neighbours; in
// storage order its t-neighbours come a whole time slice of sites later and earlier. L2 (50 MB on the
// H100) keeps it until then only while the traffic of one time slice stays well below its size;
// beyond, every input spinor is read from DRAM up to three times, and a tile of a few slices brings the
// t-neighbours within a plane (docs/performance.md, seventh and eighth sessions).

#include <cstdint>

#include "core/geometry.hpp"

namespace lqcd {

// The tile for a kernel on a parity of `g` (the local box of a decomposed lattice: the tile orders the
// interior kernel's sites; the face hops run after it): the tile the environment variable `variable`
// forces (for measurements; an Error unless it divides the local time extent); else storage order (1)
// while a time slice's `slice_bytes` per site stay within kSliceTrafficInL2, else the most slices
// whose planes of `plane_bytes` per site fit in kTilePlanesTraffic.
int t_tile(const Geometry& g, const char* variable, std::int64_t slice_bytes, std::int64_t plane_bytes);

// The one-right-hand-side hopping term with `traffic_bytes` of DRAM traffic per site (links, input and
// output spinors: hopping_traffic_bytes) for both; LQCD_HOPPING_T_TILE forces a tile.
inline int hopping_t_tile(const Geometry& g, std::int64_t traffic_bytes) {
  return t_tile(g, "LQCD_HOPPING_T_TILE", traffic_bytes, traffic_bytes);
}

}  // namespace lqcd
