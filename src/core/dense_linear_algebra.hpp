#pragma once
// Dense complex linear algebra where the data live: batched matrix products (an OpenMP loop on the
// host, cuBLAS z/cgemmStridedBatched on the device), the inverse of a general matrix (Gauss-Jordan
// with partial pivoting on the host, cuSOLVER zgetrf/zgetrs on the device) and the eigensystem of a
// small Hermitian matrix (cyclic Jacobi on the host, cuSOLVER zheevd on the device). Used by
// distillation (measure/laplacian_eigenvectors, measure/distillation_contractions), whose contractions
// are organised as matrix products so that the GPU's GEMM units do them, and by the multigrid's direct
// coarsest solve (solvers/multigrid/coarse_direct_solve.hpp).
//
// Matrices are column-major (element (r, c) at r + c * ld), complex, as BLAS's; double precision
// except the single-precision product.

#include <complex>
#include <cstdint>
#include <vector>

#include "core/memory.hpp"
#include "math/complex.hpp"

namespace lqcd {

enum class MatrixOp { None, Transpose, Adjoint };  // op(A) = A, A^T, A^dag

struct GemmBatch {
  MatrixOp op_a = MatrixOp::None, op_b = MatrixOp::None;
  int m = 0, n = 0, k = 0;  // op(A) is m x k, op(B) k x n, C m x n
  int lda = 0, ldb = 0, ldc = 0;
  std::int64_t stride_a = 0, stride_b = 0, stride_c = 0;  // between the batch's members (0: shared)
  int batch = 1;
};

// C_b = alpha op(A_b) op(B_b) + beta C_b for b = 0..batch-1, A_b = A + b * stride_a, etc. A, B and C
// live at loc. Throws lqcd::Error on a bad shape.
void gemm_batched(Location loc, const GemmBatch& g, Complex<double> alpha, const Complex<double>* A,
                  const Complex<double>* B, Complex<double> beta, Complex<double>* C);
// The same in single precision (cgemm).
void gemm_batched(Location loc, const GemmBatch& g, Complex<float> alpha, const Complex<float>* A,
                  const Complex<float>* B, Complex<float> beta, Complex<float>* C);

// One product: C = alpha op(A) op(B) + beta C (Real: double or float).
template <typename Real>
void gemm(Location loc, MatrixOp op_a, MatrixOp op_b, int m, int n, int k, const Complex<Real>* A, int lda,
          const Complex<Real>* B, int ldb, Complex<Real>* C, int ldc, Complex<Real> alpha = Complex<Real>(1),
          Complex<Real> beta = Complex<Real>(0)) {
  GemmBatch g;
  g.op_a = op_a;
  g.op_b = op_b;
  g.m = m;
  g.n = n;
  g.k = k;
  g.lda = lda;
  g.ldb = ldb;
  g.ldc = ldc;
  gemm_batched(loc, g, alpha, A, B, beta, C);
}

// FLOPs of one batch member counted as BLAS does: 8 m n k (one complex multiply-add = 8).
inline double gemm_flops(const GemmBatch& g) { return 8.0 * g.m * double(g.n) * g.k * g.batch; }

// A <- A^{-1} for the n x n matrix A (column-major, leading dimension lda, at loc), by LU
// decomposition with partial pivoting. Throws lqcd::Error naming `what` where A is singular to working
// precision (a zero pivot).
void invert_general(Location loc, int n, Complex<double>* A, int lda, const char* what);

// The eigenvalues (ascending, returned) and orthonormal eigenvectors (overwriting the columns of A)
// of the n x n Hermitian matrix A (column-major, leading dimension lda, at loc; both triangles are
// read on the host, the lower one on the device). Throws lqcd::Error if the iteration does not
// converge.
std::vector<double> hermitian_eigensystem(Location loc, int n, Complex<double>* A, int lda);

// The Cholesky factor L of the n x n Hermitian matrix A = L L^dag (host, column-major), written into A's
// lower triangle, the strict upper triangle set to zero. Returns -1, or the first column whose pivot is not
// above min_pivot (then A is partly overwritten and `pivot` holds that pivot).
int cholesky_lower(int n, Complex<double>* A, int lda, double min_pivot, double& pivot);

// The same for the generalised problem A x = lambda B x with B Hermitian positive definite (host
// only, small matrices: the GEVP of measure/gevp). The eigenvectors are B-orthonormal
// (x_i^dag B x_j = delta_ij) and overwrite A; B is overwritten by its Cholesky factor. Throws
// lqcd::Error naming `what` when B is not positive definite.
std::vector<double> generalized_hermitian_eigensystem(int n, Complex<double>* A, Complex<double>* B,
                                                      const char* what);

}  // namespace lqcd
