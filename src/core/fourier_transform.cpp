#include "core/fourier_transform.hpp"

#include <fftw3.h>

#include <mutex>

#include "core/error.hpp"

#if LQCD_HAVE_CUDA
#include <cufft.h>
#endif

namespace lqcd {

namespace {
// FFTW's planner is not thread-safe (FFTW manual, "Thread safety"); execution is.
std::mutex& fftw_planner_mutex() {
  static std::mutex m;
  return m;
}

#if LQCD_HAVE_CUDA
void check_cufft(cufftResult r, const char* what) {
  if (r != CUFFT_SUCCESS) fail("cuFFT: {} failed (cufftResult {})", what, int(r));
}
#endif
}  // namespace

// Host: one FFTW plan per direction over all batches (rank <= 4 in one plan).
// Device: cuFFT plans reach rank 3, so a rank-4 transform is the three fastest dimensions as one batched
// plan followed by the slowest dimension as a strided batch of 1D transforms, once per array.
struct BatchedFft::Plans {
  fftw_plan host_forward = nullptr, host_backward = nullptr;
#if LQCD_HAVE_CUDA
  cufftHandle inner = 0, outer = 0;
  bool has_inner = false, has_outer = false;
#endif
  ~Plans() {
    std::lock_guard<std::mutex> lock(fftw_planner_mutex());
    if (host_forward) fftw_destroy_plan(host_forward);
    if (host_backward) fftw_destroy_plan(host_backward);
#if LQCD_HAVE_CUDA
    if (has_inner) cufftDestroy(inner);
    if (has_outer) cufftDestroy(outer);
#endif
  }
};

BatchedFft::BatchedFft(std::vector<int> extents, int batch, Location loc)
    : extents_(std::move(extents)), batch_(batch), loc_(loc), plans_(std::make_unique<Plans>()) {
  if (extents_.empty() || extents_.size() > 4 || batch < 1)
    fail("BatchedFft: expected rank 1..4 and batch >= 1, got rank {} batch {}", extents_.size(), batch);
  points_ = 1;
  for (int n : extents_) {
    if (n < 1) fail("BatchedFft: extents must be positive, got {}", n);
    points_ *= n;
  }
  const int rank = int(extents_.size());
  if (loc == Location::Host) {
    // A throw-away array for planning: FFTW_ESTIMATE does not touch it, but the plan records its
    // alignment, and execute() runs on arrays of the same (malloc) alignment through fftw_execute_dft.
    std::vector<std::complex<double>> probe(std::size_t(points_) * std::size_t(batch));
    auto* p = reinterpret_cast<fftw_complex*>(probe.data());
    std::lock_guard<std::mutex> lock(fftw_planner_mutex());
    plans_->host_forward = fftw_plan_many_dft(rank, extents_.data(), batch, p, nullptr, 1, int(points_), p, nullptr, 1,
                                              int(points_), FFTW_FORWARD, FFTW_ESTIMATE | FFTW_UNALIGNED);
    plans_->host_backward = fftw_plan_many_dft(rank, extents_.data(), batch, p, nullptr, 1, int(points_), p, nullptr,
                                               1, int(points_), FFTW_BACKWARD, FFTW_ESTIMATE | FFTW_UNALIGNED);
    if (!plans_->host_forward || !plans_->host_backward) fail("FFTW: no plan for a rank-{} transform", rank);
    return;
  }
#if LQCD_HAVE_CUDA
  std::vector<int> inner(extents_.end() - std::min(rank, 3), extents_.end());
  int inner_points = 1;
  for (int n : inner) inner_points *= n;
  const int outer_n = rank == 4 ? extents_[0] : 1;
  check_cufft(cufftPlanMany(&plans_->inner, int(inner.size()), inner.data(), nullptr, 1, inner_points, nullptr, 1,
                            inner_points, CUFFT_Z2Z, batch * outer_n),
              "cufftPlanMany (inner dimensions)");
  plans_->has_inner = true;
  if (rank == 4) {
    int n0 = extents_[0];
    check_cufft(cufftPlanMany(&plans_->outer, 1, &n0, &n0, inner_points, 1, &n0, inner_points, 1, CUFFT_Z2Z,
                              inner_points),
                "cufftPlanMany (slowest dimension)");
    plans_->has_outer = true;
  }
#else
  fail("BatchedFft: device arrays need the CUDA backend");
#endif
}

BatchedFft::~BatchedFft() = default;
BatchedFft::BatchedFft(BatchedFft&&) noexcept = default;
BatchedFft& BatchedFft::operator=(BatchedFft&&) noexcept = default;

void BatchedFft::forward(std::complex<double>* data) const { execute(data, -1); }
void BatchedFft::backward(std::complex<double>* data) const { execute(data, +1); }

void BatchedFft::execute(std::complex<double>* data, int sign) const {
  if (loc_ == Location::Host) {
    auto* p = reinterpret_cast<fftw_complex*>(data);
    fftw_execute_dft(sign < 0 ? plans_->host_forward : plans_->host_backward, p, p);
    return;
  }
#if LQCD_HAVE_CUDA
  auto* p = reinterpret_cast<cufftDoubleComplex*>(data);
  const int direction = sign < 0 ? CUFFT_FORWARD : CUFFT_INVERSE;
  check_cufft(cufftExecZ2Z(plans_->inner, p, p, direction), "cufftExecZ2Z");
  if (plans_->has_outer)
    for (int b = 0; b < batch_; ++b) check_cufft(cufftExecZ2Z(plans_->outer, p + b * points_, p + b * points_, direction), "cufftExecZ2Z");
#endif
}

}  // namespace lqcd
