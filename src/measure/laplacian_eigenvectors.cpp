#include "measure/laplacian_eigenvectors.hpp"

#include <algorithm>
#include <chrono>
#include <limits>
#include <cmath>
#include <random>
#include <utility>

#include "core/dense_linear_algebra.hpp"
#include "core/dispatch.hpp"
#include "core/error.hpp"
#include "measure/distillation_kernels.hpp"

namespace lqcd {

namespace {

using C = Complex<double>;
constexpr double kSpectrumTop = 12;  // ||-Laplacian|| <= 6 + 6
constexpr double kLaplacianFlops = 456;
constexpr double kMaxAmplification = 1e8;

SliceIndexer slice_of(const Dims& d) { return SliceIndexer{{d[0], d[1], d[2]}}; }

// The block operations of one slice.
class SliceBlock {
 public:
  SliceBlock(const GaugeField<double>& U, int t, int m)
      : U_(U), t_(t), m_(m), n_(3 * slice_of(U.geometry().global).volume()), loc_(U.location()) {}

  std::int64_t n() const { return n_; }
  int m() const { return m_; }
  Location loc() const { return loc_; }
  Buffer<C> make() const { return Buffer<C>(std::size_t(n_) * m_, loc_); }

  // out = a (-Laplacian in) + b in + c extra
  void laplacian(Buffer<C>& out, const Buffer<C>& in, double a, double b = 0, const Buffer<C>* extra = nullptr,
                 double c = 0) {
    NegativeLaplacianKernel k{U_.view(), slice_of(U_.geometry().global), t_, in.data(),
                              extra ? extra->data() : nullptr, out.data(), a, b, c};
    for_each(loc_, n_ / 3 * m_, k);
    flops += kLaplacianFlops * double(n_ / 3) * m_;
  }
  // out (n x cols) = X (n x m) S (m x cols) + beta out, S a small host matrix (column-major, ld m).
  void rotate(Buffer<C>& out, const Buffer<C>& X, const std::vector<C>& S, int cols, double beta = 0) {
    const C* s = upload(S);
    gemm(loc_, MatrixOp::None, MatrixOp::None, int(n_), cols, m_, X.data(), int(n_), s, m_, out.data(), int(n_),
         C(1.0), C(beta));
    flops += 8.0 * double(n_) * m_ * cols;
  }
  // The m x m matrix A^dag B on the host.
  std::vector<C> inner(const Buffer<C>& A, const Buffer<C>& B) {
    gemm(loc_, MatrixOp::Adjoint, MatrixOp::None, m_, m_, int(n_), A.data(), int(n_), B.data(), int(n_), small(),
         m_);
    flops += 8.0 * double(n_) * m_ * m_;
    std::vector<C> h(std::size_t(m_) * m_);
    detail::copy_bytes(h.data(), Location::Host, small(), loc_, h.size() * sizeof(C));
    return h;
  }
  // Eigensystem of a small Hermitian host matrix, where the slice's data live (cuSOLVER on the GPU).
  std::vector<double> eigensystem(std::vector<C>& H) {
    if (loc_ == Location::Host) return hermitian_eigensystem(Location::Host, m_, H.data(), m_);
    C* d = small();
    detail::copy_bytes(d, loc_, H.data(), Location::Host, H.size() * sizeof(C));
    std::vector<double> w = hermitian_eigensystem(loc_, m_, d, m_);
    detail::copy_bytes(H.data(), Location::Host, d, loc_, H.size() * sizeof(C));
    return w;
  }

  double flops = 0;

 private:
  C* small() {
    if (small_.size() == 0) small_ = Buffer<C>(std::size_t(m_) * m_, loc_);
    return small_.data();
  }
  const C* upload(const std::vector<C>& S) {
    if (loc_ == Location::Host) return S.data();
    detail::copy_bytes(small(), loc_, S.data(), Location::Host, S.size() * sizeof(C));
    return small();
  }
  const GaugeField<double>& U_;
  int t_, m_;
  std::int64_t n_;
  Location loc_;
  Buffer<C> small_;
};

// X <- an orthonormal basis of its span by CholeskyQR2 (Fukaya et al., 2014) with column equilibration:
// with G = X^dag X, D = diag(G)^-1/2 and D G D = L L^dag, X <- X D L^-dag; twice, the second pass
// removing what rounding left of the first's error. The filter leaves columns of very different norms,
// which D takes out before the Cholesky factorisation. Small matrices on the host. Throws if the block
// has lost rank (the Cholesky factorisation fails).
void orthonormalise(SliceBlock& B, Buffer<C>& X, Buffer<C>& work) {
  const int m = B.m();
  for (int pass = 0; pass < 2; ++pass) {
    std::vector<C> G = B.inner(X, X);
    std::vector<double> d(static_cast<std::size_t>(m));
    for (int i = 0; i < m; ++i) d[std::size_t(i)] = 1 / std::sqrt(G[std::size_t(i) * m + i].re);
    auto g = [&](int r, int c) -> C& { return G[std::size_t(r) + std::size_t(c) * m]; };
    for (int c = 0; c < m; ++c)
      for (int r = 0; r < m; ++r) g(r, c) *= d[std::size_t(r)] * d[std::size_t(c)];
    double pivot = 0;
    if (cholesky_lower(m, G.data(), m, 1e-14, pivot) >= 0)
      fail("laplacian_eigenvectors: the block lost rank (Cholesky pivot {:.3g}); lower chebyshev_degree", pivot);
    // S = D L^-dag (upper triangular): solve L^dag S' = I column by column (back substitution).
    std::vector<C> S(std::size_t(m) * m, C(0.0));
    for (int c = 0; c < m; ++c)
      for (int r = c; r >= 0; --r) {
        C s = r == c ? C(1.0) : C(0.0);
        for (int k = r + 1; k <= c; ++k) s -= conj(g(k, r)) * S[std::size_t(k) + std::size_t(c) * m];
        S[std::size_t(r) + std::size_t(c) * m] = s * (1 / g(r, r).re);
      }
    for (int c = 0; c < m; ++c)
      for (int r = 0; r <= c; ++r) S[std::size_t(r) + std::size_t(c) * m] *= d[std::size_t(r)];
    B.rotate(work, X, S, m);
    std::swap(X, work);
  }
}

}  // namespace

void check_whole_time_slices(const Geometry& g, const std::string& what) {
  for (int mu = 0; mu < 3; ++mu)
    if (g.grid[mu] != 1 || g.halo[mu] != 0 || g.local[mu] != g.global[mu])
      fail("{}: distillation splits only the time direction over processes (whole time slices per process: "
           "--grid 1,1,1,N); this process grid is {},{},{},{}",
           what, g.grid[0], g.grid[1], g.grid[2], g.grid[3]);
}

void check_laplacian_eigen_params(const LaplacianEigenParams& p, const Dims& dims, const std::string& prefix) {
  const std::int64_t n = 3 * std::int64_t(dims[0]) * dims[1] * dims[2];
  if (p.nv < 1 || p.nv > n)
    fail("{}nv = {}: expected 1 <= nv <= 3 Lx Ly Lz = {}", prefix, p.nv, n);
  if (!(p.tolerance > 0 && p.tolerance < 1)) fail("{}tolerance = {}: expected 0 < tolerance < 1", prefix, p.tolerance);
  if (p.chebyshev_degree < 1 || p.chebyshev_degree > 200)
    fail("{}chebyshev_degree = {}: expected 1..200", prefix, p.chebyshev_degree);
  if (p.guard < 0) fail("{}guard = {}: expected >= 0 (0: automatic)", prefix, p.guard);
  if (p.max_iterations < 1) fail("{}max_iterations = {}: expected >= 1", prefix, p.max_iterations);
  // The dense products index in 32 bits (BLAS): a slice's 3 V3 rows and the 16 nv^2 of a perambulator slice.
  if (n > std::numeric_limits<int>::max() || 16 * std::int64_t(p.nv) * p.nv > std::numeric_limits<int>::max())
    fail("{}nv = {}: the slice ({} colour components) or 16 nv^2 exceeds 2^31", prefix, p.nv, n);
}

void apply_negative_laplacian(const GaugeField<double>& U, int t, int columns, const C* in, C* out) {
  check_whole_time_slices(U.geometry(), "apply_negative_laplacian");
  const SliceIndexer s = slice_of(U.geometry().global);
  NegativeLaplacianKernel k{U.view(), s, t, in, nullptr, out, 1.0, 0.0, 0.0};
  for_each(U.location(), s.volume() * columns, k);
}

LaplacianEigenvectors laplacian_eigenvectors(const GaugeField<double>& U, const LaplacianEigenParams& p,
                                             const std::function<void(const LaplacianSliceInfo&)>& on_slice) {
  check_whole_time_slices(U.geometry(), "laplacian_eigenvectors");
  const Dims dims = U.geometry().global;
  check_laplacian_eigen_params(p, dims, "");
  LaplacianEigenvectors E;
  E.dims = dims;
  E.nv = p.nv;
  E.t_begin = U.geometry().offset[3];
  E.local_nt = U.geometry().local[3];
  const std::int64_t n = E.rows();
  const int m = int(std::min<std::int64_t>(n, p.nv + (p.guard > 0 ? p.guard : std::max(8, p.nv / 4))));
  const Location loc = U.location();
  E.vectors = Buffer<C>(std::size_t(n) * p.nv * E.local_nt, loc);
  E.eigenvalues.resize(std::size_t(p.nv) * E.local_nt);
  E.residuals.resize(E.eigenvalues.size());
  for (int t = 0; t < E.local_nt; ++t) {  // local slice t, global E.t_begin + t
    const int global_t = E.t_begin + t;
    const auto start = std::chrono::steady_clock::now();
    SliceBlock B(U, t, m);
    Buffer<C> X = B.make(), LX = B.make(), W1 = B.make(), W2 = B.make();
    {  // random start, the same on every backend
      std::mt19937_64 rng(p.seed * 1000003ULL + std::uint64_t(global_t));
      std::uniform_real_distribution<double> u(-1.0, 1.0);
      std::vector<C> h(std::size_t(n) * m);
      for (C& z : h) z = C(u(rng), u(rng));
      detail::copy_bytes(X.data(), loc, h.data(), Location::Host, h.size() * sizeof(C));
    }
    orthonormalise(B, X, W1);
    LaplacianSliceInfo info;
    info.t = global_t;
    std::vector<double> lambda, residual(static_cast<std::size_t>(m));
    for (;;) {
      // Rayleigh-Ritz: X <- X Q, LX <- LX Q with X^dag (-Laplacian) X = Q diag(lambda) Q^dag.
      B.laplacian(LX, X, 1.0);
      std::vector<C> H = B.inner(X, LX);
      lambda = B.eigensystem(H);
      B.rotate(W1, X, H, m);
      B.rotate(W2, LX, H, m);
      std::swap(X, W1);
      std::swap(LX, W2);
      ++info.iterations;
      // Residuals ||LX_i - lambda_i X_i||: W1 = LX - X diag(lambda), then the diagonal of W1^dag W1.
      std::vector<C> D(std::size_t(m) * m, C(0.0));
      for (int i = 0; i < m; ++i) D[std::size_t(i) * m + i] = C(-lambda[std::size_t(i)]);
      W1.copy_from(LX);
      B.rotate(W1, X, D, m, 1.0);
      const std::vector<C> R = B.inner(W1, W1);
      double worst = 0;
      for (int i = 0; i < m; ++i) {
        residual[std::size_t(i)] = std::sqrt(std::max(0.0, R[std::size_t(i) * m + i].re));
        if (i < p.nv) worst = std::max(worst, residual[std::size_t(i)]);
      }
      info.max_residual = worst;
      if (worst <= p.tolerance) break;
      if (info.iterations >= p.max_iterations)
        fail("laplacian_eigenvectors: time slice {} not converged in {} iterations (largest residual {:.3g}, "
             "tolerance {:.3g}); raise max_iterations or chebyshev_degree",
             global_t, p.max_iterations, worst, p.tolerance);
      // Chebyshev filter of degree d on [cut, 12], scaled so that the low end stays O(1) (Zhou-Saad,
      // Algorithm 3.2): Y_{j+1} = 2 s_{j+1} / e (L - c) Y_j - s_j s_{j+1} Y_{j-1}.
      const double cut = lambda.back(), low = std::min(lambda.front(), 0.0);
      const double e = (kSpectrumTop - cut) / 2, c = (kSpectrumTop + cut) / 2;
      // The filter multiplies the low end by up to T_d((c - low) / e) relative to the cut. Beyond ~1e8 the
      // block's top vectors drown in the rounding of the recursion and the block loses rank, so the
      // degree is capped there (on 32^3 slices with nv = 64 at about 80).
      if (!(e > 0))  // the block spans the spectrum's top: nothing to damp, and the Rayleigh-Ritz step is exact
        fail("laplacian_eigenvectors: time slice {}: the block reaches the top of the spectrum ({:.6g}) without "
             "converging (largest residual {:.3g}); lower guard or tolerance", global_t, cut, worst);
      const double cap = std::acosh(kMaxAmplification) / std::max(std::acosh((c - low) / e), 1e-300);
      const int degree = int(std::clamp(cap, 1.0, double(p.chebyshev_degree)));
      double sigma = e / (low - c);
      const double tau = 2 / sigma;
      Buffer<C>* y0 = &X;
      Buffer<C>* y1 = &W1;
      Buffer<C>* y2 = &W2;
      B.laplacian(*y1, *y0, sigma / e, -c * sigma / e);
      for (int j = 2; j <= degree; ++j) {
        const double s_new = 1 / (tau - sigma);
        B.laplacian(*y2, *y1, 2 * s_new / e, -2 * s_new * c / e, y0, -sigma * s_new);
        sigma = s_new;
        Buffer<C>* spare = y0;
        y0 = y1;
        y1 = y2;
        y2 = spare;
      }
      if (y1 != &X) std::swap(X, *y1);
      orthonormalise(B, X, W1);
    }
    detail::copy_bytes(E.slice(t), loc, X.data(), loc, std::size_t(n) * p.nv * sizeof(C));
    for (int i = 0; i < p.nv; ++i) {
      E.eigenvalues[std::size_t(t) * p.nv + i] = lambda[std::size_t(i)];
      E.residuals[std::size_t(t) * p.nv + i] = residual[std::size_t(i)];
    }
    info.lambda_min = lambda.front();
    info.lambda_max = lambda[std::size_t(p.nv) - 1];
    info.flops = B.flops;
    info.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    E.slices.push_back(info);
    if (on_slice) on_slice(info);
  }
  return E;
}

}  // namespace lqcd
