#include "gauge/open_boundary.hpp"

#include "comm/communicator.hpp"
#include "core/dispatch.hpp"
#include "gauge/open_boundary_kernels.hpp"

namespace lqcd {

void apply_time_boundary(GaugeField<double>& U, const TimeBoundary& b) {
  if (!b.open) return;
  for_each(U.location(), U.geometry().volume(), FreezeBoundaryLinksKernel{U.view(), b});
  U.exchange_halo();  // the neighbours' staples read the zero links too
}

bool time_links_vanish_at_last_slice(const GaugeField<double>& U) {
  const Geometry& g = U.geometry();
  const Maximum m =
      reduce<Maximum>(U.location(), g.volume(), LastTimeLinkSizeKernel{U.view(), g.global[kTimeDir] - 1});
  return comm::max(g.grid, m.v) == 0.0;
}

OpenBoundaryPlaquettes open_boundary_plaquettes(const GaugeField<double>& U, const TimeBoundary& b) {
  Sums<3> s = reduce<Sums<3>>(U.location(), U.geometry().volume(), OpenBoundaryPlaquetteKernel{U.view(), b});
  comm::sum(U.geometry().grid, s.v);
  OpenBoundaryPlaquettes r;
  r.weighted_deficit = s[0];
  r.count = s[2];
  r.plaquette = s[2] > 0 ? s[1] / s[2] : 0.0;
  return r;
}

}  // namespace lqcd
