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
#include <algorithm>
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

// Solves A x_i = b_i for N right-hand sides in lockstep (issue 46): each has its own Krylov space,
// restarts and stopping test, exactly the iteration of flexible_gcr below, but the preconditioner is
// called once per step for all right-hand sides still iterating, so that a multigrid cycle can carry
// them through its coarse levels together. precondition(z, r): *z[i] = K *r[i] for the listed pairs
// (z[i] overwritten). apply(out, in): out = A in, one field. w: one workspace per right-hand side.
// on_iteration(i, k, relative residual estimate) after every iteration of right-hand side i when set.
// tolerances: one per right-hand side in place of c.tolerance (empty: c.tolerance for all).
template <typename Field, typename Apply, typename PreconditionAll>
std::vector<GcrOutcome> flexible_gcr_lockstep(const Apply& apply, const PreconditionAll& precondition,
                                              const std::vector<Field*>& x, const std::vector<const Field*>& b,
                                              const GcrControl& c, const std::vector<GcrWorkspace<Field>*>& w,
                                              bool check_true_at_end = true,
                                              const std::function<void(int, int, double)>& on_iteration = {},
                                              const std::vector<double>& tolerances = {}) {
  const std::size_t n = x.size();
  std::vector<GcrOutcome> out(n);
  struct State {
    double bn = 0, r2 = 0, target = 0;
    int k = 0;  // position in the current restart cycle
    bool done = false;
  };
  std::vector<State> st(n);
  for (std::size_t i = 0; i < n; ++i) {
    State& s = st[i];
    GcrOutcome& o = out[i];
    Field& xi = *x[i];
    GcrWorkspace<Field>& wi = *w[i];
    s.bn = std::sqrt(norm2(*b[i]));
    o.true_residual = true;
    if (!(s.bn > 0)) {  // b = 0: x = 0
      set_zero(xi);
      o.converged = true;
      s.done = true;
      continue;
    }
    Field& r = wi.r.at(0);
    if (c.zero_guess) {
      set_zero(xi);
      r.copy_from(*b[i]);
      s.r2 = s.bn * s.bn;
    } else {
      apply(wi.q[0], xi);
      r.copy_from(*b[i]);
      s.r2 = axpy_norm2(Complex<double>(-1.0), wi.q[0], r);
    }
    s.target = (tolerances.empty() ? c.tolerance : tolerances[i]) * s.bn;
    o.relative_residual = std::sqrt(s.r2) / s.bn;
    if (std::sqrt(s.r2) <= s.target) {
      o.converged = true;
      s.done = true;
    }
  }
  // The end of right-hand side i's restart cycle (after k directions): its true residual, and whether
  // it goes on.
  const auto end_cycle = [&](std::size_t i) {
    State& s = st[i];
    GcrOutcome& o = out[i];
    GcrWorkspace<Field>& wi = *w[i];
    const int k = s.k;
    s.k = 0;
    if (o.breakdown && k == 0) {
      s.done = true;
      return;
    }
    const bool at_limit = o.iterations >= c.max_iterations;
    if (!(std::sqrt(s.r2) <= s.target) && at_limit && !check_true_at_end) {
      s.done = true;
      return;
    }
    apply(wi.q[0], *x[i]);
    Field& r = wi.r.at(0);
    r.copy_from(*b[i]);
    s.r2 = axpy_norm2(Complex<double>(-1.0), wi.q[0], r);
    o.true_residual = true;
    o.relative_residual = std::sqrt(s.r2) / s.bn;
    if (!std::isfinite(s.r2)) {
      o.breakdown = true;
      s.done = true;
    } else if (std::sqrt(s.r2) <= s.target) {
      o.converged = true;
      s.done = true;
    } else if (o.breakdown || o.iterations >= c.max_iterations) {
      s.done = true;
    }
  };
  for (std::size_t i = 0; i < n; ++i)
    if (!st[i].done && c.max_iterations <= 0) st[i].done = true;
  std::vector<std::size_t> active;
  std::vector<Field*> zs;
  std::vector<const Field*> rs;
  for (;;) {
    active.clear();
    zs.clear();
    rs.clear();
    for (std::size_t i = 0; i < n; ++i)
      if (!st[i].done) {
        active.push_back(i);
        zs.push_back(&w[i]->z[std::size_t(st[i].k)]);
        rs.push_back(&w[i]->r.at(0));
      }
    if (active.empty()) break;
    precondition(zs, rs);
    for (const std::size_t i : active) {
      State& s = st[i];
      GcrOutcome& o = out[i];
      GcrWorkspace<Field>& wi = *w[i];
      const int m = std::min(c.restart, wi.restart());
      const int k = s.k;
      Field& zk = wi.z[std::size_t(k)];
      Field& qk = wi.q[std::size_t(k)];
      Field& r = wi.r.at(0);
      apply(qk, zk);
      gcr_orthogonalise(wi.q, wi.z, k);
      const double qn2 = norm2(qk);
      if (!(qn2 > 0) || !std::isfinite(qn2)) {
        o.breakdown = true;
        end_cycle(i);
        continue;
      }
      const double inv = 1.0 / std::sqrt(qn2);
      scale(Complex<double>(inv), qk);
      scale(Complex<double>(inv), zk);
      const Complex<double> alpha = dot(qk, r);
      axpy(alpha, zk, *x[i]);
      s.r2 = axpy_norm2(-alpha, qk, r);
      ++o.iterations;
      ++s.k;
      o.relative_residual = std::sqrt(s.r2) / s.bn;
      o.true_residual = false;
      if (on_iteration) on_iteration(int(i), o.iterations, o.relative_residual);
      if (std::sqrt(s.r2) <= s.target || s.k >= m || o.iterations >= c.max_iterations) end_cycle(i);
    }
  }
  return out;
}

// Solves A x = b. apply(out, in): out = A in; precondition(out, in): out = K in (out is overwritten).
// With check_true_at_end the residual is recomputed at the iteration limit too (one more application).
// on_iteration(k, relative residual estimate) is called after every iteration when set.
template <typename Field, typename Apply, typename Precondition>
GcrOutcome flexible_gcr(const Apply& apply, const Precondition& precondition, Field& x, const Field& b,
                        const GcrControl& c, GcrWorkspace<Field>& w, bool check_true_at_end = true,
                        const std::function<void(int, double)>& on_iteration = {}) {
  const auto precondition_one = [&precondition](std::vector<Field*>& z, std::vector<const Field*>& r) {
    precondition(*z[0], *r[0]);
  };
  std::function<void(int, int, double)> each;
  if (on_iteration) each = [&on_iteration](int, int k, double r) { on_iteration(k, r); };
  return flexible_gcr_lockstep(apply, precondition_one, std::vector<Field*>{&x}, std::vector<const Field*>{&b}, c,
                               std::vector<GcrWorkspace<Field>*>{&w}, check_true_at_end, each)[0];
}

}  // namespace lqcd
