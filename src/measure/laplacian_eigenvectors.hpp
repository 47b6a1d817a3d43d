#pragma once
// The lowest eigenvectors of the gauge-covariant 3D Laplacian on every time slice: the distillation
// space (M. Peardon et al., Phys. Rev. D 80 (2009) 054506). -Laplacian v = lambda v with
//   (Laplacian f)(x) = sum_{k=1..3} [ U_k(x) f(x + k) + U_k(x - k)^dag f(x - k) - 2 f(x) ]
// (distillation_kernels.hpp), usually on stout- or APE-smeared spatial links, eigenvalues in [0, 12].
//
// Method: Chebyshev-filtered subspace iteration (Y. Zhou and Y. Saad, SIAM J. Matrix Anal. Appl. 29
// (2007) 954; Zhou, Saad, Tiago and Chelikowsky, J. Comput. Phys. 219 (2006) 172) on a block of
// nv + guard vectors per slice: the block is filtered by the Chebyshev polynomial of degree d that
// damps [lambda_cut, 12] (lambda_cut = the largest Ritz value of the block), orthonormalised, and
// rotated to Ritz vectors (Rayleigh-Ritz), until the nv lowest residuals ||-Laplacian v - lambda v||
// are below the tolerance. Every step is a block operation: the Laplacian on all vectors at once
// (one kernel per Chebyshev step) and matrix products (core/dense_linear_algebra: cuBLAS on the GPU).
// This replaces the thick-restart Lanczos that was first planned: the same Chebyshev acceleration,
// but blocks instead of single vectors, so that the GPU runs GEMMs instead of a chain of small kernels.

#include <cstdint>
#include <functional>
#include <vector>

#include "core/geometry.hpp"
#include "core/memory.hpp"
#include "fields/gauge_field.hpp"

namespace lqcd {

struct LaplacianEigenParams {
  int nv = 64;               // eigenvectors per slice, 1 <= nv <= 3 Lx Ly Lz
  double tolerance = 1e-11;  // on ||-Laplacian v - lambda v|| of each unit vector
  int chebyshev_degree = 64;  // at most; capped where the filter would amplify the low end beyond 1e8
  int guard = 0;             // extra vectors of the block; 0: max(8, nv / 4)
  int max_iterations = 100;  // filter + Rayleigh-Ritz rounds per slice
  std::uint64_t seed = 1;    // of the random start block
};

// Throws lqcd::Error naming the key (prefix + "nv", ...) of the first bad parameter.
void check_laplacian_eigen_params(const LaplacianEigenParams& p, const Dims& dims, const std::string& prefix);

struct LaplacianSliceInfo {
  int t = 0;
  int iterations = 0;   // Rayleigh-Ritz rounds
  double max_residual = 0;
  double lambda_min = 0, lambda_max = 0;  // the lowest and the nv-th eigenvalue
  double seconds = 0;
  double flops = 0;     // Laplacian applications and matrix products
};

// The slices this process holds: all of them on one process; on a lattice split along t only (lqcd
// distill --grid 1,1,1,P) the slices t_begin .. t_begin + local_nt - 1 of its local box. Slice
// indices of the members below are local (0 .. local_nt - 1); LaplacianSliceInfo::t is global.
struct LaplacianEigenvectors {
  Dims dims{};  // the global lattice
  int nv = 0;
  int t_begin = 0, local_nt = 0;
  std::vector<double> eigenvalues;  // [t * nv + v], ascending per slice
  std::vector<double> residuals;    // ||-Laplacian v - lambda v||, same order
  std::vector<LaplacianSliceInfo> slices;
  Buffer<Complex<double>> vectors;  // [t][v][n], n = 3 Lx Ly Lz (distillation_kernels.hpp), at location()

  std::int64_t rows() const { return 3 * std::int64_t(dims[0]) * dims[1] * dims[2]; }
  Location location() const { return vectors.location(); }
  bool holds(int global_t) const { return global_t >= t_begin && global_t < t_begin + local_nt; }
  const Complex<double>* slice(int t) const { return vectors.data() + std::int64_t(t) * nv * rows(); }
  Complex<double>* slice(int t) { return vectors.data() + std::int64_t(t) * nv * rows(); }
};

// Throws lqcd::Error naming `what` unless U's process grid splits only the time direction (whole
// time slices on every process, periodic in space inside it).
void check_whole_time_slices(const Geometry& g, const std::string& what);

// On every time slice of U this process holds (check_whole_time_slices; where U lives). on_slice, when set, is told each slice's
// numbers as it finishes. Throws lqcd::Error if a slice does not converge in max_iterations.
LaplacianEigenvectors laplacian_eigenvectors(const GaugeField<double>& U, const LaplacianEigenParams& p,
                                             const std::function<void(const LaplacianSliceInfo&)>& on_slice = {});

// -Laplacian applied to `columns` dense columns of local slice t (out = -Laplacian in), for tests and checks.
void apply_negative_laplacian(const GaugeField<double>& U, int t, int columns, const Complex<double>* in,
                              Complex<double>* out);

}  // namespace lqcd
