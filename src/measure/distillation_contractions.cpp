#include "measure/distillation_contractions.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <numbers>
#include <span>

#include <fmt/format.h>

#include "core/dense_linear_algebra.hpp"
#include "core/dispatch.hpp"
#include "comm/communicator.hpp"
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
  const Geometry& g = links.geometry();
  if (g.global != E.dims || g.offset[3] != E.t_begin || g.local[3] != E.local_nt)
    fail("meson_elementals: the links' lattice (or this process's slices of it) differs from the eigenvectors'");
  check_whole_time_slices(g, "meson_elementals");
  if (links.location() != E.location()) fail("internal: meson_elementals: links and eigenvectors in different places");
  const Location loc = E.location();
  const int nv = E.nv, nt = E.local_nt;
  const std::int64_t n = E.rows();
  const SliceIndexer slice{{E.dims[0], E.dims[1], E.dims[2]}};
  Elementals phi;
  phi.nv = nv;
  phi.nt = E.dims[3];
  phi.t_begin = E.t_begin;
  phi.local_nt = nt;
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
  if (tau.nv != phi.nv || tau.nt != phi.nt || tau.t_begin != phi.t_begin || tau.local_nt != phi.local_nt)
    fail("distillation_correlators: perambulator and elementals differ in nv, T or the slices held");
  if (ops.empty()) fail("distillation_correlators: no operators");
  if (tau.data.location() != phi.data.location())
    fail("internal: distillation_correlators: perambulator and elementals in different places");
  const auto start = std::chrono::steady_clock::now();
  const Location loc = tau.data.location();
  const int nv = tau.nv, nt = tau.local_nt, nops = int(ops.size()), nk = int(phi.kinds.size());
  const std::int64_t b = tau.block(), K = 16 * b;
  const bool split = process_count(tau.grid) > 1;
  CorrelatorMatrix out;
  out.t0 = tau.t0;
  out.nt = tau.nt;
  out.ops = nops;
  // The source time's elementals Phi_e(t0), side by side (nv x nk nv): copied from here, or (time-split
  // lattice) from the process that holds t0, as a sum over the processes of the one non-zero contribution.
  const int t0_here = tau.t0 - tau.t_begin;
  const bool have_t0 = t0_here >= 0 && t0_here < nt;
  if (!split && !have_t0) fail("internal: distillation_correlators: the source time {} is not among the slices", tau.t0);
  Buffer<C> source_phi(std::size_t(nk) * b, loc);
  if (split) {
    std::vector<C> h(source_phi.size(), C(0.0));
    if (have_t0)
      for (int e = 0; e < nk; ++e)
        detail::copy_bytes(h.data() + std::int64_t(e) * b, Location::Host, phi.at(e, t0_here), loc, b * sizeof(C));
    comm::sum(tau.grid, std::span<double>(reinterpret_cast<double*>(h.data()), 2 * h.size()));
    detail::copy_bytes(source_phi.data(), loc, h.data(), Location::Host, source_phi.bytes());
  } else {
    for (int e = 0; e < nk; ++e)
      detail::copy_bytes(source_phi.data() + std::int64_t(e) * b, loc, phi.at(e, t0_here), loc, b * sizeof(C));
  }
  // P_e(t) = Phi_e(t) tau(t) (nv x 16 nv: the 16 blocks side by side), stored [t][e][16 blocks]: one
  // GEMM per kind over all t. R_e(t)[a][c] = tau(t)[a][c] Phi_e(t0) for every kind at once, tau's block
  // times the elementals side by side, stored [t][16 blocks][e]: one GEMM over all 16 T blocks. Either
  // way the 16 nk blocks of one t are the nv^2 x 16 nk columns of one matrix.
  const std::int64_t per_t = std::int64_t(nk) * K;
  Buffer<C> P(std::size_t(nt) * per_t, loc), R(std::size_t(nt) * per_t, loc);
  for (int e = 0; e < nk; ++e) {
    GemmBatch g;
    g.m = nv;
    g.n = 16 * nv;
    g.k = nv;
    g.lda = g.ldb = g.ldc = nv;
    g.stride_a = b;
    g.stride_b = K;
    g.stride_c = per_t;
    g.batch = nt;
    gemm_batched(loc, g, C(1.0), phi.at(e, 0), tau.data.data(), C(0.0), P.data() + std::int64_t(e) * K);
    out.gemm_flops += gemm_flops(g);
  }
  {
    GemmBatch h;
    h.m = h.k = nv;
    h.n = nk * nv;
    h.lda = h.ldb = h.ldc = nv;
    h.stride_a = b;
    h.stride_b = 0;
    h.stride_c = std::int64_t(nk) * b;
    h.batch = 16 * nt;
    gemm_batched(loc, h, C(1.0), tau.data.data(), source_phi.data(), C(0.0), R.data());
    out.gemm_flops += gemm_flops(h);
  }
  // Every block pair's trace at once, the trace folded into one GEMM per t: G(t) = R(t)^dag P(t) with the
  // blocks as columns of length nv^2, G(t)[(c, e'), (e, a)] = Tr[P_e[a] R_e'[c]^dag] (row c nk + e',
  // column 16 e + a; 16 nk x 16 nk).
  const int m = 16 * nk;
  Buffer<C> G(std::size_t(nt) * m * m, loc);
  {
    GemmBatch g;
    g.op_a = MatrixOp::Adjoint;
    g.m = g.n = m;
    g.k = int(b);
    g.lda = g.ldb = int(b);
    g.ldc = m;
    g.stride_a = g.stride_b = per_t;
    g.stride_c = std::int64_t(m) * m;
    g.batch = nt;
    gemm_batched(loc, g, C(1.0), R.data(), P.data(), C(0.0), G.data());
    out.gemm_flops += gemm_flops(g);
  }
  // The spin algebra on the traces (module comment): with Gamma_i[alpha][pi(alpha)] = g_alpha and
  // Gbar_j[beta][pibar(beta)] = gbar_beta,
  //   C_ij(t) = - sum_{alpha, beta} g_alpha gbar_beta s5_{pibar(beta)} s5_alpha
  //             Tr[P_{e_i}[pi(alpha)][beta] R_{e_j}[alpha][pibar(beta)]^dag].
  const SpinPermutation g5 = permutation_of(SpinMatrix::gamma(kGamma5));
  for (int r = 0; r < 4; ++r)
    if (g5.col[r] != r) fail("internal: distillation assumes a diagonal gamma_5 (DeGrand-Rossi basis)");
  const SpinMatrix gt = SpinMatrix::gamma(3);
  std::vector<OperatorSpin> spins(static_cast<std::size_t>(nops));
  for (int i = 0; i < nops; ++i) {
    OperatorSpin& o = spins[std::size_t(i)];
    o.kind = kind_index(phi.kinds, ops[std::size_t(i)]);
    const SpinMatrix Gm = SpinMatrix::basis(ops[std::size_t(i)].gamma);
    const SpinPermutation sink = permutation_of(Gm), source = permutation_of(gt * Gm.dagger() * gt);
    for (int r = 0; r < 4; ++r) {
      o.sink_col[r] = sink.col[r];
      o.sink_weight[r] = sink.weight[r] * g5.weight[r].re;  // s5_alpha
      o.source_col[r] = source.col[r];
      o.source_weight[r] = source.weight[r] * g5.weight[source.col[r]].re;  // s5_{pibar(beta)}
    }
  }
  Buffer<OperatorSpin> spin(spins.size(), loc);
  detail::copy_bytes(spin.data(), loc, spins.data(), Location::Host, spin.bytes());
  const int T = tau.nt;
  Buffer<C> values(std::size_t(T) * nops * nops, loc);
  for_each(loc, std::int64_t(T) * nops * nops,
           SpinTraceKernel{G.data(), spin.data(), values.data(), nops, nk, T, tau.t0, tau.t_begin, nt, m});
  out.values.resize(values.size());
  detail::copy_bytes(out.values.data(), Location::Host, values.data(), loc, values.bytes());
  // Each process has the sink times it holds (zero elsewhere).
  if (split) comm::sum(tau.grid, std::span<double>(reinterpret_cast<double*>(out.values.data()), 2 * out.values.size()));
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}

}  // namespace lqcd
