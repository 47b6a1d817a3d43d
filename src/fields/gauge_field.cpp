#include "fields/gauge_field.hpp"

#include <cmath>
#include <type_traits>

#include "comm/communicator.hpp"
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
           ConvertComponentsKernel<To, From>{out.view().data, out.stride(), u.view().data, u.stride(), vh,
                                             stored_in_pairs_v<To, 9>, stored_in_pairs_v<From, 9>});
  return out;
}

template GaugeField<float> convert_precision<float, double>(const GaugeField<double>&);

template <typename To, int Components, typename From>
GaugeField<To, Components> convert_links(const GaugeField<From>& u) {
  GaugeField<To, Components> out(u.geometry(), u.location());
  for_each(u.location(), u.geometry().volume(), ConvertLinksKernel<To, Components, From>{u.view(), out.view()});
  if constexpr (Components == 4) {
    // The 8-real form cannot rebuild links whose first row is a diagonal phase (|u00| = 1, e.g. a cold
    // start), and loses digits near them: check every link, at a tolerance of the precision.
    const double error =
        comm::sum(u.geometry().grid, reduce<double>(u.location(), u.geometry().volume(),
                                                    LinkReconstructionErrorKernel<To, 4, From>{u.view(), out.view()}));
    const double links = 4.0 * double(u.geometry().global_volume());
    const double tolerance = std::is_same_v<To, double> ? 1e-10 : std::is_same_v<To, float> ? 1e-4 : 1e-2;
    if (!(error / links < tolerance * tolerance))
      fail("8-real links: the links cannot be rebuilt from 8 reals (root-mean-square error {:.2e} per link; links "
           "with |U_00| = 1, such as a cold start, have no 8-real form); use 12 or 18 reals",
           std::sqrt(error / links));
  }
  out.exchange_halo();
  return out;
}

template <int Components, typename Real>
GaugeField<Real, Components> compress_links(const GaugeField<Real>& u) {
  return convert_links<Real, Components>(u);
}

template GaugeField<double, 6> compress_links<6, double>(const GaugeField<double>&);
template GaugeField<float, 6> compress_links<6, float>(const GaugeField<float>&);
template GaugeField<double, 4> compress_links<4, double>(const GaugeField<double>&);
template GaugeField<float, 4> compress_links<4, float>(const GaugeField<float>&);
template GaugeField<double> convert_precision<double, float>(const GaugeField<float>&);
// The sloppy links of the solvers and benchmarks.
template GaugeField<double, 9> convert_links<double, 9, double>(const GaugeField<double>&);
template GaugeField<double, 6> convert_links<double, 6, double>(const GaugeField<double>&);
template GaugeField<double, 4> convert_links<double, 4, double>(const GaugeField<double>&);
template GaugeField<float, 9> convert_links<float, 9, double>(const GaugeField<double>&);
template GaugeField<float, 6> convert_links<float, 6, double>(const GaugeField<double>&);
template GaugeField<float, 4> convert_links<float, 4, double>(const GaugeField<double>&);
template GaugeField<Half, 6> convert_links<Half, 6, double>(const GaugeField<double>&);
template GaugeField<Half, 4> convert_links<Half, 4, double>(const GaugeField<double>&);

}  // namespace lqcd
