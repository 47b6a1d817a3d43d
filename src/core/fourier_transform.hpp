#pragma once
// Batched multi-dimensional complex FFTs (double precision, in place) of arrays where they live:
// FFTW 3 on the host, cuFFT on the device (on the default stream, where the site kernels run). Used by
// the Fourier-accelerated gauge fixing (gauge/gauge_fixing.hpp).
//
// The data are `batch` arrays one after the other, each of extents n[0] x ... x n[rank-1] in row-major
// order (the last index fastest: lqcd's lexicographic site order x, y, z, t is n = {Lt, Lz, Ly, Lx}).
// Neither direction is normalised: backward(forward(f)) = (prod n) f. Sign conventions as FFTW's:
// forward f~(k) = sum_x f(x) exp(-2 pi i k.x / n).

#include <complex>
#include <cstdint>
#include <memory>
#include <vector>

#include "core/memory.hpp"

namespace lqcd {

class BatchedFft {
 public:
  // rank 1..4; every extent >= 1. Plans are made here (FFTW_ESTIMATE: no timing runs, deterministic).
  BatchedFft(std::vector<int> extents, int batch, Location loc);
  ~BatchedFft();
  BatchedFft(BatchedFft&&) noexcept;
  BatchedFft& operator=(BatchedFft&&) noexcept;
  BatchedFft(const BatchedFft&) = delete;
  BatchedFft& operator=(const BatchedFft&) = delete;

  // In place on batch * prod(extents) complex numbers at `data` (host or device as `loc`).
  void forward(std::complex<double>* data) const;
  void backward(std::complex<double>* data) const;

  std::int64_t points() const { return points_; }  // prod(extents), one array
  int batch() const { return batch_; }

 private:
  struct Plans;
  void execute(std::complex<double>* data, int sign) const;
  std::vector<int> extents_;
  int batch_ = 0;
  std::int64_t points_ = 0;
  Location loc_ = Location::Host;
  std::unique_ptr<Plans> plans_;
};

}  // namespace lqcd
