#pragma once
// A gauge field U_mu(x) on the local lattice, living on the host or the device (move-only; copies
// are explicit through clone/copy_from). The layout is GaugeView's; conversion from and to the
// lexicographic file order happens only at the I/O boundary (to_gauge_field / to_lexicographic).

#include <algorithm>
#include <cstdint>

#include "core/geometry.hpp"
#include "core/memory.hpp"
#include "fields/gauge_view.hpp"
#include "fields/halo_exchange.hpp"
#include "fields/lexicographic_gauge.hpp"

namespace lqcd {

// Vectors per parity block rounded up to a multiple of 256 bytes.
inline std::int64_t padded_stride(std::int64_t sites, std::int64_t vector_bytes) {
  const std::int64_t per_256 = 256 / vector_bytes;
  return (sites + per_256 - 1) / per_256 * per_256;
}

// Components: 9 (18 reals per link), 6 (12 reals, third row rebuilt on load) or 4 (8 reals);
// Real: the storage precision, double, float or Half (gauge_view.hpp, math/precision.hpp).
template <typename Real, int Components = 9>
class GaugeField {
 public:
  static constexpr int kComponents = Components;
  GaugeField(const Geometry& geom, Location loc)
      : geom_(geom),
        stride_(padded_stride(geom.stored_half_volume(), sizeof(Complex<stored_t<Real>>))),
        data_(std::size_t(stride_) * 4 * 2 * Components, loc) {}

  GaugeField(GaugeField&&) noexcept = default;
  GaugeField& operator=(GaugeField&&) noexcept = default;
  GaugeField(const GaugeField&) = delete;
  GaugeField& operator=(const GaugeField&) = delete;

  const Geometry& geometry() const { return geom_; }
  Location location() const { return data_.location(); }
  std::int64_t stride() const { return stride_; }
  std::size_t bytes() const { return data_.bytes(); }
  GaugeView<Real, Components> view() const {
    return GaugeView<Real, Components>{data_.data(), stride_, SiteIndexer::from(geom_)};
  }

  GaugeField clone(Location loc) const {
    GaugeField g(geom_, loc);
    g.data_.copy_from(data_);
    return g;
  }
  void copy_from(const GaugeField& o) { data_.copy_from(o.data_); }
  // Fills the halo layers (all of them, edges and corners included) from the neighbouring processes:
  // after every change of the links that later kernels read at neighbours. The halo is a cache of
  // other processes' links, not part of the field's value: hence const.
  void exchange_halo() const {
    if (!geom_.has_halo()) return;
    const Dims& h = geom_.halo;
    const int depth = std::max(std::max(h[0], h[1]), std::max(h[2], h[3]));
    if constexpr (stored_in_pairs_v<Real, Components>) {
      // Components stored in pairs (math/precision.hpp): the pairs are the units.
      constexpr int pairs = Components / 2;
      const HaloLayout l{stride_, 4, pairs, 2 * pairs * stride_, pairs * stride_, -1};
      lqcd::exchange_halo(reinterpret_cast<component_pair_t<Real>*>(data_.data()), location(), geom_, l, depth);
    } else {
      const HaloLayout l{stride_, 4, Components, 2 * Components * stride_, Components * stride_, -1};
      lqcd::exchange_halo(data_.data(), location(), geom_, l, depth);
    }
  }

 private:
  Geometry geom_;
  std::int64_t stride_;
  Buffer<Complex<stored_t<Real>>> data_;
};

// File order <-> field layout (the only place the two meet). The lexicographic field is the whole
// (global) lattice, its dims the geometry's global ones (checked, lqcd::Error naming `what` otherwise);
// to_gauge_field takes this process's part and fills the halos, to_lexicographic assembles the whole
// lattice from every process (collective).
GaugeField<double> to_gauge_field(const LexicographicGauge& lex, const Geometry& geom, Location loc,
                                  const std::string& what = "configuration");
LexicographicGauge to_lexicographic(const GaugeField<double>& u);

// The same for this process's box alone, without communication beyond the halo exchange (parallel
// I/O: no rank holds the whole lattice): `box` holds the local sites in local lexicographic order, its
// dims the geometry's local ones (checked). from_box fills the halos (collective).
GaugeField<double> from_box(const LexicographicGauge& box, const Geometry& geom, Location loc,
                            const std::string& what = "configuration");
LexicographicGauge to_box(const GaugeField<double>& u);

// The same links in another precision, where u lives (double -> float rounds to nearest). For the
// single-precision Dirac operators; instantiated for float <- double and double <- float.
template <typename To, typename From>
GaugeField<To> convert_precision(const GaugeField<From>& u);

// The links with 12 reals each (Components = 6: the first two rows) or 8 (Components = 4: GaugeView's
// 8-real form; fails with an error if some link has none), where u lives; u must hold SU(3) links.
// Instantiated for double and float.
template <int Components = 6, typename Real>
GaugeField<Real, Components> compress_links(const GaugeField<Real>& u);

// The links in storage precision To (double, float or Half) with 18, 12 or 8 reals each, where u lives:
// the operators' sloppy copies. u must hold SU(3) links (checked for 8 reals, as compress_links).
template <typename To, int Components, typename From>
GaugeField<To, Components> convert_links(const GaugeField<From>& u);

}  // namespace lqcd
