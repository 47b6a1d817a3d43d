// The coarse even-odd operator's parity pass on the device with a thread per component and direction
// (coarse_parity_hop, solvers/coarse_schur_kernels.hpp).
#include "core/exec_cuda.cuh"
#include "solvers/coarse_schur_kernels.hpp"

namespace lqcd {
namespace {

constexpr int kDirections = kStencilDirections - 1;
constexpr int kMaxThreads = 1024;  // 8 directions x dof <= 128 components

// Block k: the k-th site of the pass's parity; thread (d, row) = (threadIdx.x / dof, threadIdx.x % dof),
// so that the threads of one direction read consecutive entries of its block (column-major).
template <typename Real, typename Rows>
__global__ void __launch_bounds__(kMaxThreads) coarse_parity_hop_kernel(CoarseParityHopKernel<Real, Rows> f) {
  cuda_detail::programmatic_launch_prologue();
  __shared__ Complex<Real> part[kMaxThreads];
  const int dof = f.rows.dof();
  const int d = int(threadIdx.x) / dof, row = int(threadIdx.x) % dof;
  const std::int64_t k = blockIdx.x;
  std::int64_t other;
  const std::int64_t Y = coarse_site_of_parity(f.rows.lattice(), f.parity, k, other);
  part[threadIdx.x] = f.rows.direction(f.in, Y, row, d + 1);
  __syncthreads();
  if (d == 0) {
    Complex<Real> h;
    for (int e = 0; e < kDirections; ++e) h += part[e * dof + row];  // Rows::row's order
    f.finish(k, row, h);
  }
}

}  // namespace

template <typename Real, typename Rows>
void coarse_parity_hop_on_device(const CoarseParityHopKernel<Real, Rows>& f, std::int64_t sites) {
  const int threads = kDirections * f.rows.dof();
  if (threads > kMaxThreads) {
    device_for_each(sites * f.rows.dof(), f);
    return;
  }
  if (sites > 0) cuda_detail::launch(coarse_parity_hop_kernel<Real, Rows>, sites, threads, "coarse parity pass", f);
}

#define LQCD_INSTANTIATE_COARSE_HOP(Real)                                                                       \
  template void coarse_parity_hop_on_device<Real, CoarseHopRows<Real>>(                                         \
      const CoarseParityHopKernel<Real, CoarseHopRows<Real>>&, std::int64_t);                                   \
  template void coarse_parity_hop_on_device<Real, CoarseHalfHopRows<Real>>(                                     \
      const CoarseParityHopKernel<Real, CoarseHalfHopRows<Real>>&, std::int64_t);
LQCD_INSTANTIATE_COARSE_HOP(double)
LQCD_INSTANTIATE_COARSE_HOP(float)
#undef LQCD_INSTANTIATE_COARSE_HOP

}  // namespace lqcd
