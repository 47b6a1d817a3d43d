// One colour of a Schwarz sweep for many sources, the block's operator in shared memory
// (solvers/multigrid/schwarz_colour_sweep.hpp).
#include <cuda_runtime.h>

#include "core/exec_cuda.cuh"
#include "solvers/multigrid/coarse_schur_kernels.hpp"
#include "solvers/multigrid/schwarz_block_sums.cuh"
#include "solvers/multigrid/schwarz_colour_sweep.hpp"

namespace lqcd {
namespace {

constexpr int kMaxBlockSites = 256;

// The shared memory of a thread block, in units of Complex<T>, `sites` = S sites a block:
//   links  [(mu 9 + c) S + j]   U_mu(x_j), component c (row-major), the block's own sites only: a hop of
//                               D_B never leaves the block, so x_j - mu's link is x_{j - stride_mu}'s;
//   clover [k S + j]            the 36 components of H_0 and H_1 (CloverView's order; where D has a clover
//                               term), so that a CloverView with stride S reads them;
//   spinor [(slot 12 + k) S + j] each slot's block residual s (first e on the block, while r - D e is formed);
// then the block sums' scratch (3 doubles a warp).
template <typename T>
struct SweepShared {
  Complex<T>* links;
  Complex<T>* clover;
  Complex<T>* spinor;
  double* scratch;
  int S;
  static std::size_t bytes(int sites, int slots, bool clover) {
    const int warps = slots * ((sites + 31) / 32);
    return sizeof(Complex<T>) * std::size_t(sites) * std::size_t(36 + (clover ? 36 : 0) + 12 * slots) +
           sizeof(double) * 3 * std::size_t(warps);
  }
  __device__ SweepShared(unsigned char* storage, int sites, int slots, bool has_clover) : S(sites) {
    links = reinterpret_cast<Complex<T>*>(storage);
    clover = links + 36 * S;
    spinor = clover + (has_clover ? 36 * S : 0);
    scratch = reinterpret_cast<double*>(spinor + 12 * slots * S);
  }
  __device__ SU3<T> link(int mu, int j) const {
    SU3<T> u;
#pragma unroll
    for (int c = 0; c < 9; ++c) u.m[c / 3][c % 3] = links[(mu * 9 + c) * S + j];
    return u;
  }
  __device__ ColorSpinor<T> load(int slot, int j) const {
    ColorSpinor<T> v;
#pragma unroll
    for (int k = 0; k < 12; ++k) v.s[k / 3].c[k % 3] = spinor[(slot * 12 + k) * S + j];
    return v;
  }
  __device__ void store(int slot, int j, const ColorSpinor<T>& v) const {
#pragma unroll
    for (int k = 0; k < 12; ++k) spinor[(slot * 12 + k) * S + j] = v.s[k / 3].c[k % 3];
  }
};

// No hops out of the block: D_B, the block's own operator (the minimal-residual steps).
struct NoOutsideHops {
  template <typename T>
  __device__ void forward(ColorSpinor<T>&, int, const SU3<T>&, T) const {}
  template <typename T>
  __device__ void backward(ColorSpinor<T>&, int, T) const {}
};

// D's hops from site (p, cb) at xc into the neighbouring blocks, as wilson_hop makes them: the neighbour's
// spinor of e (and for a backward hop its link) from memory, the fermion boundary phase where the hop
// crosses the lattice's edge. One process's lattice (periodic inside the box: SchwarzSmoother takes the
// kernel only where the geometry is not distributed).
template <typename Real>
struct OutsideHops {
  using T = compute_t<Real>;
  const SpinorView<Real>& e;
  const WilsonSiteOperator<Real>& D;
  int p;
  const int* xc;
  __device__ std::int64_t neighbour(int mu, int step) const {
    const SiteIndexer& idx = D.U.idx;
    int y[4] = {xc[0], xc[1], xc[2], xc[3]};
    y[mu] = (y[mu] + step + idx.n[mu]) % idx.n[mu];
    return idx.cb_index(y);
  }
  __device__ void forward(ColorSpinor<T>& acc, int mu, const SU3<T>& u, T alpha) const {
    HalfSpinor<T> h = color_multiply(u, spin_project_half(mu, 1, e.load(1 - p, neighbour(mu, 1))));
    const SiteIndexer& idx = D.U.idx;
    if (xc[mu] + idx.off[mu] == idx.gn[mu] - 1) h = Complex<T>(D.boundary.phase[mu]) * h;
    add_reconstructed(acc, mu, 1, h, alpha);
  }
  __device__ void backward(ColorSpinor<T>& acc, int mu, T alpha) const {
    const std::int64_t nb = neighbour(mu, -1);
    HalfSpinor<T> h = color_adj_multiply(D.U.load(mu, 1 - p, nb), spin_project_half(mu, -1, e.load(1 - p, nb)));
    const SiteIndexer& idx = D.U.idx;
    if (xc[mu] + idx.off[mu] == 0) h = Complex<T>(conj(D.boundary.phase[mu])) * h;
    add_reconstructed(acc, mu, -1, h, alpha);
  }
};

// D s at block site j (local coordinates l), s the spinor of `slot` in shared memory on the block and
// the block's links and site term from shared memory: the hops of wilson_hop in its order (forward,
// backward, for mu = 0..3), a hop that leaves the block given to `outside` (NoOutsideHops: D_B, where
// wilson_hop on a block-masked source adds zero; OutsideHops: the whole operator), then the site term.
template <typename T, typename Real, typename Outside>
__device__ ColorSpinor<T> block_operator(const SweepShared<T>& sh, const WilsonSiteOperator<Real>& D, const int b[4],
                                         const int l[4], int j, int slot, const Outside& outside) {
  const T alpha = T(D.alpha);
  ColorSpinor<T> acc{};
  int stride = 1;
#pragma unroll
  for (int mu = 0; mu < 4; ++mu) {
    if (l[mu] + 1 < b[mu]) {
      const HalfSpinor<T> psi = spin_project_half(mu, 1, sh.load(slot, j + stride));
      add_reconstructed(acc, mu, 1, color_multiply(sh.link(mu, j), psi), alpha);
    } else {
      outside.forward(acc, mu, sh.link(mu, j), alpha);
    }
    if (l[mu] > 0) {
      const HalfSpinor<T> psi = spin_project_half(mu, -1, sh.load(slot, j - stride));
      add_reconstructed(acc, mu, -1, color_adj_multiply(sh.link(mu, j - stride), psi), alpha);
    } else {
      outside.backward(acc, mu, alpha);
    }
    stride *= b[mu];
  }
  const ColorSpinor<T> v = sh.load(slot, j);
  if (D.has_clover) {
    const CloverView<T> A{sh.clover, sh.S, sh.S, D.clover.twist};
    acc += A.apply(0, j, v, 0);
  } else {
    acc += Complex<T>(T(D.c0)) * v;
    if (D.c5 != 0.0) acc += Complex<T>(0, T(D.c5)) * apply_gamma(kGamma5, v);
  }
  return acc;
}

template <typename Real, int Slots>
__global__ void __launch_bounds__(Slots * kMaxBlockSites, 1) schwarz_colour_sweep_kernel(SchwarzColourSweep<Real> a) {
  using T = compute_t<Real>;
  extern __shared__ __align__(16) unsigned char storage[];
  const Aggregation& agg = a.agg;
  const int S = agg.block_sites, padded = (S + 31) / 32 * 32;
  const SweepShared<T> sh(storage, S, Slots, a.D.has_clover != 0);
  const int slot = int(threadIdx.x) / padded, j = int(threadIdx.x) % padded;
  const bool active = j < S;
  std::int64_t other = 0;
  const std::int64_t Y = coarse_site_of_parity(agg.coarse, a.colour, blockIdx.x, other);
  int p = 0, xc[4] = {0, 0, 0, 0}, l[4] = {0, 0, 0, 0};
  std::int64_t cb = 0;
  if (active) {
    const std::int64_t i = agg.fine_of(Y, j);
    p = a.e[0].parity_of(i);
    cb = a.e[0].cb_of(i);
    a.D.U.idx.coords(p, cb, xc);
    for (int mu = 0, rest = j; mu < 4; ++mu) {
      l[mu] = rest % agg.b[mu];
      rest /= agg.b[mu];
    }
    // the block's operator, once for all sources: the slots share out the directions and components
    for (int mu = slot; mu < 4; mu += Slots) {
      const SU3<T> u = a.D.U.load(mu, p, cb);
#pragma unroll
      for (int c = 0; c < 9; ++c) sh.links[(mu * 9 + c) * S + j] = u.m[c / 3][c % 3];
    }
    if (a.D.has_clover) {
      const Complex<Real>* c = a.D.clover.block(p) + cb;
      for (int k = slot; k < 36; k += Slots) sh.clover[k * S + j] = c[k * a.D.clover.stride];
    }
  }
  const int turns = (a.rhs + Slots - 1) / Slots;
  for (int turn = 0; turn < turns; ++turn) {
    const int n = turn * Slots + slot;
    const bool mine = active && n < a.rhs;
    // the block's right-hand side: BlockResidualKernel's r - D e (e's neighbours in other blocks included),
    // e on the block staged in the slot's shared spinors, so that only the hops out of the block read
    // spinors and links from memory
    ColorSpinor<T> rho{};
    if (a.residual) {
      if (mine) sh.store(slot, j, a.e[n].load(p, cb));
      __syncthreads();  // the operator (first turn) and e on the block in place
      if (mine) rho = a.r[n].load(p, cb) - block_operator(sh, a.D, agg.b, l, j, slot, OutsideHops<Real>{a.e[n], a.D, p, xc});
      __syncthreads();  // every thread's reads of e done
    } else if (mine) {
      rho = a.r[n].load(p, cb);
    }
    if (mine) sh.store(slot, j, rho);
    __syncthreads();  // the operator (first turn) and every site's residual in place
    ColorSpinor<T> e{};
    for (int step = 0; step < a.steps; ++step) {
      ColorSpinor<T> t{};
      double w[3] = {0, 0, 0};
      if (mine) {
        t = block_operator(sh, a.D, agg.b, l, j, slot, NoOutsideHops{});
        mr_partial(t, sh.load(slot, j), w[0], w[1], w[2]);
      }
      slot_sum(w, sh.scratch, padded / 32);  // also the barrier after every thread's reads of the residuals
      if (mine) {
        const Complex<T> alpha = w[2] > 0 ? Complex<T>(T(w[0] / w[2]), T(w[1] / w[2])) : Complex<T>();
        ColorSpinor<T> s = sh.load(slot, j);
        e += alpha * s;
        s += (-alpha) * t;
        sh.store(slot, j, s);
      }
      __syncthreads();
    }
    if (mine) a.e[n].store(p, cb, a.e[n].load(p, cb) + e);
  }
}

template <typename Real, int Slots>
bool fits(int sites, bool clover) {
  static const std::size_t limit = std::size_t(raise_shared_limit(schwarz_colour_sweep_kernel<Real, Slots>));
  return sites <= kMaxBlockSites && SweepShared<compute_t<Real>>::bytes(sites, Slots, clover) <= limit;
}

template <typename Real, int Slots>
void launch_sweep(const SchwarzColourSweep<Real>& a) {
  const int sites = a.agg.block_sites;
  const int threads = Slots * ((sites + 31) / 32 * 32);
  const std::size_t bytes = SweepShared<compute_t<Real>>::bytes(sites, Slots, a.D.has_clover != 0);
  const std::int64_t blocks = a.agg.coarse.sites / 2;  // the blocks of one colour (even coarse extents)
  if (blocks == 0) return;
  schwarz_colour_sweep_kernel<Real, Slots><<<unsigned(blocks), unsigned(threads), bytes>>>(a);
  cuda_detail::check_launch("Schwarz colour sweep");
}

}  // namespace

template <typename Real>
bool schwarz_colour_sweep_fits(int block_sites, bool clover) {
  return fits<Real, 1>(block_sites, clover);
}

template <typename Real>
bool schwarz_colour_sweep_on_device(const SchwarzColourSweep<Real>& a) {
  if (a.rhs < 1 || a.rhs > kMaxSweepSources || !fits<Real, 1>(a.agg.block_sites, a.D.has_clover != 0)) return false;
  // two sources in flight where there are two and room for them, else one
  if (a.rhs > 1 && fits<Real, 2>(a.agg.block_sites, a.D.has_clover != 0))
    launch_sweep<Real, 2>(a);
  else
    launch_sweep<Real, 1>(a);
  return true;
}

template bool schwarz_colour_sweep_fits<double>(int, bool);
template bool schwarz_colour_sweep_fits<float>(int, bool);
template bool schwarz_colour_sweep_on_device<double>(const SchwarzColourSweep<double>&);
template bool schwarz_colour_sweep_on_device<float>(const SchwarzColourSweep<float>&);

}  // namespace lqcd
