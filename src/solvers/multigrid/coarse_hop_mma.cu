// The tensor-core hopping pass of the even-odd coarse operator (solvers/multigrid/coarse_hop_mma.hpp).
#include <cuda_runtime.h>

#include <cstdint>

#include "core/exec_cuda.cuh"
#include "solvers/multigrid/coarse_hop_mma.hpp"

namespace lqcd {
namespace {

constexpr int kWarpsPerBlock = 4;

// TF32 and its mma need sm_80 or newer; coarse_hop_mma_on_device declines older devices, and code built for
// them only traps here.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
#define LQCD_NO_TF32_MMA 1
#endif

__device__ __forceinline__ std::uint32_t to_tf32(float v) {
#ifdef LQCD_NO_TF32_MMA
  __trap();
  return 0;
#else
  std::uint32_t r;
  asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(r) : "f"(v));
  return r;
#endif
}

// c += a b on one m16n8k8 tile. Fragments (lane = 4 g + t): a0 (g, t), a1 (g + 8, t), a2 (g, t + 4),
// a3 (g + 8, t + 4); b0 (k = t, n = g), b1 (k = t + 4, n = g); c0, c1 (g, 2t and 2t + 1), c2, c3 (g + 8, ...)
// (PTX ISA, "Matrix fragments for mma.m16n8k8" with .tf32).
__device__ __forceinline__ void mma_tf32(float (&c)[4], const std::uint32_t (&a)[4], std::uint32_t b0,
                                         std::uint32_t b1) {
#ifdef LQCD_NO_TF32_MMA
  __trap();
#else
  asm volatile(
      "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
      "{%0,%1,%2,%3};"
      : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
#endif
}

// One warp per (site of the parity, tile of 16 rows); NT tiles of 8 real columns (4 right-hand sides each).
template <int NT>
__global__ void __launch_bounds__(kWarpsPerBlock * 32) coarse_hop_mma_kernel(CoarseHopMmaPass p, int row_tiles,
                                                                              std::int64_t units) {
  cuda_detail::programmatic_launch_prologue();
  const std::int64_t unit = std::int64_t(blockIdx.x) * kWarpsPerBlock + threadIdx.x / 32;
  if (unit >= units) return;  // the whole warp
  const int lane = int(threadIdx.x) & 31, g = lane >> 2, t = lane & 3;
  const std::int64_t k = unit / row_tiles;
  const int tile = int(unit - k * row_tiles);
  const CoarseHalfStencilView& H = p.H;
  const int dof = H.dof, n = p.n;
  std::int64_t other;
  const std::int64_t Y = coarse_site_of_parity(H.lattice, p.parity, k, other);
  const int r0 = tile * 16 + g, r1 = r0 + 8;
  const bool has0 = r0 < dof, has1 = r1 < dof;
  const int u = t & 1;  // the real column's part: 0 Re A (times Re X, Im X), 1 Im A (times -Im X, Re X)
  const int k_steps = (2 * dof + 7) / 8;
  float acc[NT][4] = {};
  for (int d = 1; d < kStencilDirections; ++d) {
    const std::int64_t Z = H.lattice.neighbour(Y, (d - 1) / 2, (d - 1) % 2 == 0 ? 1 : -1);
    const std::int64_t blk = H.block(d, Y);
    // The block's scale goes into X, so that A's words enter as the integers q they encode.
    const float unit_scale = H.scale[blk] * (1.0f / kFixedPointMax);
    const std::int16_t* A = reinterpret_cast<const std::int16_t*>(H.a + blk * dof * dof);  // (r, c): 2 (c dof + r) + part
    const float* X = reinterpret_cast<const float*>(p.in + Z * dof * n);                  // (c, j): 2 (c n + j) + part
    for (int s = 0; s < k_steps; ++s) {
      const int c0 = (s * 8 + t) >> 1, c1 = c0 + 2;  // real columns s 8 + t and s 8 + t + 4
      const bool in0 = c0 < dof, in1 = c1 < dof;
      // The stored words are offset-binary codes (math/precision.hpp): fixed_value gives the integer q.
      std::uint32_t a[4];
      a[0] = to_tf32(has0 && in0 ? fixed_value(A[2 * (c0 * dof + r0) + u]) : 0.0f);
      a[1] = to_tf32(has1 && in0 ? fixed_value(A[2 * (c0 * dof + r1) + u]) : 0.0f);
      a[2] = to_tf32(has0 && in1 ? fixed_value(A[2 * (c1 * dof + r0) + u]) : 0.0f);
      a[3] = to_tf32(has1 && in1 ? fixed_value(A[2 * (c1 * dof + r1) + u]) : 0.0f);
#pragma unroll
      for (int nt = 0; nt < NT; ++nt) {
        // Real column nt 8 + g: right-hand side j, part v (0 Re, 1 Im of the product).
        const int j = nt * 4 + (g >> 1), v = g & 1;
        // B'[2c + u][2j + v] = (u, v) = (0, 0): Re X, (1, 0): -Im X, (0, 1): Im X, (1, 1): Re X.
        const int part = u ^ v;
        const float sgn = (u == 1 && v == 0) ? -unit_scale : unit_scale;
        const bool col = j < n;
        const float b0 = col && in0 ? sgn * X[2 * (c0 * n + j) + part] : 0.0f;
        const float b1 = col && in1 ? sgn * X[2 * (c1 * n + j) + part] : 0.0f;
        mma_tf32(acc[nt], a, to_tf32(b0), to_tf32(b1));
      }
    }
  }
  // acc[nt][0], [1]: row r0, right-hand side nt 4 + t (Re, Im); [2], [3]: row r1.
#pragma unroll
  for (int nt = 0; nt < NT; ++nt) {
    const int j = nt * 4 + t;
    if (j >= n) continue;
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      const int r = h == 0 ? r0 : r1;
      if (!(h == 0 ? has0 : has1)) continue;
      const std::int64_t i = (Y * dof + r) * n + j;
      const Complex<float> sum(p.sign * acc[nt][2 * h], p.sign * acc[nt][2 * h + 1]);
      p.out[i] = p.x ? p.x[i] + sum : sum;
      if (p.zero_other) p.out[(other * dof + r) * n + j] = Complex<float>();
    }
  }
}

template <int NT>
void launch_pass(const CoarseHopMmaPass& p) {
  const int row_tiles = (p.H.dof + 15) / 16;
  const std::int64_t units = p.H.lattice.sites / 2 * row_tiles;
  if (units == 0) return;
  cuda_detail::launch(coarse_hop_mma_kernel<NT>, (units + kWarpsPerBlock - 1) / kWarpsPerBlock, kWarpsPerBlock * 32,
                      "coarse hopping pass (tensor cores)", p, row_tiles, units);
}

}  // namespace

bool coarse_hop_mma_on_device(const CoarseHopMmaPass& p) {
  if (p.n < kCoarseHopMmaMinRhs || p.n > kCoarseHopMmaMaxRhs) return false;
  static const int major = [] {
    int device = 0, m = 0;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&m, cudaDevAttrComputeCapabilityMajor, device);
    return m;
  }();
  if (major < 8) return false;  // no TF32 tensor cores
  switch ((p.n + 3) / 4) {
    case 1: launch_pass<1>(p); break;
    case 2: launch_pass<2>(p); break;
    case 3: launch_pass<3>(p); break;
    default: launch_pass<4>(p); break;
  }
  return true;
}

}  // namespace lqcd
