// The block orthonormalisation's passes with the rows staged in shared memory (issue 46;
// solvers/multigrid/block_orthonormalisation_staged.hpp) against the portable kernels on the host: the
// same orthonormalised vectors to single-precision rounding, on a fine level (4^4 blocks, 24 vectors:
// chunks of 14 sites, the last one partial) and on a coarse level (48 components a site, 2^4 blocks, 24
// vectors: 3-site chunks, the last partial). A Gram entry or a rotation that read the wrong row, column or
// chunk would be off by O(1). Device only.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "solvers/multigrid/coarse_transfer.hpp"
#include "solvers/multigrid/transfer_operator.hpp"
#include "field_test_support.hpp"
#include "test_support.hpp"

namespace lqcd {
namespace {

// Orthonormalises the same random vectors with `host` and `device` (one transfer on the two locations) and
// returns the largest relative difference of the results, vector by vector.
template <typename Transfer>
double largest_difference_of_the_results(Transfer& host, Transfer& device, std::uint64_t seed) {
  for (int k = 0; k < host.test_vectors(); ++k) {
    auto v = host.make_fine();
    host.random_field(v, seed, k);
    host.set_vector(k, v);
    device.set_vector(k, v.clone(Location::Device));
  }
  host.orthonormalise();
  device.orthonormalise();
  auto a = host.make_fine(), b = device.make_fine();
  double worst = 0;
  for (int k = 0; k < host.test_vectors(); ++k) {
    host.get_vector(k, a);
    device.get_vector(k, b);
    auto d = b.clone(Location::Host);
    axpy(Complex<double>(-1.0), a, d);
    worst = std::max(worst, std::sqrt(norm2(d) / norm2(a)));
  }
  return worst;
}

TEST(BlockOrthonormalisationStaged, DeviceEqualsTheHostKernels) {
#if LQCD_HAVE_CUDA
  if (!device_available()) GTEST_SKIP() << "no device";
  const int nv = 24;
  const Geometry geom = Geometry::single_process({8, 8, 8, 8});
  TransferOperator<float> host(geom, {4, 4, 4, 4}, nv, Location::Host), device(geom, {4, 4, 4, 4}, nv, Location::Device);
  EXPECT_LT(largest_difference_of_the_results(host, device, 31), 1e-5) << "fine level";
  const CoarseLattice lattice = CoarseLattice::of({4, 4, 4, 6});
  CoarseTransferOperator<float> coarse_host(lattice, 48, {2, 2, 2, 2}, nv, Location::Host, "block"),
      coarse_device(lattice, 48, {2, 2, 2, 2}, nv, Location::Device, "block");
  EXPECT_LT(largest_difference_of_the_results(coarse_host, coarse_device, 32), 1e-5) << "coarse level";
#else
  GTEST_SKIP() << "no CUDA backend";
#endif
}

}  // namespace
}  // namespace lqcd
