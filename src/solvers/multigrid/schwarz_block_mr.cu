// The fused block-MR kernel of the Schwarz smoother (solvers/multigrid/schwarz_block_mr.hpp).
#include <cuda_runtime.h>

#include "core/exec_cuda.cuh"
#include "solvers/multigrid/coarse_schur_kernels.hpp"
#include "solvers/multigrid/schwarz_block_mr.hpp"

namespace lqcd {
namespace {

// Threads (sites) per thread block at most; two thread blocks per SM cap the registers at 128 per
// thread (the hopping kernels' cap, dirac/wilson_kernels.hpp).
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

// Sum of (a, b, c) over the thread block, the same in every thread (fixed order: deterministic).
__device__ void block_sum3(double& a, double& b, double& c, double* scratch) {
  for (int o = 16; o > 0; o /= 2) {
    a += __shfl_down_sync(0xffffffffu, a, o);
    b += __shfl_down_sync(0xffffffffu, b, o);
    c += __shfl_down_sync(0xffffffffu, c, o);
  }
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32, warps = blockDim.x / 32;
  if (lane == 0) {
    scratch[3 * warp] = a;
    scratch[3 * warp + 1] = b;
    scratch[3 * warp + 2] = c;
  }
  __syncthreads();
  a = b = c = 0;
  for (int w = 0; w < warps; ++w) {
    a += scratch[3 * w];
    b += scratch[3 * w + 1];
    c += scratch[3 * w + 2];
  }
  __syncthreads();  // scratch is reused by the next call
}

template <typename Real>
__global__ void __launch_bounds__(kMaxBlockSites, 2) schwarz_block_mr_kernel(SchwarzBlockMr<Real> a) {
  using T = compute_t<Real>;
  extern __shared__ __align__(16) unsigned char storage[];
  const Aggregation& agg = a.agg;
  const int sites = agg.block_sites;
  // the spinors first (the storage is aligned for any type; ColorSpinor<double> needs 16 bytes), the
  // reduction's scratch after them (sizeof(ColorSpinor<T>) is a multiple of 16)
  auto* sh = reinterpret_cast<ColorSpinor<T>*>(storage);
  auto* scratch = reinterpret_cast<double*>(storage + sizeof(ColorSpinor<T>) * std::size_t(sites));
  std::int64_t other = 0;
  const std::int32_t Y = std::int32_t(coarse_site_of_parity(agg.coarse, a.colour, blockIdx.x, other));
  const int j = int(threadIdx.x);
  const bool active = j < sites;
  int p = 0, xc[4] = {0, 0, 0, 0};
  std::int64_t cb = 0;
  ColorSpinor<T> s{}, e{};
  if (active) {
    const std::int64_t i = agg.fine_of(Y, j);
    p = a.rho.parity_of(i);
    cb = a.rho.cb_of(i);
    a.D.U.idx.coords(p, cb, xc);
    s = a.rho.load(p, cb);
    sh[j] = s;
  }
  __syncthreads();
  const SharedBlockSource<T> in{sh, agg.fine_block, agg.fine_local, agg.fine.vh, Y, agg.b[0], agg.b[1], agg.b[2]};
  for (int step = 0; step < a.steps; ++step) {
    ColorSpinor<T> t{};
    double ts_re = 0, ts_im = 0, tt = 0;
    if (active) {
      t = a.D.apply(in, p, cb, xc);
      mr_partial(t, s, ts_re, ts_im, tt);
    }
    block_sum3(ts_re, ts_im, tt, scratch);  // also the barrier after every thread's reads of sh
    const Complex<T> alpha = tt > 0 ? Complex<T>(T(ts_re / tt), T(ts_im / tt)) : Complex<T>();
    if (active) {
      e += alpha * s;
      s += (-alpha) * t;
      sh[j] = s;
    }
    __syncthreads();
  }
  if (active) a.e.store(p, cb, a.e.load(p, cb) + e);
}

}  // namespace

template <typename Real>
bool schwarz_block_mr_on_device(const SchwarzBlockMr<Real>& a) {
  using T = compute_t<Real>;
  const int sites = a.agg.block_sites;
  if (sites > kMaxBlockSites) return false;
  const int threads = (sites + 31) / 32 * 32;
  const std::size_t bytes = sizeof(double) * 3 * (threads / 32) + sizeof(ColorSpinor<T>) * std::size_t(sites);
  static int limit = -1;  // the device's opt-in shared memory per block, set once
  if (limit < 0) {
    int device = 0;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&limit, cudaDevAttrMaxSharedMemoryPerBlockOptin, device);
    cudaFuncSetAttribute(schwarz_block_mr_kernel<Real>, cudaFuncAttributeMaxDynamicSharedMemorySize, limit);
  }
  if (bytes > std::size_t(limit)) return false;
  const std::int64_t blocks = a.agg.coarse.sites / 2;  // the blocks of one colour (even coarse extents)
  if (blocks == 0) return true;
  schwarz_block_mr_kernel<Real><<<unsigned(blocks), unsigned(threads), bytes>>>(a);
  cuda_detail::check_launch("Schwarz block MR");
  return true;
}

template bool schwarz_block_mr_on_device<double>(const SchwarzBlockMr<double>&);
template bool schwarz_block_mr_on_device<float>(const SchwarzBlockMr<float>&);

}  // namespace lqcd
