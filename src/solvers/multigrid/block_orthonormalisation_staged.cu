// The block orthonormalisation's Gram and rotation passes with the rows staged in shared memory
// (solvers/multigrid/block_orthonormalisation_staged.hpp).
#include <cuda_runtime.h>

#include <cstdint>

#include "core/exec_cuda.cuh"
#include "solvers/multigrid/block_orthonormalisation_staged.hpp"
#include "solvers/multigrid/schwarz_block_sums.cuh"

namespace lqcd {
namespace {

constexpr int kThreads = 256;
constexpr int kEntriesPerThread = 4;     // Gram entries a thread keeps: n_v (n_v + 1) / 2 <= 1024
constexpr int kChunkComplex = 2048;      // staged rows per chunk at most, in complex numbers (16 kB)

// Whole sites per chunk: one site's rows of one chirality are half x n_v consecutive numbers.
__host__ __device__ inline int chunk_sites(const BlockRows<float>& V) {
  const int site = V.half * V.nv;
  return site >= kChunkComplex ? 1 : kChunkComplex / site;
}

// Stages sites [j0, j0 + ns) of aggregate (Y, chi) into rows: site s's half x n_v numbers at s half n_v.
__device__ void stage(const Aggregation& agg, const BlockRows<float>& V, std::int64_t Y, int chi, int j0, int ns,
                      Complex<float>* rows) {
  const int site = V.half * V.nv;
  for (int t = int(threadIdx.x); t < ns * site; t += int(blockDim.x)) {
    const int s = t / site;
    rows[t] = V.row(agg.fine_of(Y, j0 + s), chi, 0)[t - s * site];
  }
}

__global__ void __launch_bounds__(kThreads) block_gram_kernel(Aggregation agg, BlockRows<float> V, Complex<double>* gram) {
  extern __shared__ float4 words[];
  Complex<float>* rows = reinterpret_cast<Complex<float>*>(words);
  const int nv = V.nv, entries = nv * (nv + 1) / 2;
  const std::int64_t g = blockIdx.x, Y = g / 2;
  const int chi = int(g % 2);
  int l[kEntriesPerThread], k[kEntriesPerThread];
  Complex<double> acc[kEntriesPerThread];
#pragma unroll
  for (int m = 0; m < kEntriesPerThread; ++m) {
    int e = int(threadIdx.x) + m * kThreads, row = 0;  // e-th entry of the upper triangle, row by row
    while (row < nv && e >= nv - row) e -= nv - row++;
    l[m] = row;
    k[m] = row + e;
  }
  const int per_chunk = chunk_sites(V);
  for (int j0 = 0; j0 < agg.block_sites; j0 += per_chunk) {
    const int ns = min(per_chunk, agg.block_sites - j0);
    stage(agg, V, Y, chi, j0, ns, rows);
    __syncthreads();
#pragma unroll
    for (int m = 0; m < kEntriesPerThread; ++m) {
      if (int(threadIdx.x) + m * kThreads >= entries) break;
      for (int r = 0; r < ns * V.half; ++r)
        acc[m] = conj_multiply_add(Complex<double>(rows[r * nv + l[m]]), Complex<double>(rows[r * nv + k[m]]), acc[m]);
    }
    __syncthreads();  // the chunk read before the next is staged
  }
#pragma unroll
  for (int m = 0; m < kEntriesPerThread; ++m)
    if (int(threadIdx.x) + m * kThreads < entries) gram[(g * nv + l[m]) * nv + k[m]] = acc[m];
}

__global__ void __launch_bounds__(kThreads) block_rotate_kernel(Aggregation agg, BlockRows<float> V,
                                                                const Complex<double>* rinv) {
  extern __shared__ float4 words[];
  const int nv = V.nv, site = V.half * nv;
  Complex<double>* m = reinterpret_cast<Complex<double>*>(words);
  Complex<float>* rows = reinterpret_cast<Complex<float>*>(m + nv * nv);
  const std::int64_t g = blockIdx.x, Y = g / 2;
  const int chi = int(g % 2);
  for (int t = int(threadIdx.x); t < nv * nv; t += int(blockDim.x))  // the upper triangle (all that is written)
    m[t] = t / nv <= t % nv ? rinv[g * nv * nv + t] : Complex<double>();
  const int per_chunk = chunk_sites(V);
  for (int j0 = 0; j0 < agg.block_sites; j0 += per_chunk) {
    const int ns = min(per_chunk, agg.block_sites - j0);
    stage(agg, V, Y, chi, j0, ns, rows);
    __syncthreads();  // (the first time also R^{-1})
    for (int t = int(threadIdx.x); t < ns * site; t += int(blockDim.x)) {
      const int r = t / nv, k = t - r * nv, s = t / site;
      Complex<double> acc;
      for (int l = 0; l <= k; ++l) acc = multiply_add(Complex<double>(rows[r * nv + l]), m[l * nv + k], acc);
      V.row(agg.fine_of(Y, j0 + s), chi, 0)[t - s * site] = Complex<float>(acc);
    }
    __syncthreads();  // the chunk read before the next is staged
  }
}

// Shared memory of one chunk of staged rows (the Gram pass's all), and the rotation's with R^{-1} before it.
std::size_t chunk_bytes(const BlockRows<float>& V) {
  return sizeof(Complex<float>) * std::size_t(chunk_sites(V)) * std::size_t(V.half * V.nv);
}
std::size_t rotate_shared_bytes(const BlockRows<float>& V) {
  return sizeof(Complex<double>) * std::size_t(V.nv) * std::size_t(V.nv) + chunk_bytes(V);
}

}  // namespace

bool block_gram_on_device(const Aggregation& agg, const BlockRows<float>& V, Complex<double>* gram) {
  static const std::size_t limit = std::size_t(raise_shared_limit(block_gram_kernel));
  const std::size_t bytes = chunk_bytes(V);
  if (V.nv * (V.nv + 1) / 2 > kThreads * kEntriesPerThread || bytes > limit || agg.coarse.sites == 0) return false;
  block_gram_kernel<<<unsigned(2 * agg.coarse.sites), kThreads, bytes>>>(agg, V, gram);
  cuda_detail::check_launch("block Gram matrices");
  return true;
}

bool block_rotate_on_device(const Aggregation& agg, const BlockRows<float>& V, const Complex<double>* rinv) {
  static const std::size_t limit = std::size_t(raise_shared_limit(block_rotate_kernel));
  const std::size_t bytes = rotate_shared_bytes(V);
  if (V.nv > 64 || bytes > limit || agg.coarse.sites == 0) return false;
  block_rotate_kernel<<<unsigned(2 * agg.coarse.sites), kThreads, bytes>>>(agg, V, rinv);
  cuda_detail::check_launch("block rotation");
  return true;
}

}  // namespace lqcd
