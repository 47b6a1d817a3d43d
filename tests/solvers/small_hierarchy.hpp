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

}  // namespace lqcd::test
