#pragma once
// Site kernels of the transfer between two coarse multigrid levels (solvers/multigrid/coarse_transfer.hpp). The
// finer level's fields have dof_f components per site, the first half of chirality +1 and the rest -1
// (as P of the level above made them: solvers/multigrid/transfer_kernels.hpp); its test vectors are split by
// that chirality and restricted to the blocks, as on the finest level. Stored as
// V[(i * dof_f + a) * n_v + k] for finer site i (lexicographic), component a, vector k.

#include <cmath>
#include <cstdint>

#include "core/site_random.hpp"
#include "solvers/multigrid/coarse_field.hpp"
#include "solvers/multigrid/aggregation.hpp"
#include "solvers/multigrid/coarse_halo.hpp"
#include "solvers/multigrid/coarse_operator_kernels.hpp"

namespace lqcd {

template <typename Real>
struct CoarseTestVectors {
  Complex<Real>* v;
  int dof_f;  // components per finer site
  int nv;
  LQCD_HOST_DEVICE Complex<Real>& at(std::int64_t i, int a, int k) const { return v[(i * dof_f + a) * nv + k]; }
  LQCD_HOST_DEVICE int chirality(int a) const { return a < dof_f / 2 ? 0 : 1; }
};

// Vector k <- f (set = 1) or f <- vector k (set = 0); one thread per component of the finer field.
template <typename Real>
struct CoarseTestVectorCopyKernel {
  CoarseTestVectors<Real> V;
  Complex<Real>* f;
  int k, set;
  LQCD_HOST_DEVICE void operator()(std::int64_t t) const {
    if (set)
      V.v[t * V.nv + k] = f[t];
    else
      f[t] = V.v[t * V.nv + k];
  }
};

// f <- Gaussian random components keyed by (seed, component of the whole lattice, k): the same on any
// device and for any split of the lattice over processes (f: this process's part, `local`, at `offset`
// in `whole`).
template <typename Real>
struct CoarseGaussianKernel {
  Complex<Real>* f;
  std::uint64_t seed;
  int k;
  int dof;
  CoarseLattice local, whole;
  int offset[4];
  LQCD_HOST_DEVICE void operator()(std::int64_t t) const {
    const std::int64_t s = t / dof;
    int x[4];
    local.coords(s, x);
    for (int mu = 0; mu < 4; ++mu) x[mu] += offset[mu];
    const std::int64_t key = whole.lex(x) * dof + (t - s * dof);
    SiteRandom rng(seed, std::uint64_t(key), RngPurpose::MultigridSetup, 255, std::uint32_t(k));
    const double re = rng.gaussian(), im = rng.gaussian();
    f[t] = Complex<Real>(Real(re), Real(im));
  }
};

// f <- P c (add = 0) or f += P c (add = 1), and c <- P^dag f, on n right-hand sides together
// (solvers/multigrid/coarse_block_field.hpp: component a of site i of column j at (i * dof + a) * n + j;
// n = 1 for single fields): one thread per component and column, the test vectors read once per
// component for all n columns from the cache.
template <typename Real>
struct CoarseBlockProlongKernel {
  Aggregation agg;
  CoarseTestVectors<Real> V;
  const Complex<Real>* c;
  Complex<Real>* f;
  int n;
  int add;
  LQCD_HOST_DEVICE void operator()(std::int64_t t) const {
    const std::int64_t comp = t / n;
    const int j = int(t - comp * n);
    const std::int64_t i = comp / V.dof_f;
    const int a = int(comp - i * V.dof_f);
    const Complex<Real>* cz = c + (agg.coarse_of(i) * 2 * V.nv + V.chirality(a) * V.nv) * n + j;
    const Complex<Real>* v = &V.at(i, a, 0);
    Complex<Real> acc = add ? f[t] : Complex<Real>();
    for (int k = 0; k < V.nv; ++k) acc = multiply_add(v[k], cz[std::int64_t(k) * n], acc);
    f[t] = acc;
  }
};

template <typename Real>
struct CoarseBlockRestrictKernel {
  Aggregation agg;
  CoarseTestVectors<Real> V;
  const Complex<Real>* f;
  Complex<Real>* c;
  int n;
  LQCD_HOST_DEVICE void operator()(std::int64_t t) const {
    const int dof_c = 2 * V.nv, half = V.dof_f / 2;
    const std::int64_t comp = t / n;
    const int col = int(t - comp * n);
    const std::int64_t Z = comp / dof_c;
    const int row = int(comp - Z * dof_c), chi = row / V.nv, k = row % V.nv;
    Complex<Real> acc;
    for (int jb = 0; jb < agg.block_sites; ++jb) {
      const std::int64_t i = agg.fine_of(Z, jb);
      for (int a = chi * half; a < (chi + 1) * half; ++a)
        acc = conj_multiply_add(V.at(i, a, k), f[(i * V.dof_f + a) * n + col], acc);
    }
    c[t] = acc;
  }
};

// The Galerkin product A_c = P^dag A_f P of a finer coarse stencil A_f, block by block: entry
// (row, col) of A_c,d(Z) sums, over the finer sites i of block Z and their stencil directions e,
// V(i, row)^dag A_f,e(i) V(j, col) with j = neighbour_e(i), where the coupling i -> j belongs to
// direction d of Z: d = 0 when j lies in Z itself (e = 0, or a hop inside the block), else d = e
// (blocks are at least 2 wide, so a hop leaves Z through one face into the neighbour that way; a
// coarser extent of 2 keeps the two directions' blocks apart; on a split level a process may hold one
// block in a split direction, whose hops out of it cross the process boundary).
// In two steps per direction e, so that the product A_f,e(i) V(j, col), needed by every row, is made
// once (one thread per entry doing both would repeat it for each of the 2 n_v rows):
// CoarseGalerkinHopKernel writes W(i, a, col) = sum_b A_f,e(i)[a, b] V(neighbour_e(i), b, col) over the
// column's chirality half of b; CoarseGalerkinBlockSumKernel sums V(i, row)^dag W(i, col) over the block.
// A finer level split over processes (coarse_distributed, solvers/multigrid/coarse_halo.hpp; blocks never
// cross them): a hop across a process boundary reads the neighbour's test vectors from the exchanged
// faces (ghost: L.ghost_site's rows of V) and always leaves the block; L splits nothing on one process.
template <typename Real>
struct CoarseGalerkinHopKernel {
  CoarseTestVectors<Real> V;
  CoarseStencilView<Real> Af;
  Complex<Real>* W;  // [(i * dof_f + a) * dof_c + col]
  int e;
  CoarseFaceLayout L;
  const Complex<Real>* ghost;  // V's rows of L's ghost sites
  LQCD_HOST_DEVICE void operator()(std::int64_t t) const {
    const int dof_c = 2 * V.nv, half = V.dof_f / 2;
    const std::int64_t ia = t / dof_c;
    const int col = int(t - ia * dof_c), chi_c = col / V.nv, k_c = col % V.nv;
    const std::int64_t i = ia / V.dof_f;
    const int a = int(ia - i * V.dof_f);
    const std::int64_t g = L.ghost_site(i, e);
    const Complex<Real>* v = g >= 0 ? ghost + g * V.dof_f * V.nv : &V.at(Af.neighbour(i, e), 0, 0);
    Complex<Real> w;
    for (int b = chi_c * half; b < (chi_c + 1) * half; ++b)
      w = multiply_add(Af.at(e, i, a, b), v[std::int64_t(b) * V.nv + k_c], w);
    W[t] = w;
  }
};

// Direction e's share of A_c: A_c,0(Z) (inside the block) and A_c,e(Z) (through its face), one thread per
// (Z, row, col). Direction 0 runs first and sets A_c,0; the others add to it and set their own A_c,e.
template <typename Real>
struct CoarseGalerkinBlockSumKernel {
  Aggregation agg;
  CoarseTestVectors<Real> V;
  CoarseStencilView<Real> Af, Ac;
  const Complex<Real>* W;
  int e;
  CoarseFaceLayout L;
  LQCD_HOST_DEVICE void operator()(std::int64_t t) const {
    const int dof_c = Ac.dof, half = V.dof_f / 2;
    const std::int64_t Z = t / (std::int64_t(dof_c) * dof_c);
    const int col = int(t / dof_c % dof_c), row = int(t % dof_c);
    const int chi_r = row / V.nv, k_r = row % V.nv;
    Complex<Real> inside, across;
    for (int jb = 0; jb < agg.block_sites; ++jb) {
      const std::int64_t i = agg.fine_of(Z, jb);
      const bool in_block = L.ghost_site(i, e) < 0 && agg.coarse_of(Af.neighbour(i, e)) == Z;
      Complex<Real> acc;
      for (int a = chi_r * half; a < (chi_r + 1) * half; ++a)
        acc = conj_multiply_add(V.at(i, a, k_r), W[(i * V.dof_f + a) * dof_c + col], acc);
      if (in_block)
        inside += acc;
      else
        across += acc;
    }
    Complex<Real>& c0 = Ac.at(0, Z, row, col);
    c0 = e == 0 ? inside : c0 + inside;
    if (e != 0) Ac.at(e, Z, row, col) = across;
  }
};

}  // namespace lqcd
