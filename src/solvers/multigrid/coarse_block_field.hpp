#pragma once
// N right-hand sides of a multigrid coarse level together (issue 46, first step): component k of site s
// of right-hand side j at (s * dof + k) * N + j, the right-hand-side index innermost, so that a kernel
// that reads one coarse-operator element (one link word) applies it to all N vectors from consecutive
// words (solvers/multigrid/coarse_operator.hpp, apply on blocks). Double or single precision, host or device,
// move-only; pack_rhs/unpack_rhs move single fields (solvers/multigrid/coarse_field.hpp) in and out.

#include <cstdint>

#include "solvers/multigrid/coarse_field.hpp"

namespace lqcd {

// The widest block the multigrid's coarse levels take (issue 46: 1 to 64 right-hand sides).
constexpr int kMaxCoarseBlockRhs = 64;

template <typename Real>
struct CoarseBlockView {
  Complex<Real>* data;
  std::int64_t sites;
  int dof, rhs;
  LQCD_HOST_DEVICE Complex<Real>& at(std::int64_t s, int k, int j) const {
    return data[(s * dof + k) * rhs + j];
  }
};

template <typename Real>
class CoarseBlockField {
 public:
  CoarseBlockField(const CoarseLattice& lattice, int dof, int rhs, Location loc);
  CoarseBlockField(CoarseBlockField&&) noexcept = default;
  CoarseBlockField& operator=(CoarseBlockField&&) noexcept = default;
  CoarseBlockField(const CoarseBlockField&) = delete;
  CoarseBlockField& operator=(const CoarseBlockField&) = delete;

  const CoarseLattice& lattice() const { return lattice_; }
  int dof() const { return dof_; }
  int rhs() const { return rhs_; }
  Location location() const { return data_.location(); }
  std::int64_t sites() const { return lattice_.sites; }
  // Complex components: sites() * dof() * rhs().
  std::int64_t size() const { return std::int64_t(data_.size()); }
  CoarseBlockView<Real> view() const { return {data_.data(), lattice_.sites, dof_, rhs_}; }
  // Every element of `src` (same shape).
  void copy_from(const CoarseBlockField& src) { data_.copy_from(src.data_); }
  CoarseBlockField like() const { return CoarseBlockField(lattice_, dof_, rhs_, location()); }

 private:
  CoarseLattice lattice_;
  int dof_, rhs_;
  Buffer<Complex<Real>> data_;
};

// Right-hand side j of `block` <- `x`, and `x` <- right-hand side j of `block` (same lattice, dof and
// location; throws otherwise).
template <typename Real>
void pack_rhs(CoarseBlockField<Real>& block, int j, const CoarseField<Real>& x);
template <typename Real>
void unpack_rhs(CoarseField<Real>& x, const CoarseBlockField<Real>& block, int j);

}  // namespace lqcd
