// The coarse operator on N right-hand sides at once (issue 46, first step; solvers/coarse_operator.hpp,
// fields/coarse_block_field.hpp): packing and unpacking a right-hand side is the identity, and the block
// application gives each right-hand side its single application bit for bit (the same sums in the same
// order), on the host and on the device, for N = 1, 3, 12 and 64.
#include <gtest/gtest.h>

#include <vector>

#include "core/site_random.hpp"
#include "dirac/dirac_operator_factory.hpp"
#include "fields/coarse_block_field.hpp"
#include "solvers/multigrid.hpp"
#include "field_test_support.hpp"
#include "test_support.hpp"

namespace lqcd {
namespace {

using test::random_coarse;

// Largest |a - b| over the components (0 when equal bit for bit up to the sign of zero).
double largest_difference(const CoarseField<double>& a, const CoarseField<double>& b) {
  const CoarseField<double> ah = a.clone(Location::Host), bh = b.clone(Location::Host);
  double worst = 0;
  for (std::int64_t i = 0; i < ah.size(); ++i) worst = std::max(worst, abs(ah.view().data[i] - bh.view().data[i]));
  return worst;
}

class CoarseBlockOperatorTest : public ::testing::TestWithParam<Location> {};

TEST_P(CoarseBlockOperatorTest, EachRightHandSideEqualsItsSingleApplication) {
  const Location loc = GetParam();
  const Geometry geom = Geometry::single_process({4, 4, 4, 8});
  const GaugeField<double> U = test::rough_gauge(geom, loc);
  FermionParams fp;
  fp.action = FermionAction::Clover;
  fp.wilson.kappa = 0.124;
  fp.csw = 1.7;
  const DiracOperators ops = make_dirac_operators(U, fp);
  MultigridParams mp;
  mp.block = {2, 2, 2, 2};
  mp.test_vectors = 4;
  mp.setup_iterations = 2;
  mp.adaptive_cycles = 0;
  mp.smoother = MultigridSmoother::MR;
  MultigridPreconditioner<double> mg(*ops.full, mp);
  mg.setup();
  const CoarseOperator<double>& Dc = mg.coarse_operator();
  for (const int n : {1, 3, 12, 64}) {
    SCOPED_TRACE("N = " + std::to_string(n));
    CoarseBlockField<double> in(Dc.lattice(), Dc.dof(), n, loc), out(Dc.lattice(), Dc.dof(), n, loc);
    std::vector<CoarseField<double>> u;
    for (int j = 0; j < n; ++j) {
      u.push_back(random_coarse(Dc.lattice(), Dc.dof(), loc, 100 + std::uint64_t(j)));
      pack_rhs(in, j, u.back());
    }
    Dc.apply(out, in);
    CoarseField<double> got = Dc.make_field(), back = Dc.make_field(), want = Dc.make_field();
    double worst = 0, roundtrip = 0;
    for (int j = 0; j < n; ++j) {
      unpack_rhs(back, in, j);
      roundtrip = std::max(roundtrip, largest_difference(back, u[std::size_t(j)]));
      unpack_rhs(got, out, j);
      Dc.apply(want, u[std::size_t(j)]);
      worst = std::max(worst, largest_difference(got, want));
    }
    EXPECT_EQ(roundtrip, 0.0);
    EXPECT_EQ(worst, 0.0) << "a right-hand side differs from its single application";
  }
  CoarseBlockField<double> three(Dc.lattice(), Dc.dof(), 3, loc), four(Dc.lattice(), Dc.dof(), 4, loc);
  EXPECT_THROW(Dc.apply(four, three), Error);
}

INSTANTIATE_TEST_SUITE_P(Locations, CoarseBlockOperatorTest, ::testing::ValuesIn(test::locations()),
                         [](const auto& info) { return std::string(to_string(info.param)); });

}  // namespace
}  // namespace lqcd
