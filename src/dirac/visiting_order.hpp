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

// The tile the environment variable `variable` forces (for measurements), or 0 when it is not set; an
// Error when it is not a divisor of the local time extent.
int forced_t_tile(const char* variable, const SiteIndexer& idx);

// The one-right-hand-side hopping term on a parity of `g` (the local box of a decomposed lattice: the
// tile orders the interior kernel's sites; the face hops run after it), with `traffic_bytes` of DRAM
// traffic per site (links, input and output spinors: hopping_traffic_bytes): storage order while a
// time slice's traffic stays within kSliceTrafficInL2, else the most slices whose planes' traffic fits
// in kTilePlanesTraffic. LQCD_HOPPING_T_TILE forces a tile.
int hopping_t_tile(const Geometry& g, std::int64_t traffic_bytes);

}  // namespace lqcd
