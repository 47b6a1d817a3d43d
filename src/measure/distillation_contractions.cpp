#include "measure/distillation_contractions.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <numbers>

#include <fmt/format.h>

#include "core/dense_linear_algebra.hpp"
#include "core/dispatch.hpp"
#include "core/error.hpp"
#include "math/gamma.hpp"
#include "measure/distillation_kernels.hpp"
#include "measure/spin_matrix.hpp"

namespace lqcd {

namespace {

using C = Complex<double>;

// A spin matrix with one non-zero per row: G[r][col[r]] = weight[r].
struct SpinPermutation {
  int col[4];
  C weight[4];
};

SpinPermutation permutation_of(const SpinMatrix& g) {
  SpinPermutation p{};
  for (int r = 0; r < 4; ++r) {
    int found = 0;
    for (int c = 0; c < 4; ++c)
      if (norm2(g.m[r][c]) > 1e-24) {
        p.col[r] = c;
        p.weight[r] = g.m[r][c];
        ++found;
      }
    if (found != 1) fail("internal: distillation: a spin matrix without exactly one non-zero per row");
  }
  return p;
}

int kind_index(const std::vector<ElementalKind>& kinds, const DistillationOperator& op) {
  const auto it = std::find(kinds.begin(), kinds.end(), op.kind);
  if (it == kinds.end()) fail("distillation: operator {} has no elementals (momentum or displacement not computed)",
                              operator_name(op));
  return int(it - kinds.begin());
}

}  // namespace

std::string operator_name(const DistillationOperator& op) {
  std::string s = fmt::format("{}_p{},{},{}", gamma_name(op.gamma), op.kind.momentum[0], op.kind.momentum[1],
                              op.kind.momentum[2]);
  if (op.kind.displacement >= 0) s += fmt::format("_d{}", "xyz"[op.kind.displacement]);
  return s;
}

Elementals meson_elementals(const GaugeField<double>& links, const LaplacianEigenvectors& E,
                            const std::vector<ElementalKind>& kinds) {
  if (links.geometry().global != E.dims || links.geometry().has_halo())
    fail("meson_elementals: the links' lattice differs from the eigenvectors' (or is decomposed)");
  const Location loc = E.location();
  const int nv = E.nv, nt = E.dims[3];
  const std::int64_t n = E.rows();
  const SliceIndexer slice{{E.dims[0], E.dims[1], E.dims[2]}};
  Elementals phi;
  phi.nv = nv;
  phi.nt = nt;
  phi.kinds = kinds;
  phi.data = Buffer<C>(kinds.size() * nt * std::size_t(nv) * nv, loc);
  Buffer<C> w(std::size_t(n) * nv, loc);
  for (std::size_t e = 0; e < kinds.size(); ++e) {
    const ElementalKind& k = kinds[e];
    if (k.displacement < -1 || k.displacement > 2) fail("meson_elementals: displacement {} outside -1..2", k.displacement);
    DisplacedPhaseKernel f{links.view(), slice, 0, k.displacement, {}, nullptr, w.data()};
    for (int d = 0; d < 3; ++d) f.p[d] = 2 * std::numbers::pi * k.momentum[std::size_t(d)] / E.dims[std::size_t(d)];
    for (int t = 0; t < nt; ++t) {
      f.t = t;
      f.in = E.slice(t);
      for_each(loc, slice.volume() * nv, f);
      gemm(loc, MatrixOp::Adjoint, MatrixOp::None, nv, nv, int(n), E.slice(t), int(n), w.data(), int(n),
           phi.data.data() + (std::int64_t(e) * nt + t) * nv * nv, nv);
    }
  }
  return phi;
}

CorrelatorMatrix distillation_correlators(const Perambulator& tau, const Elementals& phi,
                                          const std::vector<DistillationOperator>& ops) {
  if (tau.nv != phi.nv || tau.nt != phi.nt) fail("distillation_correlators: perambulator and elementals differ in nv or T");
  if (ops.empty()) fail("distillation_correlators: no operators");
  const auto start = std::chrono::steady_clock::now();
  const Location loc = tau.data.location();
  const int nv = tau.nv, nt = tau.nt, nops = int(ops.size()), nk = int(phi.kinds.size());
  const std::int64_t b = tau.block(), K = 16 * b;
  CorrelatorMatrix out;
  out.t0 = tau.t0;
  out.nt = nt;
  out.ops = nops;
  // P_e(t) = Phi_e(t) tau(t) (nv x 16 nv: the 16 blocks side by side), R_e(t)[a][c] = tau(t)[a][c] Phi_e(t0).
  Buffer<C> P(std::size_t(nk) * nt * K, loc), R(std::size_t(nk) * nt * K, loc);
  for (int e = 0; e < nk; ++e) {
    GemmBatch g;
    g.m = nv;
    g.n = 16 * nv;
    g.k = nv;
    g.lda = g.ldb = g.ldc = nv;
    g.stride_a = b;
    g.stride_b = K;
    g.stride_c = K;
    g.batch = nt;
    gemm_batched(loc, g, C(1.0), phi.at(e, 0), tau.data.data(), C(0.0), P.data() + std::int64_t(e) * nt * K);
    out.gemm_flops += gemm_flops(g);
    GemmBatch h;
    h.m = h.n = h.k = nv;
    h.lda = h.ldb = h.ldc = nv;
    h.stride_a = b;
    h.stride_b = 0;
    h.stride_c = b;
    h.batch = 16 * nt;
    gemm_batched(loc, h, C(1.0), tau.data.data(), phi.at(e, tau.t0), C(0.0), R.data() + std::int64_t(e) * nt * K);
    out.gemm_flops += gemm_flops(h);
  }
  // Sink vectors A(t) (K x ops): block (alpha, beta) = g_alpha P_e[pi(alpha)][beta]. Source vectors B(t):
  // block (alpha, beta) = conj(gbar_beta s5_{pibar(beta)} s5_alpha) R_e[alpha][pibar(beta)], so that
  // Tr[A_i(alpha, beta) B_j-block(beta, alpha)] = sum_r A_r conj(B_r) (module comment).
  const SpinPermutation g5 = permutation_of(SpinMatrix::gamma(kGamma5));
  for (int r = 0; r < 4; ++r)
    if (g5.col[r] != r) fail("internal: distillation assumes a diagonal gamma_5 (DeGrand-Rossi basis)");
  const SpinMatrix gt = SpinMatrix::gamma(3);
  Buffer<C> A(std::size_t(nt) * K * nops, loc), B(std::size_t(nt) * K * nops, loc);
  for (int i = 0; i < nops; ++i) {
    const int e = kind_index(phi.kinds, ops[std::size_t(i)]);
    const SpinMatrix G = SpinMatrix::basis(ops[std::size_t(i)].gamma);
    const SpinPermutation pg = permutation_of(G), pb = permutation_of(gt * G.dagger() * gt);
    SpinBlockGatherKernel sink{P.data() + std::int64_t(e) * nt * K, A.data(), b, nops, i, {}, {}, {}};
    SpinBlockGatherKernel source{R.data() + std::int64_t(e) * nt * K, B.data(), b, nops, i, {}, {}, {}};
    for (int alpha = 0; alpha < 4; ++alpha)
      for (int beta = 0; beta < 4; ++beta) {
        const int pair = alpha * 4 + beta;
        sink.row[pair] = pg.col[alpha];
        sink.col[pair] = beta;
        sink.weight[pair] = pg.weight[alpha];
        source.row[pair] = alpha;
        source.col[pair] = pb.col[beta];
        source.weight[pair] = conj(pb.weight[beta] * g5.weight[pb.col[beta]].re * g5.weight[alpha].re);
      }
    for_each(loc, std::int64_t(nt) * K, sink);
    for_each(loc, std::int64_t(nt) * K, source);
  }
  // The trace as a GEMM: M(t) = B(t)^dag A(t), C_ij(t) = -M(t)_{ji}.
  Buffer<C> Mt(std::size_t(nt) * nops * nops, loc);
  GemmBatch g;
  g.op_a = MatrixOp::Adjoint;
  g.m = g.n = nops;
  g.k = int(K);
  g.lda = g.ldb = int(K);
  g.ldc = nops;
  g.stride_a = g.stride_b = K * nops;
  g.stride_c = std::int64_t(nops) * nops;
  g.batch = nt;
  gemm_batched(loc, g, C(1.0), B.data(), A.data(), C(0.0), Mt.data());
  out.gemm_flops += gemm_flops(g);
  std::vector<C> m(Mt.size());
  detail::copy_bytes(m.data(), Location::Host, Mt.data(), loc, m.size() * sizeof(C));
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  out.values.resize(std::size_t(nt) * nops * nops);
  for (int dt = 0; dt < nt; ++dt) {
    const int t = (tau.t0 + dt) % nt;
    for (int i = 0; i < nops; ++i)
      for (int j = 0; j < nops; ++j)
        out.values[(std::size_t(dt) * nops + i) * nops + j] = -m[(std::size_t(t) * nops + i) * nops + j];
  }
  return out;
}

}  // namespace lqcd
