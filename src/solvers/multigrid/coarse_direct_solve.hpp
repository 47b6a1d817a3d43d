#pragma once
// The coarsest level of the multigrid solved exactly (issue 46: "a direct solve when small"), as
// DD-alphaAMG and QUDA may solve a small coarsest grid: the dense inverse of its even-odd Schur complement
// S (solvers/multigrid/coarse_schur.hpp), or of the operator itself where the even-odd form does not
// exist, is formed once per build of the operator:
//   - the columns of S from S applied to unit vectors, 768 at a time (the block operator; with coarse_half its
//     16-bit hopping blocks, so that the inverse is exact for the operator the level applies, not for
//     D_cc to more than 16-bit rounding: a preconditioner's accuracy);
//   - LU decomposition with partial pivoting in double (core/dense_linear_algebra: cuSOLVER zgetrf/zgetrs
//     on the device, Gauss-Jordan on the host), the inverse kept in Real.
// Every solve of N right-hand sides is then one matrix product (cuBLAS cgemm/zgemm) between the even-odd
// preparation and reconstruction: no iterations, no reductions, no waits for the host. A GCR to 0.1 on
// this level cost 12 iterations with a host wait each (docs/performance.md, multigrid).
// Memory: rows^2 complex numbers in Real (rows = unknowns of the system: sites / 2 * dof in even-odd
// form), and two rows^2 double-complex matrices while it is made (4.8 GB at the 8192 limit, freed after).
// Hence a size limit (multigrid.coarsest_direct_max).

#include <memory>

#include "core/memory.hpp"
#include "solvers/multigrid/coarse_block_field.hpp"
#include "solvers/multigrid/coarse_field.hpp"
#include "solvers/multigrid/coarse_operator.hpp"
#include "solvers/multigrid/coarse_schur.hpp"

namespace lqcd {

template <typename Real>
class CoarseDirectSolve {
 public:
  // The unknowns of the system solved for A: sites / 2 * dof with an even-odd form, else sites * dof.
  static std::int64_t unknowns(const CoarseOperator<Real>& A, bool even_odd);
  // Unit vectors per application of the operator in update(): 48 took 128 applications of two small
  // passes each for the 6144 rows of 32^4's third level (0.15 s of a setup's GPU time, the lattice of
  // 128 sites too small to fill the device), 768 take 8.
  static constexpr int kColumnsPerApplication = 768;
  // A (and schur, where not null: its even-odd form, updated with A) must outlive this. Allocates;
  // update() computes, `columns` unit vectors at a time.
  CoarseDirectSolve(const CoarseOperator<Real>& A, CoarseSchurComplement<Real>* schur,
                    int columns = kColumnsPerApplication);
  // After every build of A (and schur->update()): the dense inverse made again. Throws lqcd::Error where
  // the system is singular.
  void update();
  // x = A^{-1} b, for one field and for every right-hand side of a block.
  void solve(CoarseField<Real>& x, const CoarseField<Real>& b);
  void solve(CoarseBlockField<Real>& x, const CoarseBlockField<Real>& b);
  std::int64_t rows() const { return rows_; }

 private:
  // x <- the system's solution for the right-hand sides in `rhs` (width of them), its rows only.
  void solve_rows(Complex<Real>* x, const Complex<Real>* rhs, int width);
  const CoarseOperator<Real>& A_;
  CoarseSchurComplement<Real>* schur_;
  std::int64_t rows_;
  int columns_;  // unit vectors per application in update()
  Buffer<Complex<Real>> inverse_t_;  // (A^{-1})^T, rows x rows, column-major
  Buffer<Complex<Real>> packed_b_, packed_x_;
  CoarseField<Real> rhs_;            // the even-odd right-hand side of one field
  std::unique_ptr<CoarseBlockField<Real>> rhs_block_;  // of a block (made for its width)
};

}  // namespace lqcd
