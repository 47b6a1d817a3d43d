#pragma once
// A two-level hierarchy small enough for every test of the coarse solves (shared by the block and the
// deflation tests): 4^3 x 8 clover on a rough field, 2^4 blocks, 4 test vectors: a 2 x 2 x 2 x 4 coarse
// lattice (even extents, so the even-odd coarse form applies) with 8 components per site.
#include <gtest/gtest.h>

#include <memory>

#include "dirac/dirac_operator_factory.hpp"
#include "solvers/multigrid/multigrid.hpp"
#include "test_support.hpp"

namespace lqcd::test {

class SmallHierarchyTest : public ::testing::TestWithParam<Location> {
 protected:
  void SetUp() override {
    loc_ = GetParam();
    const Geometry geom = Geometry::single_process({4, 4, 4, 8});
    U_ = std::make_unique<GaugeField<double>>(rough_gauge(geom, loc_));
    FermionParams fp;
    fp.action = FermionAction::Clover;
    fp.wilson.kappa = 0.124;
    fp.csw = 1.7;
    ops_ = std::make_unique<DiracOperators>(make_dirac_operators(*U_, fp));
    mp_.block = {2, 2, 2, 2};
    mp_.test_vectors = 4;
    mp_.setup_iterations = 2;
    mp_.adaptive_cycles = 0;
    mp_.smoother = MultigridSmoother::MR;
    mg_ = std::make_unique<MultigridPreconditioner<double>>(*ops_->full, mp_);
    mg_->setup();
  }
  const CoarseOperator<double>& Dc() const { return mg_->coarse_operator(); }
  Location loc_{};
  MultigridParams mp_;
  std::unique_ptr<GaugeField<double>> U_;
  std::unique_ptr<DiracOperators> ops_;
  std::unique_ptr<MultigridPreconditioner<double>> mg_;
};

// A single-precision two-level hierarchy on the device, for the device tests of the coarse kernels: an 8^4
// rough field, clover kappa = 0.124, c_sw = 1.7, blocks 2 x 4 x 4 x 4 (a 4 x 2 x 2 x 2 coarse lattice: 4 sites
// long in x, so that a site's forward and backward neighbours differ), nv test vectors (2 nv components per
// coarse site). Construct only where device_available().
class DeviceSinglePrecisionHierarchy {
 public:
  explicit DeviceSinglePrecisionHierarchy(int nv)
      : U_(rough_gauge(Geometry::single_process({8, 8, 8, 8}), Location::Device)),
        ops_(make_dirac_operators(U_, clover(), SloppyPrecision::Single)) {
    MultigridParams mp;
    mp.block = {2, 4, 4, 4};
    mp.test_vectors = nv;
    mp.setup_iterations = 4;
    mp.adaptive_cycles = 0;
    mp.levels = 2;
    mg_ = std::make_unique<MultigridPreconditioner<float>>(*ops_.full_single, mp);
    mg_->setup();
  }
  const CoarseOperator<float>& Dc() const { return mg_->coarse_operator(); }

 private:
  static FermionParams clover() {
    FermionParams fp;
    fp.action = FermionAction::Clover;
    fp.wilson.kappa = 0.124;
    fp.csw = 1.7;
    return fp;
  }
  GaugeField<double> U_;
  DiracOperators ops_;
  std::unique_ptr<MultigridPreconditioner<float>> mg_;
};

}  // namespace lqcd::test
