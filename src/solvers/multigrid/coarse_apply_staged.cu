// The coarse operator on a block of right-hand sides, the neighbours' vectors staged in shared memory
// (solvers/multigrid/coarse_apply_staged.hpp).
#include <cuda_runtime.h>

#include <cstdint>

#include "core/environment_switch.hpp"
#include "core/exec_cuda.cuh"
#include "solvers/multigrid/coarse_apply_staged.hpp"

namespace lqcd {
namespace {

// Threads per block: about this many, a whole number of sites of dof rows each.
constexpr int kTargetThreads = 192;
// Columns whose block elements a thread loads ahead.
constexpr int kPrefetch = 8;

// One thread per (site, row); S = blockDim.x / dof sites per block; T >= n lanes in registers (lanes past
// n read right-hand side n - 1 and are not stored, as in rhs_tile's clamping).
template <int T>
__global__ void __launch_bounds__(256) coarse_apply_staged_kernel(CoarseStencilView<float> A, const Complex<float>* in,
                                                                   Complex<float>* out, int n, int sites_per_block) {
  extern __shared__ float4 staged_words[];
  Complex<float>* staged = reinterpret_cast<Complex<float>*>(staged_words);
  __shared__ std::int64_t neighbours[kTargetThreads];  // S <= kTargetThreads (dof >= 1)
  const int dof = A.dof, block_words = dof * n;       // complex numbers per site's block of vectors
  const int s = int(threadIdx.x) / dof, row = int(threadIdx.x) - s * dof;
  const std::int64_t sites = A.lattice.sites;
  const std::int64_t first = std::int64_t(blockIdx.x) * sites_per_block;
  const std::int64_t Y = first + s;
  const bool mine = s < sites_per_block && Y < sites;
  Complex<float> acc[T];
#pragma unroll
  for (int t = 0; t < T; ++t) acc[t] = Complex<float>();
  for (int d = 0; d < kStencilDirections; ++d) {
    __syncthreads();  // the previous direction's vectors are read
    if (int(threadIdx.x) < sites_per_block)
      neighbours[threadIdx.x] = first + threadIdx.x < sites ? A.neighbour(first + threadIdx.x, d) : -1;
    __syncthreads();
    // S blocks of dof x n complex numbers, each contiguous in the block field: 16-byte words where n is even
    if (n % 2 == 0) {
      const int words = block_words / 2;
      for (int i = int(threadIdx.x); i < sites_per_block * words; i += int(blockDim.x)) {
        const int b = i / words, w = i - b * words;
        const std::int64_t Z = neighbours[b];
        if (Z >= 0)
          staged_words[i] = reinterpret_cast<const float4*>(in + Z * block_words)[w];
      }
    } else {
      for (int i = int(threadIdx.x); i < sites_per_block * block_words; i += int(blockDim.x)) {
        const int b = i / block_words, w = i - b * block_words;
        const std::int64_t Z = neighbours[b];
        if (Z >= 0) staged[i] = in[Z * block_words + w];
      }
    }
    __syncthreads();
    if (!mine) continue;
    const Complex<float>* m = &A.at(d, Y, row, 0);
    const Complex<float>* v = staged + s * block_words;
    // a whole tile (n == T): 16-byte shared loads, two right-hand sides each (a column is n * 8 bytes)
    const bool whole = n == T;
    const auto column = [&](const Complex<float>& a, int col) {
      if (whole) {
        const float4* x = reinterpret_cast<const float4*>(v + col * T);
#pragma unroll
        for (int t = 0; t < T / 2; ++t) {
          const float4 q = x[t];
          acc[2 * t] = multiply_add(a, Complex<float>(q.x, q.y), acc[2 * t]);
          acc[2 * t + 1] = multiply_add(a, Complex<float>(q.z, q.w), acc[2 * t + 1]);
        }
      } else {
        const Complex<float>* x = v + col * n;
#pragma unroll
        for (int t = 0; t < T; ++t) acc[t] = multiply_add(a, x[t < n ? t : n - 1], acc[t]);
      }
    };
    // The block elements of kPrefetch columns loaded before their FMAs (they come from memory, the
    // vectors from shared memory): that many long loads in flight per thread instead of one.
    int col = 0;
    for (; col + kPrefetch <= dof; col += kPrefetch) {
      Complex<float> a[kPrefetch];
#pragma unroll
      for (int c = 0; c < kPrefetch; ++c) a[c] = m[std::int64_t(col + c) * dof];
#pragma unroll
      for (int c = 0; c < kPrefetch; ++c) column(a[c], col + c);
    }
    for (; col < dof; ++col) column(m[std::int64_t(col) * dof], col);
  }
  if (!mine) return;
  Complex<float>* o = out + (Y * dof + row) * n;
#pragma unroll
  for (int t = 0; t < T; ++t)
    if (t < n) o[t] = acc[t];
}

template <int T>
void launch(const CoarseStencilView<float>& A, const CoarseBlockView<float>& in, const CoarseBlockView<float>& out) {
  const int dof = A.dof, n = in.rhs;
  const int per_block = dof >= kTargetThreads ? 1 : kTargetThreads / dof;
  const std::int64_t blocks = (A.lattice.sites + per_block - 1) / per_block;
  if (blocks == 0) return;
  const std::size_t bytes = std::size_t(per_block) * std::size_t(dof) * std::size_t(n) * sizeof(Complex<float>);
  coarse_apply_staged_kernel<T><<<unsigned(blocks), unsigned(per_block * dof), bytes>>>(A, in.data, out.data, n,
                                                                                        per_block);
  cuda_detail::check_launch("coarse operator, staged vectors");
}

}  // namespace

bool coarse_apply_staged_on_device(const CoarseStencilView<float>& A, const CoarseBlockView<float>& in,
                                   const CoarseBlockView<float>& out) {
  static const bool enabled = switch_from_environment("LQCD_COARSE_STAGED", true);
  const int n = in.rhs;
  if (!enabled || n < 1 || n > kCoarseStagedMaxRhs || A.dof > kCoarseStagedMaxDof) return false;
  if (n <= 4)
    launch<4>(A, in, out);
  else if (n <= 8)
    launch<8>(A, in, out);
  else if (n <= 12)
    launch<12>(A, in, out);
  else
    launch<16>(A, in, out);
  return true;
}

}  // namespace lqcd
