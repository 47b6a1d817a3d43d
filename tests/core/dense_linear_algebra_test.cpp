// The general inverse and the single-precision product of core/dense_linear_algebra (the multigrid's
// direct coarsest solve, solvers/multigrid/coarse_direct_solve.hpp), on the host and on the device.
#include <gtest/gtest.h>

#include <vector>

#include "core/dense_linear_algebra.hpp"
#include "core/error.hpp"
#include "core/site_random.hpp"
#include "test_support.hpp"

namespace lqcd {
namespace {

using C = Complex<double>;

template <typename T>
std::vector<Complex<T>> random_entries(std::size_t count, std::uint64_t seed) {
  std::vector<Complex<T>> v(count);
  for (std::size_t i = 0; i < count; ++i) {
    SiteRandom rng(seed, i, RngPurpose::Test, 0, 0);
    v[i] = Complex<T>(T(rng.gaussian()), T(rng.gaussian()));
  }
  return v;
}

template <typename T>
Buffer<T> to(Location loc, const std::vector<T>& h) {
  Buffer<T> b(h.size(), loc);
  detail::copy_bytes(b.data(), loc, h.data(), Location::Host, h.size() * sizeof(T));
  return b;
}
template <typename T>
std::vector<T> to_host(const Buffer<T>& b) {
  std::vector<T> h(b.size());
  detail::copy_bytes(h.data(), Location::Host, b.data(), b.location(), b.bytes());
  return h;
}

// A A^{-1} = 1 for a random 37 x 37 matrix (leading dimension 40) whose first column starts with 0 and
// whose first 10 x 10 block is singular, so that elimination without row exchanges would fail.
TEST(DenseLinearAlgebra, InvertGeneralGivesTheInverse) {
  const int n = 37, lda = 40;
  std::vector<C> a = random_entries<double>(std::size_t(lda) * n, 11);
  for (int c = 0; c < 10; ++c) a[std::size_t(c) * lda] = C(0.0);  // row 0 of the first 10 columns
  for (Location loc : test::locations()) {
    SCOPED_TRACE(to_string(loc));
    Buffer<C> inv = to(loc, a);
    invert_general(loc, n, inv.data(), lda, "test");
    const std::vector<C> x = to_host(inv);
    double worst = 0;
    for (int r = 0; r < n; ++r)
      for (int c = 0; c < n; ++c) {
        C s(0.0);
        for (int k = 0; k < n; ++k) s += a[std::size_t(r + k * lda)] * x[std::size_t(k + c * lda)];
        worst = std::max(worst, abs(s - C(r == c ? 1.0 : 0.0)));
      }
    EXPECT_LE(worst, 1e-11);
  }
}

TEST(DenseLinearAlgebra, InvertGeneralRefusesASingularMatrix) {
  const int n = 9;
  std::vector<C> a = random_entries<double>(std::size_t(n) * n, 12);
  for (int r = 0; r < n; ++r) a[std::size_t(r + 4 * n)] = C(0.0);  // column 4 zero
  for (Location loc : test::locations()) {
    SCOPED_TRACE(to_string(loc));
    Buffer<C> m = to(loc, a);
    EXPECT_THROW(invert_general(loc, n, m.data(), n, "test"), Error);
  }
}

// C = alpha A B^T + beta C in single precision against the same in double.
TEST(DenseLinearAlgebra, SinglePrecisionProductMatchesDouble) {
  const int m = 12, n = 50, k = 50;
  const std::vector<Complex<float>> A = random_entries<float>(std::size_t(m) * k, 13),
                                    B = random_entries<float>(std::size_t(n) * k, 14),
                                    C0 = random_entries<float>(std::size_t(m) * n, 15);
  const Complex<float> alpha(0.5f, -1.5f), beta(2.0f, 0.25f);
  for (Location loc : test::locations()) {
    SCOPED_TRACE(to_string(loc));
    Buffer<Complex<float>> a = to(loc, A), b = to(loc, B), c = to(loc, C0);
    gemm(loc, MatrixOp::None, MatrixOp::Transpose, m, n, k, a.data(), m, b.data(), n, c.data(), m, alpha, beta);
    const std::vector<Complex<float>> got = to_host(c);
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < n; ++j) {
        C s(0.0);
        for (int l = 0; l < k; ++l)
          s += C(A[std::size_t(i + l * m)]) * C(B[std::size_t(j + l * n)]);
        const C want = C(alpha) * s + C(beta) * C(C0[std::size_t(i + j * m)]);
        EXPECT_LE(abs(C(got[std::size_t(i + j * m)]) - want), 1e-4 * (1 + abs(want))) << i << " " << j;
      }
  }
}

}  // namespace
}  // namespace lqcd
