#pragma once
// Colour-spinor fields psi(x) on the full lattice or on one parity (even-odd preconditioning),
// on the host or the device, move-only. Layout as the gauge field's (DESIGN.md): per parity block,
// component c (0..11 = spin * 3 + colour, one complex number) of checkerboard site s at
// block + c * stride + s. Kernels see only SpinorView::load/store.

#include <cstdint>
#include <vector>

#include "core/geometry.hpp"
#include "core/memory.hpp"
#include "fields/gauge_field.hpp"
#include "fields/halo_exchange.hpp"
#include "math/color_spinor.hpp"

namespace lqcd {

enum class Subset { Even = 0, Odd = 1, Full = 2 };

template <typename Real>
struct SpinorView {
  Complex<Real>* data;
  std::int64_t stride;
  SiteIndexer idx;
  int full;  // 1: both parity blocks; 0: only the block of `parity`
  int parity;

  LQCD_HOST_DEVICE Complex<Real>* block(int p) const { return data + (full ? std::int64_t(p) * 12 * stride : 0); }
  LQCD_HOST_DEVICE ColorSpinor<Real> load(int p, std::int64_t s) const {
    const Complex<Real>* b = block(p) + s;
    ColorSpinor<Real> psi;
    LQCD_UNROLL
    for (int k = 0; k < 12; ++k) psi.s[k / 3].c[k % 3] = b[k * stride];
    return psi;
  }
  LQCD_HOST_DEVICE void store(int p, std::int64_t s, const ColorSpinor<Real>& psi) const {
    Complex<Real>* b = block(p) + s;
    LQCD_UNROLL
    for (int k = 0; k < 12; ++k) b[k * stride] = psi.s[k / 3].c[k % 3];
  }
  // Parity of the i-th site of this field (sites of a full field: even block, then odd block).
  LQCD_HOST_DEVICE int parity_of(std::int64_t i) const { return full ? int(i / idx.vh) : parity; }
  LQCD_HOST_DEVICE std::int64_t cb_of(std::int64_t i) const { return full ? i % idx.vh : i; }
};

template <typename Real>
class SpinorField {
 public:
  SpinorField(const Geometry& geom, Location loc, Subset subset = Subset::Full)
      : geom_(geom),
        subset_(subset),
        stride_(padded_stride(geom.stored_half_volume(), sizeof(Complex<Real>))),
        data_(std::size_t(stride_) * 12 * (subset == Subset::Full ? 2 : 1), loc) {}

  SpinorField(SpinorField&&) noexcept = default;
  SpinorField& operator=(SpinorField&&) noexcept = default;
  SpinorField(const SpinorField&) = delete;
  SpinorField& operator=(const SpinorField&) = delete;

  const Geometry& geometry() const { return geom_; }
  Location location() const { return data_.location(); }
  Subset subset() const { return subset_; }
  // Number of sites this field holds (V or V/2).
  std::int64_t sites() const { return subset_ == Subset::Full ? geom_.volume() : geom_.half_volume(); }
  SpinorView<Real> view() const {
    return SpinorView<Real>{data_.data(), stride_, SiteIndexer::from(geom_), subset_ == Subset::Full ? 1 : 0,
                            subset_ == Subset::Odd ? 1 : 0};
  }
  SpinorField clone(Location loc) const {
    SpinorField f(geom_, loc, subset_);
    f.data_.copy_from(data_);
    return f;
  }
  void copy_from(const SpinorField& o) { data_.copy_from(o.data_); }
  // Fills the halo (depth 1: the Dirac operators' neighbours) from the neighbouring processes. The
  // halo is a cache of other processes' sites, not part of the field's value: hence const.
  void exchange_halo(int depth = 1) const {
    if (!geom_.has_halo()) return;
    const HaloLayout l{stride_, 1, 12, 0, 12 * stride_, subset_ == Subset::Full ? -1 : int(subset_)};
    lqcd::exchange_halo(data_.data(), location(), geom_, l, depth);
  }
  // A field of the same shape (uninitialised).
  SpinorField like() const { return SpinorField(geom_, location(), subset_); }

  // The parity-p half of a full field, as a field of its own (a copy), and the reverse. Parity
  // fields and the blocks of a full field share the stride, so these are plain block copies.
  SpinorField parity_part(int p) const {
    SpinorField h(geom_, location(), p == 0 ? Subset::Even : Subset::Odd);
    detail::copy_bytes(h.data_.data(), location(), view().block(p), location(), h.data_.bytes());
    return h;
  }
  void set_parity_part(int p, const SpinorField& h) {
    detail::copy_bytes(view().block(p), location(), h.data_.data(), h.location(), h.data_.bytes());
  }

 private:
  Geometry geom_;
  Subset subset_;
  std::int64_t stride_;
  Buffer<Complex<Real>> data_;
};

// Host-side lexicographic form (x fastest) of a full field on the whole (global) lattice, for I/O and
// tests. With several processes each takes its part (to_spinor_field) or gets the whole lattice
// assembled from all parts (to_lexicographic, collective).
using LexicographicSpinor = std::vector<ColorSpinor<double>>;
SpinorField<double> to_spinor_field(const LexicographicSpinor& lex, const Geometry& geom, Location loc);
LexicographicSpinor to_lexicographic(const SpinorField<double>& psi);
// The same for this process's box only (its sites in the box's lexicographic order, no communication):
// what each rank holds of a distributed result such as a propagator.
SpinorField<double> local_to_spinor_field(const LexicographicSpinor& local, const Geometry& geom, Location loc);
LexicographicSpinor to_local_lexicographic(const SpinorField<double>& psi);

}  // namespace lqcd
