#pragma once
// Kernels of the coarsest level's direct solve (solvers/multigrid/coarse_direct_solve.hpp). Row r of its
// dense system is component r % dof of the system's (r / dof)-th site: the k-th even site in even-odd
// form (coarse_site_of_parity), else the k-th site. A coarse field of `width` right-hand sides holds
// component c of site s of right-hand side j at (s * dof + c) * width + j (CoarseBlockField; a single
// CoarseField is width 1).

#include <cstdint>

#include "math/complex.hpp"
#include "solvers/multigrid/coarse_field.hpp"
#include "solvers/multigrid/coarse_schur_kernels.hpp"

namespace lqcd {

LQCD_HOST_DEVICE inline std::int64_t direct_system_site(const CoarseLattice& L, bool even_odd, std::int64_t k) {
  if (!even_odd) return k;
  std::int64_t other = 0;
  return coarse_site_of_parity(L, 0, k, other);
}

// Where the system's row r of right-hand side j lies in a coarse field of `width` right-hand sides.
LQCD_HOST_DEVICE inline std::int64_t direct_field_index(const CoarseLattice& L, bool even_odd, int dof, int width,
                                                        std::int64_t r, int j) {
  return (direct_system_site(L, even_odd, r / dof) * dof + r % dof) * width + j;
}

// out[offset + r * row_stride + j * col_stride] = the field's row r of right-hand side j, for r < rows and
// j < cols (cols <= width), converted to Out: the packed right-hand sides of a solve (row_stride = cols,
// col_stride = 1) or columns of the dense matrix (row_stride = 1, col_stride = rows). One thread per element.
template <typename Real, typename Out>
struct CoarseDirectGatherKernel {
  const Complex<Real>* field;
  Out* out;
  CoarseLattice L;
  int dof, width, cols;
  bool even_odd;
  std::int64_t offset, row_stride, col_stride;
  LQCD_HOST_DEVICE void operator()(std::int64_t i) const {
    const std::int64_t r = i / cols;
    const int j = int(i - r * cols);
    out[offset + r * row_stride + j * col_stride] = Out(field[direct_field_index(L, even_odd, dof, width, r, j)]);
  }
};

// The field's row r of right-hand side j = packed[r * width + j] (the system's sites only).
template <typename Real>
struct CoarseDirectScatterKernel {
  Complex<Real>* field;
  const Complex<Real>* packed;
  CoarseLattice L;
  int dof, width;
  bool even_odd;
  LQCD_HOST_DEVICE void operator()(std::int64_t i) const {
    const std::int64_t r = i / width;
    field[direct_field_index(L, even_odd, dof, width, r, int(i - r * width))] = packed[i];
  }
};

// Column j of a zeroed field of `width` right-hand sides <- the unit vector of the system's row first + j
// (j < width; none where first + j >= rows).
template <typename Real>
struct CoarseDirectUnitKernel {
  Complex<Real>* field;
  CoarseLattice L;
  int dof, width;
  bool even_odd;
  std::int64_t first, rows;
  LQCD_HOST_DEVICE void operator()(std::int64_t j) const {
    if (first + j < rows) field[direct_field_index(L, even_odd, dof, width, first + j, int(j))] = Complex<Real>(1);
  }
};

// out = in^T in Real (rows x rows, column-major): the inverse made in double, stored transposed for the
// solves' products.
template <typename Real>
struct CoarseDirectNarrowTransposeKernel {
  const Complex<double>* in;
  Complex<Real>* out;
  std::int64_t rows;
  LQCD_HOST_DEVICE void operator()(std::int64_t i) const {
    const std::int64_t c = i / rows, r = i - c * rows;
    out[c + r * rows] = Complex<Real>(in[i]);
  }
};

}  // namespace lqcd
