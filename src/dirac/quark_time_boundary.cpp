#include "dirac/quark_time_boundary.hpp"

#include "core/dispatch.hpp"

namespace lqcd {

GaugeField<double> quark_hopping_links(const GaugeField<double>& U, const QuarkTimeBoundary& b) {
  GaugeField<double> H = U.clone(U.location());
  if (!b.open) return H;
  for_each(H.location(), H.geometry().volume(), CutQuarkLinksKernel{H.view(), b});
  H.exchange_halo();  // the hops at a process boundary read the neighbour's links from the halo
  return H;
}

}  // namespace lqcd
