#include "solvers/multigrid/coarse_direct_solve.hpp"

#include <algorithm>

#include "core/dense_linear_algebra.hpp"
#include "core/dispatch.hpp"
#include "core/error.hpp"
#include "solvers/multigrid/coarse_block_gcr_kernels.hpp"
#include "solvers/multigrid/coarse_direct_solve_kernels.hpp"

namespace lqcd {

template <typename Real>
std::int64_t CoarseDirectSolve<Real>::unknowns(const CoarseOperator<Real>& A, bool even_odd) {
  const std::int64_t sites = A.lattice().sites;
  return (even_odd ? sites / 2 : sites) * A.dof();
}

template <typename Real>
CoarseDirectSolve<Real>::CoarseDirectSolve(const CoarseOperator<Real>& A, CoarseSchurComplement<Real>* schur,
                                           int columns)
    : A_(A),
      schur_(schur),
      rows_(unknowns(A, schur != nullptr)),
      columns_(std::max(1, columns)),
      inverse_t_(std::size_t(rows_ * rows_), A.location()),
      rhs_(A.make_field()) {}

template <typename Real>
void CoarseDirectSolve<Real>::update() {
  const Location loc = A_.location();
  const CoarseLattice& L = A_.lattice();
  const int dof = A_.dof();
  const bool even_odd = schur_ != nullptr;
  const int width = int(std::min<std::int64_t>(columns_, rows_));
  CoarseBlockField<Real> unit(L, dof, width, loc), column(L, dof, width, loc);
  Buffer<Complex<double>> matrix(std::size_t(rows_ * rows_), loc);
  for (std::int64_t first = 0; first < rows_; first += width) {
    for_each(loc, unit.size(), CoarseBlockZeroKernel<Real>{unit.view().data});
    for_each(loc, width, CoarseDirectUnitKernel<Real>{unit.view().data, L, dof, width, even_odd, first, rows_});
    if (schur_)
      schur_->apply(column, unit);
    else
      A_.apply(column, unit);
    const int cols = int(std::min<std::int64_t>(width, rows_ - first));
    for_each(loc, rows_ * cols,
             CoarseDirectGatherKernel<Real, Complex<double>>{column.view().data, matrix.data(), L, dof, width, cols,
                                                             even_odd, first * rows_, 1, rows_});
  }
  invert_general(loc, int(rows_), matrix.data(), int(rows_), "multigrid: the coarsest level's direct solve");
  for_each(loc, rows_ * rows_, CoarseDirectNarrowTransposeKernel<Real>{matrix.data(), inverse_t_.data(), rows_});
}

template <typename Real>
void CoarseDirectSolve<Real>::solve_rows(Complex<Real>* x, const Complex<Real>* rhs, int width) {
  const Location loc = A_.location();
  const CoarseLattice& L = A_.lattice();
  const int dof = A_.dof();
  const bool even_odd = schur_ != nullptr;
  const std::size_t need = std::size_t(rows_) * std::size_t(width);
  if (packed_b_.size() < need) {
    packed_b_ = Buffer<Complex<Real>>(need, loc);
    packed_x_ = Buffer<Complex<Real>>(need, loc);
  }
  for_each(loc, rows_ * width,
           CoarseDirectGatherKernel<Real, Complex<Real>>{rhs, packed_b_.data(), L, dof, width, width, even_odd, 0,
                                                         width, 1});
  // The packed right-hand sides as a width x rows column-major matrix B^T: x^T = b^T (A^{-1})^T.
  gemm(loc, MatrixOp::None, MatrixOp::None, width, int(rows_), int(rows_), packed_b_.data(), width, inverse_t_.data(),
       int(rows_), packed_x_.data(), width);
  for_each(loc, rows_ * width, CoarseDirectScatterKernel<Real>{x, packed_x_.data(), L, dof, width, even_odd});
}

template <typename Real>
void CoarseDirectSolve<Real>::solve(CoarseField<Real>& x, const CoarseField<Real>& b) {
  if (!schur_) {
    solve_rows(x.view().data, b.view().data, 1);
    return;
  }
  schur_->prepare(rhs_, b);
  solve_rows(x.view().data, rhs_.view().data, 1);
  schur_->reconstruct(x);
}

template <typename Real>
void CoarseDirectSolve<Real>::solve(CoarseBlockField<Real>& x, const CoarseBlockField<Real>& b) {
  if (x.rhs() != b.rhs() || x.dof() != A_.dof() || b.dof() != A_.dof() || x.sites() != A_.lattice().sites ||
      b.sites() != A_.lattice().sites)
    fail("internal: a direct coarse solve of a block of another shape");
  if (!schur_) {
    solve_rows(x.view().data, b.view().data, b.rhs());
    return;
  }
  if (!rhs_block_ || rhs_block_->rhs() != b.rhs()) rhs_block_ = std::make_unique<CoarseBlockField<Real>>(b.like());
  schur_->prepare(*rhs_block_, b);
  solve_rows(x.view().data, rhs_block_->view().data, b.rhs());
  schur_->reconstruct(x);
}

template class CoarseDirectSolve<double>;
template class CoarseDirectSolve<float>;

}  // namespace lqcd
