// Distillation (issue 30): the dense algebra against plain loops, the Laplacian eigenvectors against
// the exact free-field spectrum and a full diagonalisation, the distilled correlators against the
// all-to-all correlators of point propagators when nv spans the whole colour space (exactness), gauge
// invariance of the correlator matrix, and the GEVP against a synthetic matrix of known energies.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numbers>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "core/dense_linear_algebra.hpp"
#include "core/site_random.hpp"
#include "dirac/dirac_operator_factory.hpp"
#include "gauge/updates.hpp"
#include "math/gamma.hpp"
#include "measure/distillation_contractions.hpp"
#include "measure/gevp.hpp"
#include "measure/laplacian_eigenvectors.hpp"
#include "measure/perambulator.hpp"
#include "measure/propagator.hpp"
#include "test_support.hpp"

namespace lqcd {
namespace {

using C = Complex<double>;
using test::error_of;

// One OpenMP thread for the duration: the distillation tests run many small kernels on tiny lattices,
// where waking a second thread costs more than it gains, and far more when ctest runs tests side by
// side on a loaded machine (the exactness test: 26 s alone, 810 s beside the others with 2 threads).
struct OneThread {
#ifdef _OPENMP
  int saved = omp_get_max_threads();
  OneThread() { omp_set_num_threads(1); }
  ~OneThread() { omp_set_num_threads(saved); }
#endif
};
using test::locations;

std::vector<C> random_matrix_entries(std::size_t count, std::uint64_t seed) {
  std::vector<C> v(count);
  for (std::size_t i = 0; i < count; ++i) {
    SiteRandom rng(seed, i, RngPurpose::Test, 0, 0);
    v[i] = C(rng.gaussian(), rng.gaussian());
  }
  return v;
}

Buffer<C> to(Location loc, const std::vector<C>& h) {
  Buffer<C> b(h.size(), loc);
  detail::copy_bytes(b.data(), loc, h.data(), Location::Host, h.size() * sizeof(C));
  return b;
}
std::vector<C> to_host(const Buffer<C>& b) {
  std::vector<C> h(b.size());
  detail::copy_bytes(h.data(), Location::Host, b.data(), b.location(), b.bytes());
  return h;
}

C op_element(const std::vector<C>& X, int ld, MatrixOp op, int r, int c) {
  if (op == MatrixOp::None) return X[std::size_t(r) + std::size_t(c) * ld];
  const C x = X[std::size_t(c) + std::size_t(r) * ld];
  return op == MatrixOp::Transpose ? x : conj(x);
}

TEST(DenseLinearAlgebra, BatchedProductsMatchPlainLoops) {
  for (Location loc : locations())
    for (MatrixOp oa : {MatrixOp::None, MatrixOp::Transpose, MatrixOp::Adjoint})
      for (MatrixOp ob : {MatrixOp::None, MatrixOp::Adjoint}) {
        GemmBatch g;
        g.op_a = oa;
        g.op_b = ob;
        g.m = 5;
        g.n = 3;
        g.k = 7;
        g.lda = (oa == MatrixOp::None ? g.m : g.k) + 1;
        g.ldb = (ob == MatrixOp::None ? g.k : g.n) + 2;
        g.ldc = g.m + 1;
        g.batch = 3;
        g.stride_a = std::int64_t(g.lda) * 8;
        g.stride_b = std::int64_t(g.ldb) * 8;
        g.stride_c = std::int64_t(g.ldc) * 4;
        const auto A = random_matrix_entries(std::size_t(g.stride_a) * 3, 1), B = random_matrix_entries(std::size_t(g.stride_b) * 3, 2),
                   C0 = random_matrix_entries(std::size_t(g.stride_c) * 3, 3);
        Buffer<C> a = to(loc, A), b = to(loc, B), c = to(loc, C0);
        const C alpha(0.5, -1.5), beta(2.0, 0.25);
        gemm_batched(loc, g, alpha, a.data(), b.data(), beta, c.data());
        const std::vector<C> got = to_host(c);
        for (int q = 0; q < g.batch; ++q)
          for (int i = 0; i < g.m; ++i)
            for (int j = 0; j < g.n; ++j) {
              std::vector<C> Aq(A.begin() + q * g.stride_a, A.end()), Bq(B.begin() + q * g.stride_b, B.end());
              C s(0.0);
              for (int l = 0; l < g.k; ++l) s += op_element(Aq, g.lda, oa, i, l) * op_element(Bq, g.ldb, ob, l, j);
              const std::size_t at = std::size_t(q * g.stride_c + i + j * g.ldc);
              const C want = alpha * s + beta * C0[at];
              EXPECT_NEAR(got[at].re, want.re, 1e-12);
              EXPECT_NEAR(got[at].im, want.im, 1e-12);
            }
      }
}

TEST(DenseLinearAlgebra, HermitianEigensystemDiagonalises) {
  const int n = 23;
  for (Location loc : locations()) {
    std::vector<C> h = random_matrix_entries(std::size_t(n) * n, 4);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j <= i; ++j) {
        const C m = 0.5 * (h[std::size_t(i + j * n)] + conj(h[std::size_t(j + i * n)]));
        h[std::size_t(i + j * n)] = m;
        h[std::size_t(j + i * n)] = conj(m);
      }
    for (int i = 0; i < n; ++i) h[std::size_t(i + i * n)] = C(h[std::size_t(i + i * n)].re);
    Buffer<C> q = to(loc, h);
    const std::vector<double> w = hermitian_eigensystem(loc, n, q.data(), n);
    const std::vector<C> Q = to_host(q);
    for (int k = 0; k + 1 < n; ++k) EXPECT_LE(w[std::size_t(k)], w[std::size_t(k) + 1]);
    for (int k = 0; k < n; ++k)
      for (int i = 0; i < n; ++i) {
        C hq(0.0);
        for (int l = 0; l < n; ++l) hq += h[std::size_t(i + l * n)] * Q[std::size_t(l + k * n)];
        EXPECT_NEAR(abs(hq - w[std::size_t(k)] * Q[std::size_t(i + k * n)]), 0.0, 1e-12);
        C overlap(0.0);  // Q^dag Q = 1
        for (int l = 0; l < n; ++l) overlap += conj(Q[std::size_t(l + k * n)]) * Q[std::size_t(l + i * n)];
        EXPECT_NEAR(abs(overlap - C(i == k ? 1.0 : 0.0)), 0.0, 1e-12);
      }
  }
}

TEST(Gevp, ReturnsTheEnergiesOfASyntheticCorrelatorMatrix) {
  // C_ij(t) = sum_n Z_in conj(Z_jn) e^{-E_n t} with as many operators as states: lambda_n(t, t0) =
  // e^{-E_n (t - t0)} exactly, so every effective energy is E_n.
  const int n = 3, nt = 12;
  const double E[n] = {0.31, 0.72, 1.15};
  const std::vector<C> Z = random_matrix_entries(n * n, 5);
  std::vector<std::vector<C>> values(nt, std::vector<C>(n * n));
  for (int t = 0; t < nt; ++t)
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) {
        C s(0.0);
        for (int k = 0; k < n; ++k) s += Z[std::size_t(i * n + k)] * conj(Z[std::size_t(j * n + k)]) * std::exp(-E[k] * t);
        values[std::size_t(t)][std::size_t(i * n + j)] = s;
      }
  for (int t0 : {1, 3}) {
    const GevpResult r = solve_gevp(values, n, t0);
    for (int t = 0; t + 1 < nt; ++t)
      for (int k = 0; k < n; ++k) EXPECT_NEAR(r.effective_energy[std::size_t(t)][std::size_t(k)], E[k], 1e-9) << t;
    for (int k = 0; k < n; ++k) EXPECT_NEAR(r.lambda[std::size_t(t0)][std::size_t(k)], 1.0, 1e-12);
  }
  EXPECT_NE(error_of([&] { solve_gevp(values, n, nt); }).find("t0"), std::string::npos);
}

// The dense matrix of -Laplacian on slice t (n x n, column-major), from its action on unit vectors.
std::vector<C> dense_laplacian(const GaugeField<double>& U, int t) {
  const Dims d = U.geometry().global;
  const int n = 3 * d[0] * d[1] * d[2];
  std::vector<C> id(std::size_t(n) * n, C(0.0));
  for (int i = 0; i < n; ++i) id[std::size_t(i) * n + i] = C(1.0);
  Buffer<C> in = to(U.location(), id), out(id.size(), U.location());
  apply_negative_laplacian(U, t, n, in.data(), out.data());
  return to_host(out);
}

TEST(LaplacianEigenvectors, FreeFieldSpectrumAndFullDiagonalisation) {
  const Dims dims{4, 4, 4, 4};
  const Geometry geom = Geometry::single_process(dims);
  for (Location loc : locations()) {
    GaugeField<double> U(geom, loc);
    set_unit_gauge(U);
    // Free field: eigenvalues 2 sum_k (1 - cos(2 pi n_k / 4)), 3 colours each: 0 (x3), 2 (x18).
    LaplacianEigenParams p;
    p.nv = 21;
    LaplacianEigenvectors E = laplacian_eigenvectors(U, p);
    for (int t = 0; t < dims[3]; ++t)
      for (int v = 0; v < p.nv; ++v)
        EXPECT_NEAR(E.eigenvalues[std::size_t(t * p.nv + v)], v < 3 ? 0.0 : 2.0, 1e-10);
    // A hot field: the residual recomputed independently, orthonormality, and the eigenvalues of the
    // full dense matrix.
    set_hot_gauge(U, 7);
    p.nv = 24;
    E = laplacian_eigenvectors(U, p);
    const int n = int(E.rows());
    const std::vector<C> all_vectors = to_host(E.vectors);
    for (int t : {0, 3}) {
      const std::vector<C> V(all_vectors.begin() + std::int64_t(t) * p.nv * n,
                             all_vectors.begin() + std::int64_t(t + 1) * p.nv * n);
      Buffer<C> lv(V.size(), loc);
      apply_negative_laplacian(U, t, p.nv, E.slice(t), lv.data());
      const std::vector<C> LV = to_host(lv);
      for (int v = 0; v < p.nv; ++v) {
        double r = 0;
        for (int i = 0; i < n; ++i)
          r += norm2(LV[std::size_t(v * n + i)] - E.eigenvalues[std::size_t(t * p.nv + v)] * V[std::size_t(v * n + i)]);
        EXPECT_LT(std::sqrt(r), 1e-10);
        for (int w = 0; w < p.nv; ++w) {
          C o(0.0);
          for (int i = 0; i < n; ++i) o += conj(V[std::size_t(v * n + i)]) * V[std::size_t(w * n + i)];
          EXPECT_NEAR(abs(o - C(v == w ? 1.0 : 0.0)), 0.0, 1e-12);
        }
      }
      std::vector<C> L = dense_laplacian(U, t);
      const std::vector<double> all = hermitian_eigensystem(Location::Host, n, L.data(), n);
      for (int v = 0; v < p.nv; ++v) EXPECT_NEAR(E.eigenvalues[std::size_t(t * p.nv + v)], all[std::size_t(v)], 1e-10);
    }
  }
}

FermionParams wilson(double kappa) {
  FermionParams f;
  f.wilson.kappa = kappa;
  return f;
}

std::vector<DistillationOperator> operators(const std::vector<ElementalKind>& kinds, const std::vector<int>& gammas) {
  std::vector<DistillationOperator> ops;
  for (const ElementalKind& k : kinds)
    for (int g : gammas) ops.push_back(DistillationOperator{g, k});
  return ops;
}

CorrelatorMatrix distil(const GaugeField<double>& U, int nv, int t0, const std::vector<ElementalKind>& kinds,
                        const std::vector<DistillationOperator>& ops, double kappa) {
  LaplacianEigenParams p;
  p.nv = nv;
  const LaplacianEigenvectors E = laplacian_eigenvectors(U, p);
  // The 12-at-a-time multi-RHS CG: each link loaded once for 12 solves.
  const DiracOperators D = make_dirac_operators(U, wilson(kappa), SloppyPrecision::None, 12);
  PropagatorOptions o;
  o.solver.tolerance = 1e-12;
  o.multi_rhs = true;
  const Perambulator tau = perambulator(D, true, E, t0, o);
  const Elementals phi = meson_elementals(U, E, kinds);
  return distillation_correlators(tau, phi, ops);
}

// nv = 3 L^3: V V^dag = 1 on every slice, so the distilled correlators are the all-to-all correlators of
// the local operators: the sum over every source point y on slice t0 of the point-to-all correlators of
// measure/meson_correlator (Gamma at the sink, Gamma' at the source, e^{-ip.(x - y)}).
TEST(Distillation, FullSpaceEqualsAllToAllFromPointPropagators) {
  const OneThread one_thread;
  // 4 x 2 x 2 x 8: nv = 48 and 16 point sources (4^3 took 64 sources and 100 s of the CPU suite); the
  // identity holds on any volume, and L_x = 4 keeps the phases of p = (1, 0, 0) complex, so that their
  // sign is tested.
  const Dims dims{4, 2, 2, 8};
  const Geometry geom = Geometry::single_process(dims);
  const Location loc = Location::Host;
  GaugeField<double> U(geom, loc);
  set_hot_gauge(U, 11);
  const double kappa = 0.11;
  const int t0 = 2;
  const std::vector<ElementalKind> kinds = {{{0, 0, 0}, -1}, {{1, 0, 0}, -1}};
  const int g5 = 15, gx = 1;  // SpinMatrix::basis: gamma_5 and gamma_x
  ASSERT_EQ(gamma_name(g5), "g5");
  ASSERT_EQ(gamma_name(gx), "gx");
  const std::vector<DistillationOperator> ops = operators(kinds, {g5, gx});
  const CorrelatorMatrix Cd = distil(U, 3 * dims[0] * dims[1] * dims[2], t0, kinds, ops, kappa);
  // All-to-all from one point source per site of slice t0. O_i(x) carries e^{-ip_i.x} at the sink and O_j(y)^dag e^{+ip_j.y} at
  // the source (docs/conventions.md), so the source y's point-to-all correlator at the sink momentum
  // p_i (e^{-ip_i.(x - y)}) enters with the weight e^{-i(p_i - p_j).y}: the entries with p_i != p_j are
  // the ones that test the source elementals' phases.
  const DiracOperators D = make_dirac_operators(U, wilson(kappa), SloppyPrecision::None, 12);
  PropagatorOptions o;
  o.solver.tolerance = 1e-12;
  o.multi_rhs = true;
  const int nops = int(ops.size());
  std::vector<C> all(std::size_t(dims[3]) * nops * nops, C(0.0));
  for (int z = 0; z < dims[2]; ++z)
    for (int y = 0; y < dims[1]; ++y)
      for (int x = 0; x < dims[0]; ++x) {
        const PointPropagator S = compute_propagator(D, true, SourceSpec{SourceType::Point, {x, y, z, t0}, 1}, o);
        const int yv[3] = {x, y, z};
        for (int i = 0; i < nops; ++i)
          for (int j = 0; j < nops; ++j) {
            const auto& pi = ops[std::size_t(i)].kind.momentum;
            const auto& pj = ops[std::size_t(j)].kind.momentum;
            double phase = 0;
            for (int d = 0; d < 3; ++d) phase -= 2 * M_PI * (pi[std::size_t(d)] - pj[std::size_t(d)]) * yv[d] / dims[d];
            const auto c = meson_correlator(S, SpinMatrix::basis(ops[std::size_t(i)].gamma),
                                            SpinMatrix::basis(ops[std::size_t(j)].gamma), {pi});
            for (int t = 0; t < dims[3]; ++t)
              all[(std::size_t(t) * nops + i) * nops + j] += C(std::cos(phase), std::sin(phase)) * c[0][std::size_t(t)];
          }
      }
  double largest = 0;
  for (const C& c : all) largest = std::max(largest, abs(c));
  ASSERT_GT(largest, 0);
  double mixed = 0;  // the largest entry with p_i != p_j: not zero on one configuration
  for (int t = 0; t < dims[3]; ++t)
    for (int i = 0; i < nops; ++i)
      for (int j = 0; j < nops; ++j) {
        const C want = all[(std::size_t(t) * nops + i) * nops + j];
        if (ops[std::size_t(i)].kind.momentum != ops[std::size_t(j)].kind.momentum) mixed = std::max(mixed, abs(want));
        EXPECT_NEAR(abs(Cd.at(t, i, j) - want), 0.0, 1e-10 * largest)
            << "t " << t << " " << operator_name(ops[std::size_t(i)]) << " x " << operator_name(ops[std::size_t(j)]);
      }
  EXPECT_GT(mixed, 1e-6 * largest) << "the p_i != p_j entries vanish: they would test nothing";
  // The pion is positive and the p = 0 pion falls with t towards the middle of the lattice.
  for (int t = 0; t < dims[3]; ++t) EXPECT_GT(Cd.at(t, 0, 0).re, 0.0);
  EXPECT_GT(Cd.at(0, 0, 0).re, Cd.at(2, 0, 0).re);
}

// nv = 10: the multi-RHS blocks of 12 are padded with zero sources. Under a gauge transformation the
// eigenvectors turn into g v (up to a phase each), the elementals and
// perambulators into diagonal phase rotations of themselves, and every correlator is unchanged. On the
// GPU machine the device's matrix also equals the host's (cuBLAS, cuSOLVER and the device kernels
// against the host loops).
TEST(Distillation, CorrelatorMatrixIsGaugeInvariant) {
  const OneThread one_thread;
  const Dims dims{4, 4, 4, 8};
  const Geometry geom = Geometry::single_process(dims);
  std::vector<C> host;
  for (Location loc : locations()) {
    GaugeField<double> U(geom, loc);
    set_hot_gauge(U, 13);
    const std::vector<ElementalKind> kinds = {{{0, 0, 0}, -1}, {{0, 1, 0}, -1}, {{0, 0, 0}, 2}, {{1, 0, 0}, 0}};
    const std::vector<DistillationOperator> ops = operators(kinds, {15, 1, 3, 0});
    const CorrelatorMatrix a = distil(U, 10, 5, kinds, ops, 0.11);
    random_gauge_transformation(U, 99);
    const CorrelatorMatrix b = distil(U, 10, 5, kinds, ops, 0.11);
    double largest = 0;
    for (const C& c : a.values) largest = std::max(largest, abs(c));
    ASSERT_GT(largest, 0);
    for (std::size_t k = 0; k < a.values.size(); ++k) EXPECT_NEAR(abs(a.values[k] - b.values[k]), 0.0, 1e-10 * largest) << k;
    if (loc == Location::Host) {
      host = a.values;
    } else {
      for (std::size_t k = 0; k < a.values.size(); ++k) EXPECT_NEAR(abs(a.values[k] - host[k]), 0.0, 1e-10 * largest) << k;
    }
  }
}

// The perambulator through the multigrid (one setup for all 4 nv solves, kept in the options' cache)
// equals the one through CG on the even-odd system, to the solver tolerance; the setup happens once.
TEST(Distillation, PerambulatorThroughTheMultigrid) {
  const OneThread one_thread;
  const Dims dims{4, 4, 4, 8};
  const Geometry geom = Geometry::single_process(dims);
  GaugeField<double> U(geom, Location::Host);
  set_hot_gauge(U, 17);
  LaplacianEigenParams p;
  p.nv = 6;
  const LaplacianEigenvectors E = laplacian_eigenvectors(U, p);
  const DiracOperators D = make_dirac_operators(U, wilson(0.11));
  PropagatorOptions cg;
  cg.solver.tolerance = 1e-11;
  const Perambulator a = perambulator(D, true, E, 3, cg);
  PropagatorOptions mg = cg;
  mg.solver.type = SolverType::Multigrid;
  mg.multigrid.block = {2, 2, 2, 2};
  mg.multigrid.test_vectors = 8;
  mg.multigrid.setup_iterations = 10;
  mg.multigrid.adaptive_cycles = 0;
  int setups = 0;
  mg.on_multigrid_setup = [&](const MultigridPreconditionerInfo&) { ++setups; };
  const Perambulator b = perambulator(D, false, E, 3, mg);
  EXPECT_EQ(setups, 1);
  EXPECT_EQ(b.solves, 4 * p.nv);
  std::vector<C> x(a.data.size()), y(b.data.size());
  detail::copy_bytes(x.data(), Location::Host, a.data.data(), Location::Host, a.data.bytes());
  detail::copy_bytes(y.data(), Location::Host, b.data.data(), Location::Host, b.data.bytes());
  double largest = 0, diff = 0;
  for (std::size_t k = 0; k < x.size(); ++k) {
    largest = std::max(largest, abs(x[k]));
    diff = std::max(diff, abs(x[k] - y[k]));
  }
  ASSERT_GT(largest, 0);
  EXPECT_LT(diff, 1e-8 * largest);
}

}  // namespace
}  // namespace lqcd
