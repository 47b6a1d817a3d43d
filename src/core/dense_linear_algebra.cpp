#include "core/dense_linear_algebra.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/error.hpp"

#if LQCD_HAVE_CUDA
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cusolverDn.h>
#endif

namespace lqcd {

namespace {

using C = Complex<double>;

void check_shape(const GemmBatch& g) {
  const int rows_a = g.op_a == MatrixOp::None ? g.m : g.k;
  const int rows_b = g.op_b == MatrixOp::None ? g.k : g.n;
  if (g.m < 0 || g.n < 0 || g.k < 0 || g.batch < 0 || g.lda < std::max(1, rows_a) || g.ldb < std::max(1, rows_b) ||
      g.ldc < std::max(1, g.m))
    fail("gemm_batched: bad shape m {} n {} k {} lda {} ldb {} ldc {} batch {}", g.m, g.n, g.k, g.lda, g.ldb, g.ldc,
         g.batch);
}

// op(X)(r, c) of a column-major X.
template <typename T>
inline T element(const T* X, int ld, MatrixOp op, int r, int c) {
  switch (op) {
    case MatrixOp::None: return X[r + std::int64_t(c) * ld];
    case MatrixOp::Transpose: return X[c + std::int64_t(r) * ld];
    default: return conj(X[c + std::int64_t(r) * ld]);
  }
}

template <typename T>
void host_gemm(const GemmBatch& g, T alpha, const T* A, const T* B, T beta, T* Cm) {
#pragma omp parallel for collapse(2) schedule(static)
  for (int b = 0; b < g.batch; ++b)
    for (int j = 0; j < g.n; ++j) {
      const T* Ab = A + b * g.stride_a;
      const T* Bb = B + b * g.stride_b;
      T* c = Cm + b * g.stride_c + std::int64_t(j) * g.ldc;
      std::vector<T> acc(std::size_t(g.m), T(0));
      if (g.op_a == MatrixOp::None) {  // columns of A, scaled: contiguous axpys
        for (int l = 0; l < g.k; ++l) {
          const T s = element(Bb, g.ldb, g.op_b, l, j);
          const T* a = Ab + std::int64_t(l) * g.lda;
          for (int i = 0; i < g.m; ++i) acc[std::size_t(i)] += a[i] * s;
        }
      } else {  // rows of op(A) are columns of A: dot products
        const bool adj = g.op_a == MatrixOp::Adjoint;
        for (int i = 0; i < g.m; ++i) {
          const T* a = Ab + std::int64_t(i) * g.lda;
          T s(0);
          for (int l = 0; l < g.k; ++l) s += (adj ? conj(a[l]) : a[l]) * element(Bb, g.ldb, g.op_b, l, j);
          acc[std::size_t(i)] = s;
        }
      }
      for (int i = 0; i < g.m; ++i) c[i] = alpha * acc[std::size_t(i)] + (beta.re == 0 && beta.im == 0 ? T(0) : beta * c[i]);
    }
}

// A <- A^{-1} by Gauss-Jordan elimination with partial pivoting (Golub & Van Loan, Matrix Computations,
// Sec. 3.4): the column operations of each step run in parallel over the columns.
void host_invert(int n, C* A, int lda, const char* what) {
  auto a = [&](int r, int c) -> C& { return A[r + std::int64_t(c) * lda]; };
  std::vector<int> swapped(static_cast<std::size_t>(n));
  std::vector<C> m(static_cast<std::size_t>(n));  // each step's multipliers
  for (int k = 0; k < n; ++k) {
    int p = k;
    for (int r = k + 1; r < n; ++r)
      if (norm2(a(r, k)) > norm2(a(p, k))) p = r;
    if (!(norm2(a(p, k)) > 0)) fail("{}: the matrix is singular (a zero pivot in column {} of {})", what, k, n);
    swapped[std::size_t(k)] = p;
    if (p != k)
      for (int c = 0; c < n; ++c) std::swap(a(k, c), a(p, c));
    const C inv = conj(a(k, k)) * (1.0 / norm2(a(k, k)));
    a(k, k) = C(1.0);
    for (int c = 0; c < n; ++c) a(k, c) *= inv;
    // Row elimination: row r -= a(r, k) * row k, column k then holding -a(r, k) * inv (the inverse's column).
    for (int r = 0; r < n; ++r) {
      m[std::size_t(r)] = r == k ? C(0.0) : a(r, k);
      if (r != k) a(r, k) = C(0.0);
    }
#pragma omp parallel for schedule(static)
    for (int c = 0; c < n; ++c) {
      const C pk = a(k, c);
      C* col = A + std::int64_t(c) * lda;
      for (int r = 0; r < n; ++r) col[r] -= m[std::size_t(r)] * pk;
    }
  }
  // The row swaps of the elimination are column swaps of the inverse, undone in reverse order.
  for (int k = n - 1; k >= 0; --k) {
    const int p = swapped[std::size_t(k)];
    if (p != k)
      for (int r = 0; r < n; ++r) std::swap(a(r, k), a(r, p));
  }
}

// Cyclic Jacobi for a complex Hermitian matrix (Golub & Van Loan, Matrix Computations, Sec. 8.5, with
// each rotation preceded by the phase that makes a_pq real). Accurate to rounding in every eigenvector
// (no tridiagonal reduction), O(n^3) per sweep: for the small matrices of Rayleigh-Ritz and the GEVP.
std::vector<double> host_jacobi(int n, C* A, int lda) {
  std::vector<C> V(std::size_t(n) * n, C(0.0));
  for (int i = 0; i < n; ++i) V[std::size_t(i) * n + i] = C(1.0);
  auto a = [&](int r, int c) -> C& { return A[r + std::int64_t(c) * lda]; };
  // Symmetrise (the input is Hermitian up to rounding) and make the diagonal real.
  for (int c = 0; c < n; ++c) {
    a(c, c) = C(a(c, c).re);
    for (int r = c + 1; r < n; ++r) {
      const C m = 0.5 * (a(r, c) + conj(a(c, r)));
      a(r, c) = m;
      a(c, r) = conj(m);
    }
  }
  double total = 0;
  for (int c = 0; c < n; ++c)
    for (int r = 0; r < n; ++r) total += norm2(a(r, c));
  const double eps2 = 1e-32 * total;
  bool converged = n < 2;
  for (int sweep = 0; sweep < 100 && !converged; ++sweep) {
    double off = 0;
    for (int q = 1; q < n; ++q)
      for (int p = 0; p < q; ++p) off += norm2(a(p, q));
    if (2 * off <= eps2) {
      converged = true;
      break;
    }
    for (int p = 0; p < n - 1; ++p)
      for (int q = p + 1; q < n; ++q) {
        const C apq = a(p, q);
        const double r = std::sqrt(norm2(apq));
        if (r * r <= 1e-40 * eps2) continue;
        const C phase = apq * (1.0 / r);  // e^{i phi}
        const double app = a(p, p).re, aqq = a(q, q).re;
        const double theta = (aqq - app) / (2 * r);
        const double t = (theta >= 0 ? 1.0 : -1.0) / (std::fabs(theta) + std::sqrt(theta * theta + 1));
        const double c = 1 / std::sqrt(t * t + 1), s = t * c;
        const C em = conj(phase);  // e^{-i phi}
        // A <- A W, columns p and q: W_pp = c, W_pq = s, W_qp = -s e^{-i phi}, W_qq = c e^{-i phi}.
        for (int k = 0; k < n; ++k) {
          const C xp = a(k, p), xq = a(k, q);
          a(k, p) = c * xp - s * em * xq;
          a(k, q) = s * xp + c * em * xq;
          C& vp = V[std::size_t(p) * n + k];
          C& vq = V[std::size_t(q) * n + k];
          const C yp = vp, yq = vq;
          vp = c * yp - s * em * yq;
          vq = s * yp + c * em * yq;
        }
        // A <- W^dag A, rows p and q.
        for (int k = 0; k < n; ++k) {
          const C xp = a(p, k), xq = a(q, k);
          a(p, k) = c * xp - s * phase * xq;
          a(q, k) = s * xp + c * phase * xq;
        }
        a(p, q) = a(q, p) = C(0.0);
        a(p, p) = C(a(p, p).re);
        a(q, q) = C(a(q, q).re);
      }
  }
  if (!converged) fail("hermitian_eigensystem: the Jacobi iteration did not converge in 100 sweeps (n = {})", n);
  std::vector<int> order(static_cast<std::size_t>(n));
  std::iota(order.begin(), order.end(), 0);
  std::vector<double> w(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) w[std::size_t(i)] = a(i, i).re;
  std::stable_sort(order.begin(), order.end(), [&](int x, int y) { return w[std::size_t(x)] < w[std::size_t(y)]; });
  std::vector<double> sorted(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    sorted[std::size_t(i)] = w[std::size_t(order[std::size_t(i)])];
    for (int k = 0; k < n; ++k) a(k, i) = V[std::size_t(order[std::size_t(i)]) * n + k];
  }
  return sorted;
}

#if LQCD_HAVE_CUDA
struct CudaHandles {
  cublasHandle_t blas = nullptr;
  cusolverDnHandle_t solver = nullptr;
  CudaHandles() {
    if (cublasCreate(&blas) != CUBLAS_STATUS_SUCCESS) fail("cuBLAS: cublasCreate failed");
    if (cusolverDnCreate(&solver) != CUSOLVER_STATUS_SUCCESS) fail("cuSOLVER: cusolverDnCreate failed");
  }
  // Not destroyed: the handles live as long as the process, and a static destructor may run after the
  // CUDA runtime has shut down, where cublasDestroy / cusolverDnDestroy would fail or crash.
};
CudaHandles& cuda_handles() {
  static CudaHandles h;  // on the default stream, where the site kernels run
  return h;
}
cublasOperation_t cublas_op(MatrixOp op) {
  return op == MatrixOp::None ? CUBLAS_OP_N : (op == MatrixOp::Transpose ? CUBLAS_OP_T : CUBLAS_OP_C);
}
#endif

}  // namespace

namespace {
#if LQCD_HAVE_CUDA
cublasStatus_t cublas_gemm(const GemmBatch& g, const C* alpha, const C* A, const C* B, const C* beta, C* Cm) {
  return cublasZgemmStridedBatched(cuda_handles().blas, cublas_op(g.op_a), cublas_op(g.op_b), g.m, g.n, g.k,
                                   reinterpret_cast<const cuDoubleComplex*>(alpha),
                                   reinterpret_cast<const cuDoubleComplex*>(A), g.lda, g.stride_a,
                                   reinterpret_cast<const cuDoubleComplex*>(B), g.ldb, g.stride_b,
                                   reinterpret_cast<const cuDoubleComplex*>(beta), reinterpret_cast<cuDoubleComplex*>(Cm),
                                   g.ldc, g.stride_c, g.batch);
}
cublasStatus_t cublas_gemm(const GemmBatch& g, const Complex<float>* alpha, const Complex<float>* A,
                           const Complex<float>* B, const Complex<float>* beta, Complex<float>* Cm) {
  return cublasCgemmStridedBatched(cuda_handles().blas, cublas_op(g.op_a), cublas_op(g.op_b), g.m, g.n, g.k,
                                   reinterpret_cast<const cuComplex*>(alpha), reinterpret_cast<const cuComplex*>(A),
                                   g.lda, g.stride_a, reinterpret_cast<const cuComplex*>(B), g.ldb, g.stride_b,
                                   reinterpret_cast<const cuComplex*>(beta), reinterpret_cast<cuComplex*>(Cm), g.ldc,
                                   g.stride_c, g.batch);
}
#endif

template <typename T>
void gemm_batched_any(Location loc, const GemmBatch& g, T alpha, const T* A, const T* B, T beta, T* Cm) {
  check_shape(g);
  if (g.batch == 0 || g.m == 0 || g.n == 0) return;
  if (loc == Location::Host) {
    host_gemm(g, alpha, A, B, beta, Cm);
    return;
  }
#if LQCD_HAVE_CUDA
  const cublasStatus_t s = cublas_gemm(g, &alpha, A, B, &beta, Cm);
  if (s != CUBLAS_STATUS_SUCCESS) fail("cuBLAS: a strided batched product failed (status {})", int(s));
#else
  fail("gemm_batched: a device product was requested but this build has no CUDA backend");
#endif
}
}  // namespace

void gemm_batched(Location loc, const GemmBatch& g, C alpha, const C* A, const C* B, C beta, C* Cm) {
  gemm_batched_any(loc, g, alpha, A, B, beta, Cm);
}

void gemm_batched(Location loc, const GemmBatch& g, Complex<float> alpha, const Complex<float>* A,
                  const Complex<float>* B, Complex<float> beta, Complex<float>* Cm) {
  gemm_batched_any(loc, g, alpha, A, B, beta, Cm);
}

void invert_general(Location loc, int n, C* A, int lda, const char* what) {
  if (n < 0 || lda < std::max(1, n)) fail("invert_general: bad shape n {} lda {}", n, lda);
  if (n == 0) return;
  if (loc == Location::Host) {
    host_invert(n, A, lda, what);
    return;
  }
#if LQCD_HAVE_CUDA
  cusolverDnHandle_t h = cuda_handles().solver;
  auto* a = reinterpret_cast<cuDoubleComplex*>(A);
  int lwork = 0;
  if (cusolverDnZgetrf_bufferSize(h, n, n, a, lda, &lwork) != CUSOLVER_STATUS_SUCCESS)
    fail("cuSOLVER: zgetrf_bufferSize failed (n = {})", n);
  Buffer<C> work(std::size_t(std::max(lwork, 1)), Location::Device);
  Buffer<int> pivots(std::size_t(n), Location::Device), info(1, Location::Device);
  if (cusolverDnZgetrf(h, n, n, a, lda, reinterpret_cast<cuDoubleComplex*>(work.data()), pivots.data(), info.data()) !=
      CUSOLVER_STATUS_SUCCESS)
    fail("cuSOLVER: zgetrf failed (n = {})", n);
  int code = 0;
  detail::copy_bytes(&code, Location::Host, info.data(), Location::Device, sizeof(int));
  if (code > 0) fail("{}: the matrix is singular (a zero pivot in column {} of {})", what, code - 1, n);
  if (code < 0) fail("cuSOLVER: zgetrf rejected argument {} (n = {})", -code, n);
  // The inverse: the LU factors solved against the identity.
  Buffer<C> x(std::size_t(n) * std::size_t(n), Location::Device);
  const std::vector<C> ones(static_cast<std::size_t>(n), C(1.0));
  if (cudaMemset(x.data(), 0, x.size() * sizeof(C)) != cudaSuccess ||
      cudaMemcpy2D(x.data(), std::size_t(n + 1) * sizeof(C), ones.data(), sizeof(C), sizeof(C), std::size_t(n),
                   cudaMemcpyHostToDevice) != cudaSuccess)  // the diagonal, one element every n + 1
    fail("invert_general: setting the identity on the device failed (n = {})", n);
  if (cusolverDnZgetrs(h, CUBLAS_OP_N, n, n, a, lda, pivots.data(), reinterpret_cast<cuDoubleComplex*>(x.data()), n,
                       info.data()) != CUSOLVER_STATUS_SUCCESS)
    fail("cuSOLVER: zgetrs failed (n = {})", n);
  // back into A's columns in one copy (one copy per column cost ~50 ms of host waits at n = 6144: the
  // multigrid's coarsest level, three times a setup)
  if (cudaMemcpy2D(A, std::size_t(lda) * sizeof(C), x.data(), std::size_t(n) * sizeof(C), std::size_t(n) * sizeof(C),
                   std::size_t(n), cudaMemcpyDeviceToDevice) != cudaSuccess)
    fail("invert_general: copying the inverse on the device failed (n = {})", n);
#else
  fail("invert_general: a device matrix was given but this build has no CUDA backend");
#endif
}

std::vector<double> hermitian_eigensystem(Location loc, int n, C* A, int lda) {
  if (n < 0 || lda < std::max(1, n)) fail("hermitian_eigensystem: bad shape n {} lda {}", n, lda);
  if (n == 0) return {};
  if (loc == Location::Host) return host_jacobi(n, A, lda);
#if LQCD_HAVE_CUDA
  cusolverDnHandle_t h = cuda_handles().solver;
  int lwork = 0;
  auto* a = reinterpret_cast<cuDoubleComplex*>(A);
  Buffer<double> w(std::size_t(n), Location::Device);
  if (cusolverDnZheevd_bufferSize(h, CUSOLVER_EIG_MODE_VECTOR, CUBLAS_FILL_MODE_LOWER, n, a, lda, w.data(), &lwork) !=
      CUSOLVER_STATUS_SUCCESS)
    fail("cuSOLVER: zheevd_bufferSize failed (n = {})", n);
  Buffer<C> work(std::size_t(std::max(lwork, 1)), Location::Device);
  Buffer<int> info(1, Location::Device);
  if (cusolverDnZheevd(h, CUSOLVER_EIG_MODE_VECTOR, CUBLAS_FILL_MODE_LOWER, n, a, lda, w.data(),
                       reinterpret_cast<cuDoubleComplex*>(work.data()), lwork, info.data()) != CUSOLVER_STATUS_SUCCESS)
    fail("cuSOLVER: zheevd failed (n = {})", n);
  std::vector<double> out(static_cast<std::size_t>(n));
  int code = 0;
  detail::copy_bytes(out.data(), Location::Host, w.data(), Location::Device, out.size() * sizeof(double));
  detail::copy_bytes(&code, Location::Host, info.data(), Location::Device, sizeof(int));
  if (code != 0) fail("cuSOLVER: zheevd did not converge (info {}, n = {})", code, n);
  return out;
#else
  fail("hermitian_eigensystem: a device matrix was given but this build has no CUDA backend");
#endif
}

int cholesky_lower(int n, C* A, int lda, double min_pivot, double& pivot) {
  auto a = [&](int r, int c) -> C& { return A[r + std::int64_t(c) * lda]; };
  for (int j = 0; j < n; ++j) {
    double d = a(j, j).re;
    for (int k = 0; k < j; ++k) d -= norm2(a(j, k));
    pivot = d;
    if (!(d > min_pivot)) return j;
    const double l = std::sqrt(d);
    a(j, j) = C(l);
    for (int i = j + 1; i < n; ++i) {
      C s = a(i, j);
      for (int k = 0; k < j; ++k) s -= a(i, k) * conj(a(j, k));
      a(i, j) = s * (1.0 / l);
    }
    for (int i = 0; i < j; ++i) a(i, j) = C(0.0);
  }
  return -1;
}

std::vector<double> generalized_hermitian_eigensystem(int n, C* A, C* B, const char* what) {
  auto a = [&](int r, int c) -> C& { return A[r + std::int64_t(c) * n]; };
  auto b = [&](int r, int c) -> C& { return B[r + std::int64_t(c) * n]; };
  double pivot = 0;
  const int bad = cholesky_lower(n, B, n, 0.0, pivot);
  if (bad >= 0)
    fail("{}: the matrix at the reference time is not positive definite (pivot {} = {:.3g})", what, bad, pivot);
  // A <- L^-1 A L^-dag: forward substitution on the columns, then on the rows.
  const auto solve_lower_columns = [&](auto&& x) {  // x(r, c) <- (L^-1 x)(r, c)
    for (int c = 0; c < n; ++c)
      for (int r = 0; r < n; ++r) {
        C s = x(r, c);
        for (int k = 0; k < r; ++k) s -= b(r, k) * x(k, c);
        x(r, c) = s * (1.0 / b(r, r).re);
      }
  };
  solve_lower_columns(a);  // L^-1 A
  // (L^-1 A) L^-dag = (L^-1 (L^-1 A)^dag)^dag
  std::vector<C> t(std::size_t(n) * n);
  auto tt = [&](int r, int c) -> C& { return t[std::size_t(r) + std::size_t(c) * n]; };
  for (int c = 0; c < n; ++c)
    for (int r = 0; r < n; ++r) tt(r, c) = conj(a(c, r));
  solve_lower_columns(tt);
  for (int c = 0; c < n; ++c)
    for (int r = 0; r < n; ++r) a(r, c) = conj(tt(c, r));
  std::vector<double> w = host_jacobi(n, A, n);
  // x = L^-dag y: back substitution with L^dag.
  for (int c = 0; c < n; ++c)
    for (int r = n - 1; r >= 0; --r) {
      C s = a(r, c);
      for (int k = r + 1; k < n; ++k) s -= conj(b(k, r)) * a(k, c);
      a(r, c) = s * (1.0 / b(r, r).re);
    }
  return w;
}

}  // namespace lqcd
