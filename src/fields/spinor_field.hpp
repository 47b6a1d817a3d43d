#pragma once
// Colour-spinor fields psi(x) on the full lattice or on one parity (even-odd preconditioning),
// on the host or the device, move-only. Layout as the gauge field's (DESIGN.md): per parity block,
// component c (0..11 = spin * 3 + colour, one complex number) of checkerboard site s at
// block + c * stride + s; single precision and Half pair the components (pair c / 2 at pair word
// c / 2 * stride + s, math/precision.hpp), so that each load is a 16- or 8-byte word. Kernels see only
// SpinorView::load/store. Stored in double, float or Half (16-bit fixed point with a norm per site),
// computed in double or float (math/precision.hpp).

#include <cstdint>
#include <vector>

#include "core/geometry.hpp"
#include "core/memory.hpp"
#include "fields/gauge_field.hpp"
#include "fields/halo_exchange.hpp"
#include "math/color_spinor.hpp"
#include "math/half_spinor.hpp"
#include "math/precision.hpp"

namespace lqcd {

enum class Subset { Even = 0, Odd = 1, Full = 2 };

// Half-precision fields are the solvers' and benchmarks' work fields: they have no generic halo
// exchange (the Dirac operators exchange spin-projected faces instead, face_exchange.hpp).
[[noreturn]] void fail_half_halo();

// Bytes of one stored spinor (24 reals, + the float norm of Half), as the byte counts of the
// benchmarks and the kernels' cache budgets take it.
template <typename Real>
constexpr std::int64_t spinor_site_bytes() {
  return 24 * std::int64_t(sizeof(stored_t<Real>)) + (is_fixed_point_v<Real> ? std::int64_t(sizeof(float)) : 0);
}

// Real: the storage precision, double, float or Half (math/precision.hpp); load() returns and store()
// takes spinors in compute_t<Real>. Half stores 16-bit fixed point with one float norm per site (the
// largest modulus of its 24 reals; norms of parity block p at norm + p * stride + s), its components
// in pairs (math/precision.hpp, load_components).
template <typename Real>
struct SpinorView {
  using T = compute_t<Real>;
  Complex<stored_t<Real>>* data;
  float* norm;  // Half only (nullptr otherwise)
  std::int64_t stride;
  SiteIndexer idx;
  int full;  // 1: both parity blocks; 0: only the block of `parity`
  int parity;

  LQCD_HOST_DEVICE Complex<stored_t<Real>>* block(int p) const {
    return data + (full ? std::int64_t(p) * 12 * stride : 0);
  }
  LQCD_HOST_DEVICE float* norm_block(int p) const { return norm + (full ? std::int64_t(p) * stride : 0); }
  LQCD_HOST_DEVICE ColorSpinor<T> load(int p, std::int64_t s) const {
    Complex<stored_t<Real>> raw[12];
    load_components<Real>(block(p), stride, s, raw);
    T scale = T(1);
    if constexpr (is_fixed_point_v<Real>) scale = norm_block(p)[s];
    ColorSpinor<T> psi;
    LQCD_UNROLL
    for (int k = 0; k < 12; ++k) psi.s[k / 3].c[k % 3] = decode<Real>(raw[k], scale);
    return psi;
  }
  // The hopping term's view of a neighbour: the upper half of (1 - sign gamma_mu) psi (spin_project_half)
  // divided by `scale`, which it sets. For Half, the projection of the stored integers themselves
  // (exact in float; spin_project_half_biased, with no decoding) and scale = norm / 32767, so that a
  // kernel applies the scale once, after the link multiply, in the FMAs of its accumulation
  // (wilson_hop); otherwise the projection of load() and scale = 1.
  LQCD_HOST_DEVICE HalfSpinor<T> load_projected(int p, std::int64_t s, int mu, int sign, T& scale) const {
    if constexpr (is_fixed_point_v<Real>) {
      Complex<stored_t<Real>> raw[12];
      load_components<Real>(block(p), stride, s, raw);
      scale = norm_block(p)[s] * (T(1) / kFixedPointMax);
      ColorSpinor<T> biased;
      LQCD_UNROLL
      for (int k = 0; k < 12; ++k) biased.s[k / 3].c[k % 3] = biased_values(raw[k]);
      return spin_project_half_biased(mu, sign, biased, fixed_detail::kCodeBias);
    } else {
      scale = T(1);
      return spin_project_half(mu, sign, load(p, s));
    }
  }
  LQCD_HOST_DEVICE void store(int p, std::int64_t s, const ColorSpinor<T>& psi) const {
    T inverse = T(1);
    if constexpr (is_fixed_point_v<Real>) {
      T m = T(0);
      LQCD_UNROLL
      for (int k = 0; k < 12; ++k) m = fmaxf(m, fmaxf(fabsf(psi.s[k / 3].c[k % 3].re), fabsf(psi.s[k / 3].c[k % 3].im)));
      norm_block(p)[s] = m;
      inverse = m > T(0) ? T(1) / m : T(0);
    }
    Complex<stored_t<Real>> raw[12];
    LQCD_UNROLL
    for (int k = 0; k < 12; ++k) raw[k] = encode<Real>(psi.s[k / 3].c[k % 3], inverse);
    store_components<Real>(block(p), stride, s, raw);
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
        stride_(padded_stride(geom.stored_half_volume(), sizeof(Complex<stored_t<Real>>))),
        data_(std::size_t(stride_) * 12 * blocks(), loc),
        norm_(is_fixed_point_v<Real> ? std::size_t(stride_) * blocks() : 0, loc) {}

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
    return SpinorView<Real>{data_.data(),
                            norm_.data(),
                            stride_,
                            SiteIndexer::from(geom_),
                            subset_ == Subset::Full ? 1 : 0,
                            subset_ == Subset::Odd ? 1 : 0};
  }
  SpinorField clone(Location loc) const {
    SpinorField f(geom_, loc, subset_);
    f.copy_from(*this);
    return f;
  }
  void copy_from(const SpinorField& o) {
    data_.copy_from(o.data_);
    norm_.copy_from(o.norm_);
  }
  // Fills the halo (depth 1: the Dirac operators' neighbours) from the neighbouring processes. The
  // halo is a cache of other processes' sites, not part of the field's value: hence const.
  void exchange_halo(int depth = 1) const {
    if (!geom_.has_halo()) return;
    if constexpr (is_fixed_point_v<Real>) {
      fail_half_halo();
    } else if constexpr (stored_in_pairs_v<Real, 12>) {  // single precision: 6 pairs are the units
      const HaloLayout l{stride_, 1, 6, 0, 6 * stride_, subset_ == Subset::Full ? -1 : int(subset_)};
      lqcd::exchange_halo(reinterpret_cast<FloatPair*>(data_.data()), location(), geom_, l, depth);
    } else {
      const HaloLayout l{stride_, 1, 12, 0, 12 * stride_, subset_ == Subset::Full ? -1 : int(subset_)};
      lqcd::exchange_halo(data_.data(), location(), geom_, l, depth);
    }
  }
  // A field of the same shape (uninitialised).
  SpinorField like() const { return SpinorField(geom_, location(), subset_); }

  // The parity-p half of a full field, as a field of its own (a copy), and the reverse. Parity
  // fields and the blocks of a full field share the stride, so these are plain block copies.
  SpinorField parity_part(int p) const {
    SpinorField h(geom_, location(), p == 0 ? Subset::Even : Subset::Odd);
    detail::copy_bytes(h.data_.data(), location(), view().block(p), location(), h.data_.bytes());
    if (norm_.size()) detail::copy_bytes(h.norm_.data(), location(), view().norm_block(p), location(), h.norm_.bytes());
    return h;
  }
  void set_parity_part(int p, const SpinorField& h) {
    detail::copy_bytes(view().block(p), location(), h.data_.data(), h.location(), h.data_.bytes());
    if (norm_.size()) detail::copy_bytes(view().norm_block(p), location(), h.norm_.data(), h.location(), h.norm_.bytes());
  }

 private:
  int blocks() const { return subset_ == Subset::Full ? 2 : 1; }
  Geometry geom_;
  Subset subset_;
  std::int64_t stride_;
  Buffer<Complex<stored_t<Real>>> data_;
  Buffer<float> norm_;  // Half only
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
