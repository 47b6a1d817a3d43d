// Flexible GCR's recycling of its restart cycles' corrections (solvers/krylov/flexible_gcr.hpp,
// GcrControl::recycle; LGMRES's augmentation): on a small non-normal system whose lowest eigenvalues
// make restarted GCR(4) slow, the recycled solve reaches the same answer in far fewer iterations; the
// pairs it keeps are orthonormal images A u = c; and a later solve with the same workspace (the
// multigrid's defect-correction cycles) starts from them. Fields with batched operations take the
// deferred form (x updated once per cycle): the same iterates as the update at every step.
#include <gtest/gtest.h>

#include <cmath>
#include <type_traits>
#include <vector>

#include "solvers/krylov/flexible_gcr.hpp"

namespace lqcd_test_gcr {

using lqcd::Complex;

// A dense complex vector with the operations flexible GCR needs (found by argument-dependent lookup).
struct Vec {
  std::vector<Complex<double>> v;
  Vec like() const { return Vec{std::vector<Complex<double>>(v.size())}; }
  void copy_from(const Vec& o) { v = o.v; }
};
inline Complex<double> dot(const Vec& a, const Vec& b) {  // <a, b> = sum conj(a) b
  Complex<double> s{};
  for (std::size_t i = 0; i < a.v.size(); ++i) s += conj(a.v[i]) * b.v[i];
  return s;
}
inline double norm2(const Vec& a) { return dot(a, a).re; }
inline void axpy(Complex<double> a, const Vec& x, Vec& y) {
  for (std::size_t i = 0; i < x.v.size(); ++i) y.v[i] += a * x.v[i];
}
inline double axpy_norm2(Complex<double> a, const Vec& x, Vec& y) {
  axpy(a, x, y);
  return norm2(y);
}
inline void scale(Complex<double> a, Vec& x) {
  for (auto& e : x.v) e = a * e;
}
inline void set_zero(Vec& x) {
  for (auto& e : x.v) e = Complex<double>{};
}

constexpr int kN = 64;

// A = diag(lambda_i) + an upper off-diagonal: lambda_i = 0.05 + 2 i / (n - 1) + 0.5 i sin(1.7 i), the
// off-diagonal 0.3 cos(i). Non-normal, spectrum in the right half plane down to 0.05.
void apply_a(Vec& out, const Vec& in) {
  for (int i = 0; i < kN; ++i) {
    const Complex<double> lambda(0.05 + 2.0 * i / (kN - 1), 0.5 * std::sin(1.7 * i));
    out.v[std::size_t(i)] = lambda * in.v[std::size_t(i)];
    if (i + 1 < kN) out.v[std::size_t(i)] += Complex<double>(0.3 * std::cos(double(i))) * in.v[std::size_t(i + 1)];
  }
}

Vec source(double phase) {
  Vec b{std::vector<Complex<double>>(kN)};
  for (int i = 0; i < kN; ++i) b.v[std::size_t(i)] = Complex<double>(std::cos(0.37 * i + phase), std::sin(0.91 * i));
  return b;
}

double residual(const Vec& x, const Vec& b) {
  Vec ax = b.like();
  apply_a(ax, x);
  axpy(Complex<double>(-1.0), b, ax);
  return std::sqrt(norm2(ax) / norm2(b));
}

const auto kIdentity = [](Vec& z, const Vec& r) { z.copy_from(r); };

lqcd::GcrOutcome solve(Vec& x, const Vec& b, int restart, int recycle, lqcd::GcrWorkspace<Vec>& w,
                       double tolerance = 1e-10) {
  lqcd::GcrControl c;
  c.tolerance = tolerance;
  c.max_iterations = 5000;
  c.restart = restart;
  c.recycle = recycle;
  return lqcd::flexible_gcr(apply_a, kIdentity, x, b, c, w);
}

TEST(FlexibleGcrRecycling, SameAnswerInFarFewerIterations) {
  const Vec b = source(0.0);
  Vec x0 = b.like(), x2 = b.like();
  lqcd::GcrWorkspace<Vec> w0(b, 4), w2(b, 4, 2);
  const lqcd::GcrOutcome plain = solve(x0, b, 4, 0, w0);
  const lqcd::GcrOutcome recycled = solve(x2, b, 4, 2, w2);
  ASSERT_TRUE(plain.converged);
  ASSERT_TRUE(recycled.converged);
  EXPECT_LE(residual(x0, b), 1e-10);
  EXPECT_LE(residual(x2, b), 1e-10);
  // (Measured with a NumPy model of the same iteration: GCR(4) 502 iterations, with 2 recycled pairs 250.)
  EXPECT_LT(recycled.iterations * 3, plain.iterations * 2) << recycled.iterations << " vs " << plain.iterations;
  Vec d = x2;
  axpy(Complex<double>(-1.0), x0, d);
  EXPECT_LT(std::sqrt(norm2(d) / norm2(x0)), 1e-8);
  // The kept pairs: c_j = A u_j, orthonormal.
  ASSERT_EQ(w2.recycled, 2);
  for (int j = 0; j < w2.recycled; ++j) {
    Vec au = b.like();
    apply_a(au, w2.z[std::size_t(j)]);
    axpy(Complex<double>(-1.0), w2.q[std::size_t(j)], au);
    EXPECT_LT(std::sqrt(norm2(au)), 1e-10) << "pair " << j;
    for (int l = 0; l < w2.recycled; ++l) {
      const Complex<double> g = dot(w2.q[std::size_t(j)], w2.q[std::size_t(l)]);
      EXPECT_NEAR(g.re, j == l ? 1.0 : 0.0, 1e-12);
      EXPECT_NEAR(g.im, 0.0, 1e-12);
    }
  }
  // Without recycling the workspace keeps nothing.
  EXPECT_EQ(w0.recycled, 0);
  // Another source solved with the kept pairs: its components along them are projected out first (the
  // new directions, orthogonal to the pairs, could not remove them), so it too reaches its tolerance.
  const Vec b2 = source(1.3);
  Vec x3 = b2.like();
  const lqcd::GcrOutcome again = solve(x3, b2, 4, 2, w2);
  EXPECT_TRUE(again.converged);
  EXPECT_LE(residual(x3, b2), 1e-10);
  Vec x4 = b2.like();
  lqcd::GcrWorkspace<Vec> w4(b2, 4, 2);
  const lqcd::GcrOutcome fresh = solve(x4, b2, 4, 2, w4);
  EXPECT_LE(again.iterations, fresh.iterations + 20) << again.iterations << " vs a fresh " << fresh.iterations;
  // A call that does not recycle forgets the kept pairs: plain GCR(4) again.
  Vec x5 = b.like();
  EXPECT_EQ(solve(x5, b, 4, 0, w2).iterations, plain.iterations);
  EXPECT_EQ(w2.recycled, 0);
}

TEST(FlexibleGcrRecycling, DefectCorrectionCyclesKeepThePairs) {
  // The multigrid's mixed-precision outer solve calls GCR once per restart cycle (at most m iterations,
  // from e = 0 on the new residual b - A x) with the same workspace: those calls together must take the
  // iterations of one recycled solve, not those of plain restarts.
  const Vec b = source(0.4);
  const auto chained = [&b](int recycle) {
    Vec x = b.like(), r = b, e = b.like(), ax = b.like();
    lqcd::GcrWorkspace<Vec> w(b, 4, recycle);
    lqcd::GcrControl c;
    c.restart = 4;
    c.recycle = recycle;
    c.max_iterations = 4;
    int iterations = 0;
    while (iterations < 5000 && residual(x, b) > 1e-8) {
      c.tolerance = 1e-8 * std::sqrt(norm2(b) / norm2(r));
      iterations += lqcd::flexible_gcr(apply_a, kIdentity, e, r, c, w, false).iterations;
      axpy(Complex<double>(1.0), e, x);
      apply_a(ax, x);
      r = b;
      axpy(Complex<double>(-1.0), ax, r);
    }
    EXPECT_LE(residual(x, b), 1e-8) << "recycle " << recycle;
    return iterations;
  };
  Vec x = b.like();
  lqcd::GcrWorkspace<Vec> w(b, 4, 2);
  const lqcd::GcrOutcome one = solve(x, b, 4, 2, w, 1e-8);
  ASSERT_TRUE(one.converged);
  const int with = chained(2), without = chained(0);
  EXPECT_LE(std::abs(with - one.iterations), 8) << with << " in calls, " << one.iterations << " in one solve";
  EXPECT_LT(with * 3, without * 2) << with << " vs " << without;
  // Forgetting the pairs between calls is plain restarting.
  EXPECT_GT(without, one.iterations + 50);
}


// The same vector with the batched operations of fields/spinor_blas.hpp (a BatchedVectorField): flexible
// GCR takes the deferred form on it (z_k as the preconditioner gave it, x updated once per cycle).
struct BatchedVec : Vec {
  BatchedVec like() const { return BatchedVec{Vec::like()}; }
};
std::vector<Complex<double>> multi_dot(const std::vector<const BatchedVec*>& x, const BatchedVec& y,
                                       double* y_norm2 = nullptr) {
  std::vector<Complex<double>> d;
  for (const BatchedVec* xj : x) d.push_back(dot(*xj, y));
  if (y_norm2) *y_norm2 = norm2(y);
  return d;
}
void multi_axpy(const std::vector<Complex<double>>& a, const std::vector<const BatchedVec*>& x, BatchedVec& y,
                double c = 1.0) {
  for (std::size_t j = 0; j < x.size(); ++j) axpy(a[j], *x[j], y);
  scale(Complex<double>(c), y);
}
static_assert(lqcd::BatchedVectorField<BatchedVec> && !lqcd::BatchedVectorField<Vec>);

TEST(FlexibleGcrDeferredUpdate, SameIteratesAsTheUpdateAtEveryStep) {
  // A preconditioner that changes from call to call (a diagonal approximation of A^-1 with a varying
  // factor), so that z_k is not a Krylov vector of A: the flexible iteration itself is compared.
  const auto solve_with = [](auto& x, const auto& b, int max_iterations, double tolerance) {
    int calls = 0;
    const auto precondition = [&calls](auto& z, const auto& r) {
      for (int i = 0; i < kN; ++i) {
        const Complex<double> lambda(0.05 + 2.0 * i / (kN - 1), 0.5 * std::sin(1.7 * i));
        const double f = (1.0 + 0.3 * std::sin(0.7 * calls + 0.1 * i)) / norm2(lambda);
        z.v[std::size_t(i)] = conj(lambda) * r.v[std::size_t(i)] * f;
      }
      ++calls;
    };
    lqcd::GcrWorkspace<std::remove_cvref_t<decltype(b)>> w(b, 4);
    lqcd::GcrControl c;
    c.restart = 4;
    c.tolerance = tolerance;
    c.max_iterations = max_iterations;
    return lqcd::flexible_gcr(apply_a, precondition, x, b, c, w, false);
  };
  const Vec b = source(0.8);
  const BatchedVec bb{b};
  // within the first cycle, at its end, across restarts, and at convergence
  for (const int n : {2, 3, 4, 7, 10, 200}) {
    const double tolerance = n == 200 ? 1e-10 : 1e-30;
    Vec x = b.like();
    BatchedVec y = bb.like();
    const lqcd::GcrOutcome one = solve_with(x, b, n, tolerance);
    const lqcd::GcrOutcome deferred = solve_with(y, bb, n, tolerance);
    EXPECT_EQ(one.iterations, deferred.iterations) << n;
    EXPECT_EQ(one.converged, deferred.converged) << n;
    Vec d = y;
    axpy(Complex<double>(-1.0), x, d);
    EXPECT_LT(std::sqrt(norm2(d) / norm2(x)), 1e-12) << "after " << n << " iterations";
    if (n == 200) {
      EXPECT_TRUE(deferred.converged);
      EXPECT_LE(residual(y, b), 1e-10);
    }
  }
}

}  // namespace lqcd_test_gcr
