#include "fields/gauge_field.hpp"

#include "core/dispatch.hpp"
#include "core/error.hpp"
#include "fields/global_order.hpp"
#include "fields/precision_kernels.hpp"

namespace lqcd {

namespace {

// The field of this process's sites, given in local lexicographic order (site * 4 + mu), halos filled.
GaugeField<double> from_local_links(const std::vector<SU3<double>>& local, const Geometry& geom, Location loc) {
  GaugeField<double> host(geom, Location::Host);
  const GaugeView<double> v = host.view();
  const std::int64_t volume = geom.volume();
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < volume; ++i) {
    int x[4];
    v.idx.coords_lex(i, x);
    const int p = SiteIndexer::parity(x);
    const std::int64_t s = v.idx.cb_index(x);
    for (int mu = 0; mu < 4; ++mu) v.store(mu, p, s, local[std::size_t(i) * 4 + mu]);
  }
  host.exchange_halo();
  return loc == Location::Host ? std::move(host) : host.clone(loc);
}

}  // namespace

GaugeField<double> to_gauge_field(const LexicographicGauge& lex, const Geometry& geom, Location loc,
                                  const std::string& what) {
  if (lex.dims != geom.global)
    fail("{}: lattice dims {} do not match the expected {}", what, dims_string(lex.dims),
         dims_string(geom.global));
  if (!geom.distributed()) return from_local_links(lex.links, geom, loc);
  return from_local_links(local_part(lex.links, geom, 4), geom, loc);
}

GaugeField<double> from_box(const LexicographicGauge& box, const Geometry& geom, Location loc, const std::string& what) {
  if (box.dims != geom.local || box.links.size() != std::size_t(geom.volume()) * 4)
    fail("{}: a box of {} ({} links) does not match the local lattice {}", what, dims_string(box.dims),
         box.links.size(), dims_string(geom.local));
  return from_local_links(box.links, geom, loc);
}

LexicographicGauge to_box(const GaugeField<double>& u) {
  const GaugeField<double> host = u.clone(Location::Host);
  const Geometry& g = u.geometry();
  LexicographicGauge box;
  box.dims = g.local;
  box.links.resize(std::size_t(g.volume()) * 4);
  const GaugeView<double> v = host.view();
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < g.volume(); ++i) {
    int x[4];
    v.idx.coords_lex(i, x);
    for (int mu = 0; mu < 4; ++mu) box.links[std::size_t(i) * 4 + mu] = v.link(x, mu);
  }
  return box;
}

LexicographicGauge to_lexicographic(const GaugeField<double>& u) {
  LexicographicGauge lex = to_box(u);
  lex.dims = u.geometry().global;
  lex.links = gather_global(lex.links, u.geometry(), 4);
  return lex;
}

template <typename To, typename From>
GaugeField<To> convert_precision(const GaugeField<From>& u) {
  GaugeField<To> out(u.geometry(), u.location());
  const std::int64_t vh = u.geometry().stored_half_volume();  // halo sites too: they stay current
  for_each(u.location(), 8 * 9 * vh,
           ConvertComponentsKernel<To, From>{out.view().data, out.stride(), u.view().data, u.stride(), vh});
  return out;
}

template GaugeField<float> convert_precision<float, double>(const GaugeField<double>&);

template <typename Real>
GaugeField<Real, 6> compress_links(const GaugeField<Real>& u) {
  GaugeField<Real, 6> out(u.geometry(), u.location());
  for_each(u.location(), u.geometry().volume(), CompressLinksKernel<Real>{u.view(), out.view()});
  out.exchange_halo();
  return out;
}

template GaugeField<double, 6> compress_links<double>(const GaugeField<double>&);
template GaugeField<float, 6> compress_links<float>(const GaugeField<float>&);
template GaugeField<double> convert_precision<double, float>(const GaugeField<float>&);

}  // namespace lqcd
