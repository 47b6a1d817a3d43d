// The fused block-MR kernel of the Schwarz smoother (solvers/multigrid/schwarz_block_mr.hpp).
#include <cuda_runtime.h>

#include "core/exec_cuda.cuh"
#include "solvers/multigrid/coarse_schur_kernels.hpp"
#include "solvers/multigrid/schwarz_block_sums.cuh"
#include "solvers/multigrid/schwarz_block_mr.hpp"

namespace lqcd {
namespace {

// Threads (sites) per thread block at most; for one source two thread blocks per SM, which caps the
// registers at 128 per thread (the hopping kernels' cap, dirac/wilson_kernels.hpp).
constexpr int kMaxBlockSites = 256;

// The spinor source of D_B for the hops of wilson_hop: the block's current residual in shared memory
// at the block site's index j (x fastest: Aggregation::block_site), 0 off the block.
template <typename T>
struct SharedBlockSource {
  const ColorSpinor<T>* sh;
  const std::int32_t* fine_block;
  const std::int32_t* fine_local;
  std::int64_t vh;
  std::int32_t Y;
  int b0, b1, b2;
  LQCD_HOST_DEVICE bool find(int p, std::int64_t cb, int& j) const {
    const std::int64_t i = p * vh + cb;
    if (fine_block[i] != Y) return false;
    const std::int32_t l = fine_local[i];
    j = (l & 0xFF) + b0 * (((l >> 8) & 0xFF) + b1 * (((l >> 16) & 0xFF) + b2 * ((l >> 24) & 0xFF)));
    return true;
  }
  LQCD_HOST_DEVICE ColorSpinor<T> load(int p, std::int64_t cb) const {
    int j = 0;
    return find(p, cb, j) ? sh[j] : ColorSpinor<T>{};
  }
  LQCD_HOST_DEVICE HalfSpinor<T> load_projected(int p, std::int64_t cb, int mu, int sign, T& scale) const {
    scale = T(1);
    int j = 0;
    return find(p, cb, j) ? spin_project_half(mu, sign, sh[j]) : HalfSpinor<T>{};
  }
};

// This thread's site: the block Y (the blockIdx.x-th of the colour), the site's index j in it, and where
// the site is (parity, checkerboard index, coordinates); active: j is a site of the block.
struct BlockThread {
  std::int32_t Y;
  int j, p;
  bool active;
  std::int64_t cb;
  int xc[4];
};
template <typename Real>
__device__ BlockThread block_thread(const SchwarzBlockMr<Real>& a) {
  BlockThread b{};
  std::int64_t other = 0;
  b.Y = std::int32_t(coarse_site_of_parity(a.agg.coarse, a.colour, blockIdx.x, other));
  b.j = int(threadIdx.x);
  b.active = b.j < a.agg.block_sites;
  if (b.active) {
    const std::int64_t i = a.agg.fine_of(b.Y, b.j);
    b.p = a.rho[0].parity_of(i);
    b.cb = a.rho[0].cb_of(i);
    a.D.U.idx.coords(b.p, b.cb, b.xc);
  }
  return b;
}

// One thread block per block of the colour, one thread per site; shared memory: the N residuals of the
// block (source n at [n sites + j]), then the reduction's scratch. A thread holds D_B s and its share of
// the solution for each source (48 N reals besides the site operator's own): one source keeps to the
// hopping kernels' 128 registers (two thread blocks per SM), more get the whole register file.
template <typename Real, int N>
__global__ void __launch_bounds__(kMaxBlockSites, N == 1 ? 2 : 1) schwarz_block_mr_kernel(SchwarzBlockMr<Real> a) {
  using T = compute_t<Real>;
  extern __shared__ __align__(16) unsigned char storage[];
  const Aggregation& agg = a.agg;
  const int sites = agg.block_sites;
  // the spinors first (the storage is aligned for any type; ColorSpinor<double> needs 16 bytes), the
  // reduction's scratch after them (sizeof(ColorSpinor<T>) is a multiple of 16)
  auto* sh = reinterpret_cast<ColorSpinor<T>*>(storage);
  auto* scratch = reinterpret_cast<double*>(storage + sizeof(ColorSpinor<T>) * std::size_t(N * sites));
  const auto [Y, j, p, active, cb, xc] = block_thread(a);
  ColorSpinor<T> e[N];
  if (active) {
#pragma unroll
    for (int n = 0; n < N; ++n) sh[n * sites + j] = a.rho[n].load(p, cb);
  }
  __syncthreads();
  for (int step = 0; step < a.steps; ++step) {
    ColorSpinor<T> t[N];
    double w[3 * N];
#pragma unroll
    for (int n = 0; n < N; ++n) {
      w[3 * n] = w[3 * n + 1] = w[3 * n + 2] = 0;
      if (active) {
        const SharedBlockSource<T> in{sh + n * sites, agg.fine_block, agg.fine_local, agg.fine.vh,
                                      Y,              agg.b[0],       agg.b[1],       agg.b[2]};
        t[n] = a.D.apply(in, p, cb, xc);
        mr_partial(t[n], sh[n * sites + j], w[3 * n], w[3 * n + 1], w[3 * n + 2]);
      }
    }
    slot_sum(w, scratch, int(blockDim.x) / 32);  // the whole block; also the barrier after every thread's reads of sh
    if (active) {
#pragma unroll
      for (int n = 0; n < N; ++n) {
        const double ts_re = w[3 * n], ts_im = w[3 * n + 1], tt = w[3 * n + 2];
        const Complex<T> alpha = tt > 0 ? Complex<T>(T(ts_re / tt), T(ts_im / tt)) : Complex<T>();
        ColorSpinor<T> s = sh[n * sites + j];
        e[n] += alpha * s;
        s += (-alpha) * t[n];
        sh[n * sites + j] = s;
      }
    }
    __syncthreads();
  }
  if (active)
#pragma unroll
    for (int n = 0; n < N; ++n) a.e[n].store(p, cb, a.e[n].load(p, cb) + e[n]);
}

template <typename Real, int N>
bool launch_block_mr(const SchwarzBlockMr<Real>& a) {
  using T = compute_t<Real>;
  const int sites = a.agg.block_sites;
  const int threads = (sites + 31) / 32 * 32;
  const std::size_t spinors = sizeof(ColorSpinor<T>) * std::size_t(N * sites);
  const std::size_t bytes = sizeof(double) * 3 * N * (threads / 32) + spinors;
  static const int limit = raise_shared_limit(schwarz_block_mr_kernel<Real, N>);
  if (bytes > std::size_t(limit)) return false;
  const std::int64_t blocks = a.agg.coarse.sites / 2;  // the blocks of one colour (even coarse extents)
  if (blocks == 0) return true;
  schwarz_block_mr_kernel<Real, N><<<unsigned(blocks), unsigned(threads), bytes>>>(a);
  cuda_detail::check_launch("Schwarz block MR");
  return true;
}

}  // namespace

template <typename Real>
bool schwarz_block_mr_on_device(const SchwarzBlockMr<Real>& a) {
  if (a.agg.block_sites > kMaxBlockSites) return false;
  static_assert(kMaxSchwarzRhs == 4, "one instantiation per count of right-hand sides");
  switch (a.rhs) {
    case 1: return launch_block_mr<Real, 1>(a);
    case 2: return launch_block_mr<Real, 2>(a);
    case 3: return launch_block_mr<Real, 3>(a);
    case 4: return launch_block_mr<Real, 4>(a);
    default: return false;
  }
}

template bool schwarz_block_mr_on_device<double>(const SchwarzBlockMr<double>&);
template bool schwarz_block_mr_on_device<float>(const SchwarzBlockMr<float>&);

}  // namespace lqcd
