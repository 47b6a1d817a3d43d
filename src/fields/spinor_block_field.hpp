#pragma once
// N colour-spinor fields ("right-hand sides", e.g. the 12 spin-colour sources of one propagator) in one
// block, interleaved so that the multi-right-hand-side kernels (dirac/wilson_multi_rhs_kernels.hpp),
// which give consecutive threads the same site and consecutive right-hand sides, read and write
// consecutive words. With the per-rhs stride of a SpinorField (padded_stride of the parity's sites),
// component k (0..11) of checkerboard site s of rhs j in parity block p lives at
//   block(p) + (k * stride + s) * N + j
// (single precision and Half: components in pairs, pair g at FloatPair / FixedPair word
// (g * stride + s) * N + j; Half's norm of (p, s, j) at norm_block(p) + s * N + j). That is exactly a SpinorField's layout for a field of
// N x sites "sites" with stride N x stride, whose site s * N + j is (s, j): SpinorBlockView keeps such a
// SpinorView (`flat`) and reuses its load/store, so the encoding (precision, Half norms, pairs) is
// SpinorView's, not a copy of it.

#include <cstdint>
#include <span>

#include "core/error_type.hpp"
#include "fields/spinor_field.hpp"

namespace lqcd {

template <typename Real>
struct SpinorBlockView {
  using T = compute_t<Real>;
  // The block as one field of stride N x (per-rhs stride) whose site s * n + j is site s of rhs j.
  // flat.idx is the lattice's, flat.full / flat.parity the block's subset.
  SpinorView<Real> flat;
  int n;  // right-hand sides

  LQCD_HOST_DEVICE ColorSpinor<T> load(int p, std::int64_t s, int j) const { return flat.load(p, s * n + j); }
  LQCD_HOST_DEVICE void store(int p, std::int64_t s, int j, const ColorSpinor<T>& psi) const {
    flat.store(p, s * n + j, psi);
  }

  // Right-hand side j as a spinor source (load(p, s)), as the Wilson kernels' site functions take it.
  struct Rhs {
    SpinorView<Real> flat;
    int n, j;
    LQCD_HOST_DEVICE ColorSpinor<T> load(int p, std::int64_t s) const { return flat.load(p, s * n + j); }
    LQCD_HOST_DEVICE HalfSpinor<T> load_projected(int p, std::int64_t s, int mu, int sign, T& scale) const {
      return flat.load_projected(p, s * n + j, mu, sign, scale);
    }
  };
  LQCD_HOST_DEVICE Rhs rhs(int j) const { return Rhs{flat, n, j}; }
};

template <typename Real>
class SpinorBlockField {
 public:
  SpinorBlockField(const Geometry& geom, Location loc, int rhs, Subset subset = Subset::Full);

  SpinorBlockField(SpinorBlockField&&) noexcept = default;
  SpinorBlockField& operator=(SpinorBlockField&&) noexcept = default;
  SpinorBlockField(const SpinorBlockField&) = delete;
  SpinorBlockField& operator=(const SpinorBlockField&) = delete;

  const Geometry& geometry() const { return geom_; }
  Location location() const { return data_.location(); }
  Subset subset() const { return subset_; }
  int rhs() const { return n_; }
  // Sites of one right-hand side (V or V/2).
  std::int64_t sites() const { return subset_ == Subset::Full ? geom_.volume() : geom_.half_volume(); }
  SpinorBlockView<Real> view() const {
    return SpinorBlockView<Real>{SpinorView<Real>{data_.data(), norm_.data(), stride_ * n_, SiteIndexer::from(geom_),
                                                  subset_ == Subset::Full ? 1 : 0, subset_ == Subset::Odd ? 1 : 0},
                                 n_};
  }
  // A block of the same shape (uninitialised).
  SpinorBlockField like() const { return SpinorBlockField(geom_, location(), n_, subset_); }
  // The numbers of a block of the same shape, wherever either lives.
  void copy_from(const SpinorBlockField& o) {
    if (o.n_ != n_ || o.subset_ != subset_ || o.stride_ != stride_)
      throw Error("internal: SpinorBlockField::copy_from between blocks of different shapes");
    data_.copy_from(o.data_);
    norm_.copy_from(o.norm_);
  }

 private:
  int blocks() const { return subset_ == Subset::Full ? 2 : 1; }
  Geometry geom_;
  Subset subset_;
  int n_;
  std::int64_t stride_;  // per right-hand side, as a SpinorField's
  Buffer<Complex<stored_t<Real>>> data_;
  Buffer<float> norm_;  // Half only
};

// Copies field into right-hand side j of block, and back: the stored numbers as they are (Half: with
// their norms), so that unpack(pack(psi)) == psi bit for bit. Same geometry, subset and location.
template <typename Real>
void pack_rhs(SpinorBlockField<Real>& block, int j, const SpinorField<Real>& field);
template <typename Real>
void unpack_rhs(SpinorField<Real>& field, const SpinorBlockField<Real>& block, int j);
// All of them: fields[j] into (out of) right-hand side j; fields.size() == block.rhs().
template <typename Real>
void pack_rhs(SpinorBlockField<Real>& block, std::span<const SpinorField<Real>> fields);
template <typename Real>
void unpack_rhs(std::span<SpinorField<Real>> fields, const SpinorBlockField<Real>& block);

}  // namespace lqcd
