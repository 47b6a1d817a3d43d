#pragma once
// Flexible GCR(m) with a right preconditioner that may change from one iteration to the next (a
// multigrid cycle, an inner Krylov solve): Y. Notay, SIAM J. Sci. Comput. 22 (2000) 1444; the outer
// solver of DD-alphaAMG and QUDA's multigrid. Written once for any field type with the vector
// operations of fields/spinor_blas.hpp (SpinorField) or fields/coarse_field.hpp (CoarseField).
//
//   r = b - A x;  for k = 0 .. m-1:  z_k = K r,  q_k = A z_k,
//                 for j < k: beta = <q_j, q_k>, q_k -= beta q_j, z_k -= beta z_j   (gcr_orthogonalise)
//                 q_k, z_k /= ||q_k||,  alpha = <q_k, r>,  x += alpha z_k,  r -= alpha q_k
//   restart: r = b - A x recomputed (the stopping test is on this true residual).

#include <cmath>
#include <functional>
#include <vector>

#include "math/complex.hpp"

namespace lqcd {

struct GcrControl {
  double tolerance = 1e-10;  // on ||b - A x|| / ||b||
  int max_iterations = 100;  // preconditioner applications
  int restart = 16;          // m
  bool zero_guess = true;    // x = 0 on entry (one application of A saved)
};

struct GcrOutcome {
  int iterations = 0;
  double relative_residual = 0;  // ||b - A x|| / ||b|| (true at convergence and at the limit: see true_residual)
  bool converged = false;
  bool breakdown = false;        // a search direction with ||A z|| = 0 or not finite
  bool true_residual = false;    // relative_residual was recomputed from x
};

// The work fields of flexible_gcr: 2 m + 1 fields of b's shape, kept between solves (empty when
// default-constructed).
template <typename Field>
struct GcrWorkspace {
  std::vector<Field> z, q, r;  // r: the residual (one field)
  GcrWorkspace() = default;
  GcrWorkspace(const Field& like, int m) {
    z.reserve(std::size_t(m));
    q.reserve(std::size_t(m));
    for (int i = 0; i < m; ++i) {
      z.push_back(like.like());
      q.push_back(like.like());
    }
    r.push_back(like.like());
  }
  int restart() const { return int(z.size()); }
};

// q_k and z_k against q_j, z_j for j < k by modified Gram-Schmidt, one j at a time: beta = <q_j, q_k>,
// q_k -= beta q_j, z_k -= beta z_j. Field types with batched vector operations overload it (found by
// argument-dependent lookup; fields/coarse_field.hpp).
template <typename Field>
void gcr_orthogonalise(std::vector<Field>& q, std::vector<Field>& z, int k) {
  for (int j = 0; j < k; ++j) {
    const Complex<double> beta = dot(q[std::size_t(j)], q[std::size_t(k)]);
    axpy(-beta, q[std::size_t(j)], q[std::size_t(k)]);
    axpy(-beta, z[std::size_t(j)], z[std::size_t(k)]);
  }
}

// Solves A x = b. apply(out, in): out = A in; precondition(out, in): out = K in (out is overwritten).
// With check_true_at_end the residual is recomputed at the iteration limit too (one more application).
// on_iteration(k, relative residual estimate) is called after every iteration when set.
template <typename Field, typename Apply, typename Precondition>
GcrOutcome flexible_gcr(const Apply& apply, const Precondition& precondition, Field& x, const Field& b,
                        const GcrControl& c, GcrWorkspace<Field>& w, bool check_true_at_end = true,
                        const std::function<void(int, double)>& on_iteration = {}) {
  GcrOutcome out;
  const int m = std::min(c.restart, w.restart());
  const double bn = std::sqrt(norm2(b));
  if (!(bn > 0)) {  // b = 0: x = 0
    set_zero(x);
    out.converged = true;
    out.true_residual = true;
    return out;
  }
  Field& r = w.r.at(0);
  auto true_residual = [&]() {
    apply(w.q[0], x);
    r.copy_from(b);
    return axpy_norm2(Complex<double>(-1.0), w.q[0], r);
  };
  double r2;
  if (c.zero_guess) {
    set_zero(x);
    r.copy_from(b);
    r2 = bn * bn;
  } else {
    r2 = true_residual();
  }
  const double target = c.tolerance * bn;
  out.true_residual = true;
  out.relative_residual = std::sqrt(r2) / bn;
  if (std::sqrt(r2) <= target) {
    out.converged = true;
    return out;
  }
  while (out.iterations < c.max_iterations) {
    int k = 0;
    for (; k < m && out.iterations < c.max_iterations; ++k) {
      Field& zk = w.z[std::size_t(k)];
      Field& qk = w.q[std::size_t(k)];
      precondition(zk, r);
      apply(qk, zk);
      gcr_orthogonalise(w.q, w.z, k);
      const double qn2 = norm2(qk);
      if (!(qn2 > 0) || !std::isfinite(qn2)) {
        out.breakdown = true;
        break;
      }
      const double inv = 1.0 / std::sqrt(qn2);
      scale(Complex<double>(inv), qk);
      scale(Complex<double>(inv), zk);
      const Complex<double> alpha = dot(qk, r);
      axpy(alpha, zk, x);
      r2 = axpy_norm2(-alpha, qk, r);
      ++out.iterations;
      out.relative_residual = std::sqrt(r2) / bn;
      out.true_residual = false;
      if (on_iteration) on_iteration(out.iterations, out.relative_residual);
      if (std::sqrt(r2) <= target) {
        ++k;
        break;
      }
    }
    if (out.breakdown && k == 0) break;
    const bool at_limit = out.iterations >= c.max_iterations;
    if (!(std::sqrt(r2) <= target) && at_limit && !check_true_at_end) break;
    r2 = true_residual();
    out.true_residual = true;
    out.relative_residual = std::sqrt(r2) / bn;
    if (!std::isfinite(r2)) {
      out.breakdown = true;
      break;
    }
    if (std::sqrt(r2) <= target) {
      out.converged = true;
      break;
    }
    if (out.breakdown) break;
  }
  return out;
}

}  // namespace lqcd
