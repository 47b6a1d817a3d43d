#pragma once
// Meson elementals and correlator matrices of distillation (M. Peardon et al., Phys. Rev. D 80 (2009)
// 054506), contracted as batched matrix products so that the GPU's GEMM units do them.
//
// An operator O_i = (Gamma_i, p_i, D_i) is dbar~ Gamma_i D_i e^{-i p.x} u~ summed over a time slice with
// distilled quarks q~ = V V^dag q. Its elemental on slice t is the nv x nv colour matrix
//   Phi_i(t)_{ab} = sum_x v_a(x, t)^dag e^{-i p.x} (D v_b)(x, t),
// D = 1 or the symmetric covariant derivative along k (distillation_kernels.hpp), and the correlator
// of O_i at t with O_j^dag at t0 (Wick contraction, gamma_5-hermiticity tau(t0, t) = g5 tau(t, t0)^dag g5):
//   C_ij(t) = - Tr[ (Gamma_i x Phi_i(t)) tau(t, t0) (Gbar_j x Phi_j(t0)^dag) tau(t0, t) ],
// Gbar = gamma_t Gamma^dag gamma_t: the convention of measure/meson_correlator.hpp (the pion
// correlator is positive), with momenta in units of 2 pi / L. With nv = 3 Lx Ly Lz (V V^dag = 1) it is
// the all-to-all correlator of the local operators.
//
// How it is computed: Gamma has one non-zero per row, so the spin algebra only permutes and weights
// nv x nv blocks. Per elemental kind e = (p, D): P_e(t) = Phi_e(t) tau(t, t0) (a strided batched GEMM
// per kind) and R_e(t) = tau(t, t0) Phi_e(t0) blockwise (one batched GEMM for all kinds); the traces of
// every pair of blocks over colour and distillation indices, Tr[P_e[a][b] R_e'[c][d]^dag], are one GEMM
// per t, batched over t (the 16 nk blocks of P(t) and R(t) as columns of length nv^2: G(t) = R(t)^dag
// P(t)); and each operator pair sums 16 of those traces
// with its gammas' permutations and phases. Leaving the gammas to the end makes the GEMMs 16 times
// smaller than a trace GEMM over operators (sink and source vectors of length 16 nv^2 per operator)
// would be, and nothing of size 16 nv^2 x operators is ever written.

#include <array>
#include <string>
#include <vector>

#include "measure/laplacian_eigenvectors.hpp"
#include "measure/perambulator.hpp"

namespace lqcd {

struct ElementalKind {
  std::array<int, 3> momentum{};  // units of 2 pi / L
  int displacement = -1;          // -1: none, 0..2: derivative along x, y, z
  bool operator==(const ElementalKind&) const = default;
};

struct DistillationOperator {
  int gamma = 0;  // SpinMatrix::basis index (spin_matrix.hpp)
  ElementalKind kind;
};

// e.g. "g5_p0,0,0", "gx_p0,0,1_dz"
std::string operator_name(const DistillationOperator& op);

// On the slices the eigenvectors' process holds (t_begin .. t_begin + local_nt - 1 of T; t local below).
struct Elementals {
  int nv = 0, nt = 0;  // nt: T, the global time extent
  int t_begin = 0, local_nt = 0;
  std::vector<ElementalKind> kinds;
  Buffer<Complex<double>> data;  // [kind][local t] column-major nv x nv, where the eigenvectors live
  const Complex<double>* at(int kind, int t) const {
    return data.data() + (std::int64_t(kind) * local_nt + t) * std::int64_t(nv) * nv;
  }
};

// links: the (smeared) links of the Laplacian, where E lives.
Elementals meson_elementals(const GaugeField<double>& links, const LaplacianEigenvectors& E,
                            const std::vector<ElementalKind>& kinds);

struct CorrelatorMatrix {
  int t0 = 0, nt = 0, ops = 0;
  std::vector<Complex<double>> values;  // [dt][i][j], t = (t0 + dt) mod T
  double gemm_flops = 0;                // of the contraction's matrix products
  double seconds = 0;                   // the whole contraction (products and gathers)
  const Complex<double>& at(int dt, int i, int j) const {
    return values[(std::size_t(dt) * ops + std::size_t(i)) * ops + std::size_t(j)];
  }
};

// Every operator's kind must be among phi's kinds. Throws lqcd::Error naming the operator otherwise.
// On a time-split lattice (tau and phi hold the same local slices, tau.grid the process grid) every
// process contracts its own sink times, and the matrix is summed over the processes: all of them
// return the whole matrix. The elementals of the source time come from the process that holds it.
CorrelatorMatrix distillation_correlators(const Perambulator& tau, const Elementals& phi,
                                          const std::vector<DistillationOperator>& ops);

}  // namespace lqcd
