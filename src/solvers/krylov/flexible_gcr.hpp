#pragma once
// Flexible GCR(m) with a right preconditioner that may change from one iteration to the next (a
// multigrid cycle, an inner Krylov solve): Y. Notay, SIAM J. Sci. Comput. 22 (2000) 1444; the outer
// solver of DD-alphaAMG and QUDA's multigrid. Written once for any field type with the vector
// operations of fields/spinor_blas.hpp (SpinorField) or solvers/multigrid/coarse_field.hpp (CoarseField).
//
//   r = b - A x;  for k = 0 .. m-1:  z_k = K r,  q_k = A z_k,
//                 for j < k: beta = <q_j, q_k>, q_k -= beta q_j, z_k -= beta z_j   (gcr_orthogonalise)
//                 q_k, z_k /= ||q_k||,  alpha = <q_k, r>,  x += alpha z_k,  r -= alpha q_k
//   restart: r = b - A x recomputed (the stopping test is on this true residual).
//   Fields with batched operations, without recycling, leave z_k = K r as it is and update x once per
//   cycle: x += Z y with R y = alpha, R the triangle of q_k's orthonormalisation (A Z = Q R), the same
//   iterate in fewer passes over memory (gcr_orthonormalise_deferred).
//   recycling (GcrControl::recycle = k > 0): each restart cycle's total correction u = sum alpha_j z_j and
//   its image c = A u = sum alpha_j q_j are kept as a pair (the last k of them, c orthonormal), every
//   later direction is orthogonalised against them too and every new residual (after a restart, or at
//   the start of a later call with the same workspace) is first projected on them: LGMRES's augmentation
//   with error approximations (A. H. Baker, E. R. Jessup, T. Manteuffel, SIAM J. Matrix Anal. Appl. 26
//   (2005) 962), which keeps what a restart would forget of the slow modes.

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
  int recycle = 0;           // k: correction pairs kept across restarts (at most the workspace's capacity)
  bool zero_guess = true;    // x = 0 on entry (one application of A saved)
};

struct GcrOutcome {
  int iterations = 0;
  double relative_residual = 0;  // ||b - A x|| / ||b|| (true at convergence and at the limit: see true_residual)
  bool converged = false;
  bool breakdown = false;        // a search direction with ||A z|| = 0 or not finite
  bool true_residual = false;    // relative_residual was recomputed from x
};

// The work fields of flexible_gcr: 2 (m + k) + 1 fields of b's shape, kept between solves (empty when
// default-constructed); k: room for recycled pairs (GcrControl::recycle), which stay in the workspace
// from one solve to the next (clear_recycled() forgets them, e.g. when A changes).
template <typename Field>
struct GcrWorkspace {
  std::vector<Field> z, q, r;  // r: the residual (one field); z, q: the recycled pairs first
  int recycle_capacity = 0;
  int recycled = 0;  // pairs (z[j], q[j] = A z[j]), j < recycled, q orthonormal
  GcrWorkspace() = default;
  GcrWorkspace(const Field& like, int m, int k = 0) : recycle_capacity(k) {
    z.reserve(std::size_t(m + k));
    q.reserve(std::size_t(m + k));
    for (int i = 0; i < m + k; ++i) {
      z.push_back(like.like());
      q.push_back(like.like());
    }
    r.push_back(like.like());
  }
  int restart() const { return int(z.size()) - recycle_capacity; }
  void clear_recycled() { recycled = 0; }
};

// q_k and z_k against q_j, z_j for j < k by modified Gram-Schmidt, one j at a time: beta = <q_j, q_k>,
// q_k -= beta q_j, z_k -= beta z_j. Field types with batched vector operations overload it (found by
// argument-dependent lookup; solvers/multigrid/coarse_field.hpp).
template <typename Field>
void gcr_orthogonalise(std::vector<Field>& q, std::vector<Field>& z, int k) {
  for (int j = 0; j < k; ++j) {
    const Complex<double> beta = dot(q[std::size_t(j)], q[std::size_t(k)]);
    axpy(-beta, q[std::size_t(j)], q[std::size_t(k)]);
    axpy(-beta, z[std::size_t(j)], z[std::size_t(k)]);
  }
}

// Fields with batched vector operations multi_dot and multi_axpy (spinor fields: fields/spinor_blas.hpp).
template <typename Field>
concept BatchedVectorField = requires(const std::vector<const Field*>& x, Field& y, const std::vector<Complex<double>>& a) {
  multi_dot(x, y, static_cast<double*>(nullptr));
  multi_axpy(a, x, y, 1.0);
};

// x -= sum_j beta_j v_j, beta_j = <v_j, x>, over orthonormal v_j by classical Gram-Schmidt: the
// coefficients of all j from one pass over x, then one update, each reading x once per batch of v_j
// instead of once per j, and one wait for the device per batch instead of one per j; with w and y given,
// also y -= sum_j beta_j w_j. Classical Gram-Schmidt loses orthogonality where the pass removes most of
// x, so a second pass follows where ||x||^2 fell below half its value (Kahan and Parlett's "twice is
// enough": L. Giraud, J. Langou, M. Rozloznik, Comput. Math. Appl. 50 (2005) 1069). The norm after a pass
// is known without reading x again: ||x||^2 - sum_j |beta_j|^2.
template <BatchedVectorField Field>
void classical_gram_schmidt(const std::vector<const Field*>& v, Field& x, const std::vector<const Field*>* w = nullptr,
                            Field* y = nullptr) {
  if (v.empty()) return;
  for (int pass = 0; pass < 2; ++pass) {
    double before = 0, removed = 0;
    std::vector<Complex<double>> beta = multi_dot(v, x, &before);
    for (Complex<double>& b : beta) {
      removed += norm2(b);
      b = -b;
    }
    multi_axpy(beta, v, x);
    if (w && y) multi_axpy(beta, *w, *y);
    if (before - removed > 0.5 * before) break;
  }
}

// gcr_orthogonalise for fields with batched operations: classical Gram-Schmidt (above).
template <BatchedVectorField Field>
void gcr_orthogonalise(std::vector<Field>& q, std::vector<Field>& z, int k) {
  std::vector<const Field*> qs, zs;
  for (int j = 0; j < k; ++j) {
    qs.push_back(&q[std::size_t(j)]);
    zs.push_back(&z[std::size_t(j)]);
  }
  classical_gram_schmidt(qs, q[std::size_t(k)], &zs, &z[std::size_t(k)]);
}

// A flexible GCR step's new direction: q_k and z_k orthogonalised against q_j, z_j (j < k) and divided by
// ||q_k||; returns ||q_k||^2 before the division (zero or not finite: a breakdown, q_k and z_k left
// undivided) and alpha = <q_k, r> after it.
struct GcrDirection {
  double norm2 = 0;
  Complex<double> alpha;
};
template <typename Field>
GcrDirection gcr_orthonormalise(std::vector<Field>& q, std::vector<Field>& z, int k, const Field& r) {
  gcr_orthogonalise(q, z, k);
  Field& qk = q[std::size_t(k)];
  GcrDirection d;
  d.norm2 = norm2(qk);
  if (!(d.norm2 > 0) || !std::isfinite(d.norm2)) return d;
  const double inv = 1.0 / std::sqrt(d.norm2);
  scale(Complex<double>(inv), qk);
  scale(Complex<double>(inv), z[std::size_t(k)]);
  d.alpha = dot(qk, r);
  return d;
}

// The same in fewer passes over memory for field types with batched vector operations (issue 46: the
// setup's and the outer solve's GCR sat near the bandwidth in its single-field passes). The pass that
// gives the Gram-Schmidt coefficients also gives <r, q_k>, and the division by ||q_k|| rides on the
// last update (multi_axpy's factor), with ||q_k||^2 after the update known from the coefficients
// (||q_k||^2 - sum_j |beta_j|^2 for orthonormal q_j). alpha = <q_k, r> - sum_j conj(beta_j) <q_j, r>
// = <q_k, r>, since r is orthogonal to the earlier q_j (each step removed its q_j from r; the
// recycled pairs are projected out of r before the cycle): this drops terms of the rounding's size,
// which the true residual at every restart accounts for. Saves the norm, the two divisions and the
// dot: 7 of the iteration's ~40 passes over a field.
// z == nullptr: z_k is left as it is (the deferred form below); column != nullptr: receives R's column k.
template <BatchedVectorField Field>
GcrDirection gcr_orthonormalise_batched(std::vector<Field>& q, std::vector<Field>* z, int k, const Field& r,
                                        std::vector<Complex<double>>* column) {
  std::vector<const Field*> xs, zs;
  for (int j = 0; j < k; ++j) {
    xs.push_back(&q[std::size_t(j)]);
    if (z) zs.push_back(&(*z)[std::size_t(j)]);
  }
  xs.push_back(&r);
  const std::vector<const Field*> qs(xs.begin(), xs.end() - 1);
  Field& qk = q[std::size_t(k)];
  if (column) column->assign(std::size_t(k) + 1, Complex<double>());
  GcrDirection d;
  for (int pass = 0;; ++pass) {
    double before = 0, removed = 0;
    std::vector<Complex<double>> beta = multi_dot(xs, qk, &before);
    const Complex<double> rq = beta.back();  // <r, q_k>
    beta.pop_back();
    for (int j = 0; j < k; ++j) {
      Complex<double>& b = beta[std::size_t(j)];
      if (column) (*column)[std::size_t(j)] += b;
      removed += norm2(b);
      b = -b;
    }
    d.norm2 = before - removed;
    // Twice where a pass removed most of q_k (classical_gram_schmidt above).
    const bool last = pass == 1 || d.norm2 > 0.5 * before;
    const bool divide = last && d.norm2 > 0 && std::isfinite(d.norm2);
    const double c = divide ? 1.0 / std::sqrt(d.norm2) : 1.0;
    if (k > 0 || divide) {
      multi_axpy(beta, qs, qk, c);
      if (z) multi_axpy(beta, zs, (*z)[std::size_t(k)], c);
    }
    if (last) {
      if (column) (*column)[std::size_t(k)] = Complex<double>(divide ? std::sqrt(d.norm2) : 0.0);
      d.alpha = Complex<double>(c * rq.re, -c * rq.im);  // <q_k, r> = conj(<r, q_k>)
      return d;
    }
  }
}
template <BatchedVectorField Field>
GcrDirection gcr_orthonormalise(std::vector<Field>& q, std::vector<Field>& z, int k, const Field& r) {
  return gcr_orthonormalise_batched(q, &z, k, r, static_cast<std::vector<Complex<double>>*>(nullptr));
}

// The step in the deferred form (flexible_gcr_lockstep for batched fields without recycling): q_k alone
// is orthonormalised, as gcr_orthonormalise does it, and z_k stays K r. `column` receives the
// coefficients of A z_k = sum_{j<k} R_jk q_j + R_kk q_k (R_jk = <q_j, q_k> summed over the passes, R_kk =
// ||q_k|| before the division), from which the cycle's end takes x += Z R^-1 alpha (solve_deferred_update):
// the multi-axpy on z_k and the update of x at every step (about k + 5 passes over a field) give way to one
// multi-axpy into x per cycle.
template <BatchedVectorField Field>
GcrDirection gcr_orthonormalise_deferred(std::vector<Field>& q, int k, const Field& r,
                                         std::vector<Complex<double>>& column) {
  return gcr_orthonormalise_batched(q, static_cast<std::vector<Field>*>(nullptr), k, r, &column);
}

// y with R y = alpha (R upper triangular, column k at R[k * m], its diagonal nonzero: each direction
// kept had ||q_k|| > 0), by back substitution.
inline std::vector<Complex<double>> solve_deferred_update(const std::vector<Complex<double>>& R, int m,
                                                          const std::vector<Complex<double>>& alpha) {
  const int k = int(alpha.size());
  std::vector<Complex<double>> y(alpha);
  for (int i = k - 1; i >= 0; --i) {
    for (int j = i + 1; j < k; ++j) y[std::size_t(i)] -= R[std::size_t(j * m + i)] * y[std::size_t(j)];
    const Complex<double> d = R[std::size_t(i * m + i)];
    y[std::size_t(i)] = y[std::size_t(i)] * conj(d) * (1.0 / norm2(d));
  }
  return y;
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
    std::vector<Complex<double>> alpha;  // the cycle's coefficients (for the recycled pair, or the deferred update)
    std::vector<Complex<double>> R;      // the deferred form's triangle (gcr_orthonormalise_deferred), m x m
  };
  std::vector<State> st(n);
  // The number of pairs right-hand side i recycles (0: none), at most its workspace's room.
  const auto recycling = [&](std::size_t i) { return std::min(c.recycle, w[i]->recycle_capacity); };
  // Batched fields without recycled pairs take the step in the deferred form (gcr_orthonormalise_deferred):
  // x is updated at the end of each cycle.
  const auto deferred = [&](std::size_t i) {
    if constexpr (BatchedVectorField<Field>) return recycling(i) == 0;
    return false;
  };
  // x += Z R^-1 alpha over the k directions of right-hand side i's cycle (the deferred form).
  const auto deferred_update = [&](std::size_t i, int k) {
    if constexpr (BatchedVectorField<Field>) {
      if (!deferred(i) || k == 0) return;
      GcrWorkspace<Field>& wi = *w[i];
      const std::vector<Complex<double>> y =
          solve_deferred_update(st[i].R, std::min(c.restart, wi.restart()), st[i].alpha);
      std::vector<const Field*> zs;
      for (int j = 0; j < k; ++j) zs.push_back(&wi.z[std::size_t(j)]);
      multi_axpy(y, zs, *x[i], 1.0);
    }
  };
  // r -= sum_j <q_j, r> q_j and x += <q_j, r> z_j over the recycled pairs; returns ||r||^2 (r2 when none).
  const auto project = [&](std::size_t i, double r2) {
    GcrWorkspace<Field>& wi = *w[i];
    if (wi.recycled == 0) return r2;  // none kept (never more than recycling(i): see the loop below)
    Field& r = wi.r.at(0);
    for (int j = 0; j < wi.recycled; ++j) {
      const Complex<double> beta = dot(wi.q[std::size_t(j)], r);
      axpy(beta, wi.z[std::size_t(j)], *x[i]);
      r2 = axpy_norm2(-beta, wi.q[std::size_t(j)], r);
    }
    return r2;
  };
  // After a cycle of k directions (slots recycled .. recycled + k - 1): their correction pair
  // u = sum alpha_j z_j, c = sum alpha_j q_j built in the first of those slots, kept as the newest
  // recycled pair (the oldest dropped when all k slots are taken), c normalised.
  const auto recycle_cycle = [&](std::size_t i, int k) {
    GcrWorkspace<Field>& wi = *w[i];
    const int kmax = recycling(i);
    if (kmax == 0 || k == 0) return;
    State& s = st[i];
    const auto f = std::size_t(wi.recycled);
    double a2 = 0;
    for (const Complex<double>& a : s.alpha) a2 += norm2(a);
    if (!(a2 > 0) || !std::isfinite(a2)) return;
    scale(s.alpha[0], wi.z[f]);
    scale(s.alpha[0], wi.q[f]);
    for (int j = 1; j < k; ++j) {
      axpy(s.alpha[std::size_t(j)], wi.z[f + std::size_t(j)], wi.z[f]);
      axpy(s.alpha[std::size_t(j)], wi.q[f + std::size_t(j)], wi.q[f]);
    }
    if (wi.recycled < kmax) {
      ++wi.recycled;
    } else {  // drop the oldest: slots 0..f rotated so that the new pair is last of the kept ones
      std::rotate(wi.z.begin(), wi.z.begin() + 1, wi.z.begin() + std::ptrdiff_t(f) + 1);
      std::rotate(wi.q.begin(), wi.q.begin() + 1, wi.q.begin() + std::ptrdiff_t(f) + 1);
    }
    const int last = wi.recycled - 1;
    gcr_orthogonalise(wi.q, wi.z, last);  // against the older pairs (rounding only: c is orthogonal to them)
    const double cn2 = norm2(wi.q[std::size_t(last)]);
    if (!(cn2 > 0) || !std::isfinite(cn2)) {
      --wi.recycled;
      return;
    }
    scale(Complex<double>(1.0 / std::sqrt(cn2)), wi.q[std::size_t(last)]);
    scale(Complex<double>(1.0 / std::sqrt(cn2)), wi.z[std::size_t(last)]);
  };
  for (std::size_t i = 0; i < n; ++i) {
    State& s = st[i];
    GcrOutcome& o = out[i];
    Field& xi = *x[i];
    GcrWorkspace<Field>& wi = *w[i];
    // Pairs kept by an earlier call that recycled more (or at all) are forgotten: new directions would be
    // orthogonalised against pairs the residual is not projected on.
    if (wi.recycled > recycling(i)) wi.clear_recycled();
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
      Field& ax = wi.q[std::size_t(wi.recycled)];  // a free slot
      apply(ax, xi);
      r.copy_from(*b[i]);
      s.r2 = axpy_norm2(Complex<double>(-1.0), ax, r);
    }
    s.target = (tolerances.empty() ? c.tolerance : tolerances[i]) * s.bn;
    s.r2 = project(i, s.r2);
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
    deferred_update(i, k);
    recycle_cycle(i, k);
    s.alpha.clear();
    if (o.breakdown && k == 0) {
      s.done = true;
      return;
    }
    const bool at_limit = o.iterations >= c.max_iterations;
    if (!(std::sqrt(s.r2) <= s.target) && at_limit && !check_true_at_end) {
      s.done = true;
      return;
    }
    Field& ax = wi.q[std::size_t(wi.recycled)];  // a free slot
    apply(ax, *x[i]);
    Field& r = wi.r.at(0);
    r.copy_from(*b[i]);
    s.r2 = project(i, axpy_norm2(Complex<double>(-1.0), ax, r));
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
  std::vector<Complex<double>> column;  // a step's coefficients in the deferred form
  std::vector<Field*> zs;
  std::vector<const Field*> rs;
  for (;;) {
    active.clear();
    zs.clear();
    rs.clear();
    for (std::size_t i = 0; i < n; ++i)
      if (!st[i].done) {
        active.push_back(i);
        zs.push_back(&w[i]->z[std::size_t(w[i]->recycled + st[i].k)]);
        rs.push_back(&w[i]->r.at(0));
      }
    if (active.empty()) break;
    precondition(zs, rs);
    for (const std::size_t i : active) {
      State& s = st[i];
      GcrOutcome& o = out[i];
      GcrWorkspace<Field>& wi = *w[i];
      const int m = std::min(c.restart, wi.restart());
      const int k = wi.recycled + s.k;  // the slot of this direction
      Field& zk = wi.z[std::size_t(k)];
      Field& qk = wi.q[std::size_t(k)];
      Field& r = wi.r.at(0);
      apply(qk, zk);
      // against the recycled pairs and the cycle's earlier directions, then normalised
      GcrDirection d;
      if constexpr (BatchedVectorField<Field>) {
        if (deferred(i))
          d = gcr_orthonormalise_deferred(wi.q, k, r, column);
        else
          d = gcr_orthonormalise(wi.q, wi.z, k, r);
      } else {
        d = gcr_orthonormalise(wi.q, wi.z, k, r);
      }
      if (!(d.norm2 > 0) || !std::isfinite(d.norm2)) {
        o.breakdown = true;
        end_cycle(i);
        continue;
      }
      const Complex<double> alpha = d.alpha;
      if (deferred(i)) {
        s.R.resize(std::size_t(m * m));
        std::copy(column.begin(), column.end(), s.R.begin() + std::ptrdiff_t(k * m));
      } else {
        axpy(alpha, zk, *x[i]);
      }
      s.r2 = axpy_norm2(-alpha, qk, r);
      if (recycling(i) > 0 || deferred(i)) s.alpha.push_back(alpha);
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
