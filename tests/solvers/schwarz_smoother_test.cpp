// The Schwarz smoother's two ways to apply the block operators D_B (solvers/multigrid/schwarz_smoother.hpp): from
// D's links and site term on the blocks of one colour (SchwarzBlockOperatorKernel) and through D
// itself on a field masked to those blocks. Both are D_B exactly, so the smoothed fields agree to
// rounding, for every operator that gives its parts (Wilson, twisted mass, clover, twisted clover).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "dirac/dirac_operator_factory.hpp"
#include "field_test_support.hpp"
#include "solvers/multigrid/aggregation.hpp"
#include "solvers/multigrid/schwarz_smoother.hpp"
#include "test_support.hpp"

namespace lqcd {
namespace {

// D with its parts hidden: the smoother then applies D itself (as for an operator that does not say
// what it is).
class OpaqueOperator : public LinearOperator<double> {
 public:
  explicit OpaqueOperator(const LinearOperator<double>& D) : D_(D) {}
  void apply(SpinorField<double>& out, const SpinorField<double>& in) const override { D_.apply(out, in); }
  void apply_dagger(SpinorField<double>& out, const SpinorField<double>& in) const override {
    D_.apply_dagger(out, in);
  }
  Subset subset() const override { return D_.subset(); }
  const Geometry& geometry() const override { return D_.geometry(); }
  Location location() const override { return D_.location(); }
  double flops_per_site() const override { return D_.flops_per_site(); }

 private:
  const LinearOperator<double>& D_;
};

struct Case {
  FermionAction action;
  double mu, csw;
  Dims dims, block;
  DiracOperators operators(const GaugeField<double>& U) const {
    FermionParams fp;
    fp.action = action;
    fp.wilson.kappa = 0.124;
    fp.wilson.mu = mu;
    fp.csw = csw;
    return make_dirac_operators(U, fp);
  }
};

// Wilson, twisted mass, clover and twisted clover, on blocks of different shapes.
const Case kCases[] = {
    {FermionAction::Wilson, 0.0, 0.0, {8, 8, 8, 8}, {2, 2, 2, 2}},
    {FermionAction::TwistedMass, 0.05, 0.0, {8, 4, 4, 8}, {2, 2, 2, 4}},
    {FermionAction::Clover, 0.0, 1.7, {8, 8, 4, 8}, {4, 2, 2, 2}},
    {FermionAction::Clover, 0.04, 1.3, {4, 8, 8, 4}, {2, 4, 2, 2}},  // twisted clover
};

// A case's lattice, rough links, operators and blocks.
struct CaseSetup {
  CaseSetup(const Case& c, Location loc)
      : geom(Geometry::single_process(c.dims)),
        U(test::rough_gauge(geom, loc)),
        ops(c.operators(U)),
        tables(Aggregation::make(geom, c.block, "block"), loc) {}
  const LinearOperator<double>& D() const { return *ops.full; }
  Geometry geom;
  GaugeField<double> U;
  DiracOperators ops;
  AggregationTables tables;
};

class SchwarzSmootherTest : public ::testing::TestWithParam<Location> {};

TEST_P(SchwarzSmootherTest, BlockOperatorsFromTheLinksEqualTheMaskedOperator) {
  const Location loc = GetParam();
  for (const Case& c : kCases) {
    SCOPED_TRACE(std::to_string(int(c.action)) + " mu " + std::to_string(c.mu));
    const CaseSetup setup(c, loc);
    const Geometry& geom = setup.geom;
    const LinearOperator<double>& D = setup.D();
    ASSERT_TRUE(D.hopping_part().has_value());
    const OpaqueOperator opaque(D);
    ASSERT_FALSE(opaque.hopping_part().has_value());
    const Aggregation& agg = setup.tables.aggregation();
    SchwarzSmoother<double> from_links(D, agg, 3), through_D(opaque, agg, 3);
    const SpinorField<double> r = to_spinor_field(test::random_spinor(geom, 5), geom, loc);
    SpinorField<double> a = D.make_field(), b = D.make_field();
    from_links.smooth(a, r, 2);
    through_D.smooth(b, r, 2);
    EXPECT_LT(test::relative_difference(a, b), 1e-13);
    EXPECT_GT(std::sqrt(norm2(a)), 0.1 * std::sqrt(norm2(r)));  // it did something
  }
}

// SAP is a stationary iteration: each sweep multiplies the residual r - D e by the same error-propagation
// operator, so the residual norm must fall by a factor per sweep, for every action. Measured on these
// fields (3 MR steps per block): 0.28-0.29 for the first sweep, 0.16-0.30 for the next two; the bound 0.4
// leaves a margin for rounding and other platforms, and a smoother that only "does something" (a wrong
// sign, a block solve that is not D_B's, one colour skipped) fails it.
TEST_P(SchwarzSmootherTest, EverySweepReducesTheResidualByAFactor) {
  const Location loc = GetParam();
  constexpr double kMaxFactorPerSweep = 0.4;
  for (const Case& c : kCases) {
    SCOPED_TRACE(std::to_string(int(c.action)) + " mu " + std::to_string(c.mu));
    const CaseSetup setup(c, loc);
    const Geometry& geom = setup.geom;
    const LinearOperator<double>& D = setup.D();
    SchwarzSmoother<double> sap(D, setup.tables.aggregation(), 3);
    const SpinorField<double> r = to_spinor_field(test::random_spinor(geom, 5), geom, loc);
    double previous = std::sqrt(norm2(r));
    for (int sweeps = 1; sweeps <= 3; ++sweeps) {
      SpinorField<double> e = D.make_field(), De = D.make_field();
      sap.smooth(e, r, sweeps);
      D.apply(De, e);
      axpy(-1.0, r, De);  // De - r
      const double residual = std::sqrt(norm2(De));
      std::printf("    sweeps %d: |r - D e| / |r| = %.4f, factor %.4f\n", sweeps, residual / std::sqrt(norm2(r)),
                  residual / previous);
      EXPECT_LT(residual, kMaxFactorPerSweep * previous) << "sweep " << sweeps;
      previous = residual;
    }
  }
}

// The block smooth (several fields; on the device up to four sources per fused launch, each thread
// doing its site for all of them) gives every field what smoothing it alone gives: 5 fields make
// one launch of 4 and one of 1, 3 fields one of 3. A kernel that mixed the sources' shared-memory
// blocks or step lengths would be off by O(1).
TEST_P(SchwarzSmootherTest, SeveralFieldsTogetherEqualEachAlone) {
  const Location loc = GetParam();
  for (const Case& c : {kCases[0], kCases[2], kCases[3]}) {
    SCOPED_TRACE(std::to_string(int(c.action)) + " mu " + std::to_string(c.mu));
    const CaseSetup setup(c, loc);
    const Geometry& geom = setup.geom;
    const LinearOperator<double>& D = setup.D();
    SchwarzSmoother<double> sap(D, setup.tables.aggregation(), 3);
    for (const int n : {3, 5}) {
      std::vector<SpinorField<double>> r, e, work;
      std::vector<SpinorField<double>*> ep, wp;
      std::vector<const SpinorField<double>*> rp;
      for (int i = 0; i < n; ++i) {
        r.push_back(to_spinor_field(test::random_spinor(geom, 11 + std::uint64_t(i)), geom, loc));
        e.push_back(D.make_field());
        work.push_back(D.make_field());
      }
      for (int i = 0; i < n; ++i) {
        rp.push_back(&r[std::size_t(i)]);
        ep.push_back(&e[std::size_t(i)]);
        wp.push_back(&work[std::size_t(i)]);
      }
      const int applications = sap.smooth(ep, rp, wp, 2);
      EXPECT_EQ(applications, n * (3 + 2 * 2 * 3));  // 3 of D, 2 sweeps x 2 colours x 3 MR steps, per field
      for (int i = 0; i < n; ++i) {
        SpinorField<double> alone = D.make_field();
        sap.smooth(alone, r[std::size_t(i)], 2);
        EXPECT_LT(test::relative_difference(e[std::size_t(i)], alone), 1e-13) << "field " << i << " of " << n;
        EXPECT_GT(std::sqrt(norm2(alone)), 0.1 * std::sqrt(norm2(r[std::size_t(i)])));
      }
    }
  }
}

// Smoothing from a guess z (the multigrid's post-smoothing) is z + the smoothing of r - D z from zero:
// each colour's residual r - D e, formed on that colour's blocks only from D's links and site term
// (BlockResidualKernel), equals the one through D on those blocks. Also through D itself (the opaque
// operator), and for several fields at once. A residual with a hop dropped, a wrong sign or the other
// colour's blocks would be off by O(1).
TEST_P(SchwarzSmootherTest, SmoothingFromAGuessIsTheGuessPlusTheSmoothedResidual) {
  const Location loc = GetParam();
  for (const Case& c : kCases) {
    SCOPED_TRACE(std::to_string(int(c.action)) + " mu " + std::to_string(c.mu));
    const CaseSetup setup(c, loc);
    const Geometry& geom = setup.geom;
    const LinearOperator<double>& D = setup.D();
    const OpaqueOperator opaque(D);
    const SpinorField<double> r = to_spinor_field(test::random_spinor(geom, 21), geom, loc);
    const SpinorField<double> z = to_spinor_field(test::random_spinor(geom, 22), geom, loc);
    SpinorField<double> res = D.make_field(), want = D.make_field();
    D.apply(res, z);
    xpay(r, Complex<double>(-1.0), res);  // r - D z
    for (const LinearOperator<double>* op : {static_cast<const LinearOperator<double>*>(&D),
                                             static_cast<const LinearOperator<double>*>(&opaque)}) {
      SchwarzSmoother<double> sap(*op, setup.tables.aggregation(), 3);
      sap.smooth(want, res, 2);
      axpy(Complex<double>(1.0), z, want);
      SpinorField<double> got = D.make_field();
      got.copy_from(z);
      EXPECT_EQ(sap.smooth(got, r, 2, true), 4 + 2 * 2 * 3);  // 4 residuals, 2 sweeps x 2 colours x 3 MR steps
      EXPECT_LT(test::relative_difference(got, want), 1e-12) << (op == &D ? "from the links" : "through D");
      // several fields together, from their guesses
      std::vector<SpinorField<double>> e, work;
      for (int i = 0; i < 3; ++i) {
        e.push_back(D.make_field());
        e.back().copy_from(z);
        work.push_back(D.make_field());
      }
      sap.smooth({&e[0], &e[1], &e[2]}, {&r, &r, &r}, {&work[0], &work[1], &work[2]}, 2, true);
      for (int i = 0; i < 3; ++i) EXPECT_LT(test::relative_difference(e[std::size_t(i)], want), 1e-12) << "field " << i;
    }
  }
}

// Four different sources through the fused kernel two and four per launch give what one per launch
// gives (double precision: the float kernels are the same template). A source's block sum or step
// length taken from another source, or a correction lost, would be off by O(1).
TEST_P(SchwarzSmootherTest, SourcesPerLaunchDoNotChangeTheResult) {
  if (GetParam() != Location::Device) GTEST_SKIP() << "the fused kernels run on the device only";
  const Case& c = kCases[2];  // clover, 4x2x2x2 blocks
  const CaseSetup setup(c, GetParam());
  const Geometry& geom = setup.geom;
  const LinearOperator<double>& D = setup.D();
  std::vector<SpinorField<double>> r, work;
  for (int i = 0; i < 4; ++i) {
    r.push_back(to_spinor_field(test::random_spinor(geom, 31 + std::uint64_t(i)), geom, GetParam()));
    work.push_back(D.make_field());
  }
  const auto smooth = [&](const char* per_launch) {
    const test::ScopedEnv form("LQCD_SCHWARZ_RHS", per_launch);
    const test::ScopedEnv kernel("LQCD_SCHWARZ_SWEEP", "0");  // the block-MR kernel, not the colour sweep
    std::vector<SpinorField<double>> e;
    for (int i = 0; i < 4; ++i) e.push_back(D.make_field());
    SchwarzSmoother<double> sap(D, setup.tables.aggregation(), 3);
    sap.smooth({&e[0], &e[1], &e[2], &e[3]}, {&r[0], &r[1], &r[2], &r[3]}, {&work[0], &work[1], &work[2], &work[3]}, 2);
    return e;
  };
  const std::vector<SpinorField<double>> one = smooth("1");
  for (const char* per_launch : {"2", "4"}) {
    const std::vector<SpinorField<double>> got = smooth(per_launch);
    for (int i = 0; i < 4; ++i)
      EXPECT_LT(test::relative_difference(got[std::size_t(i)], one[std::size_t(i)]), 1e-13)
          << "field " << i << ", " << per_launch << " per launch";
  }
}

// The colour-sweep kernel (schwarz_colour_sweep.hpp: the block's links, site term and residuals in shared
// memory, two sources in flight, each colour's right-hand side r - D e formed in the kernel) gives what
// the portable form gives (a pass over the lattice per step, the residual by BlockResidualKernel), for
// the four actions, 1, 4 and 5 fields (an idle slot in the last turn), from zero and from a guess. A hop
// read from the wrong shared site, a residual's sign, a slot's sums or a turn's source mixed up would be
// off by O(1).
TEST_P(SchwarzSmootherTest, ColourSweepKernelEqualsThePortableForm) {
  if (GetParam() != Location::Device) GTEST_SKIP() << "the colour-sweep kernel runs on the device only";
  for (const Case& c : kCases) {
    SCOPED_TRACE(std::to_string(int(c.action)) + " mu " + std::to_string(c.mu));
    const CaseSetup setup(c, GetParam());
    const Geometry& geom = setup.geom;
    const LinearOperator<double>& D = setup.D();
    std::vector<SpinorField<double>> r, z;
    for (int i = 0; i < 5; ++i) {
      r.push_back(to_spinor_field(test::random_spinor(geom, 41 + std::uint64_t(i)), geom, GetParam()));
      z.push_back(to_spinor_field(test::random_spinor(geom, 51 + std::uint64_t(i)), geom, GetParam()));
    }
    const auto smooth = [&](const char* fused, int n, bool from_guess) {
      const test::ScopedEnv form("LQCD_SCHWARZ_FUSED", fused);
      SchwarzSmoother<double> sap(D, setup.tables.aggregation(), 3);
      std::vector<SpinorField<double>> e, work;
      std::vector<SpinorField<double>*> ep, wp;
      std::vector<const SpinorField<double>*> rp;
      for (int i = 0; i < n; ++i) {
        e.push_back(D.make_field());
        if (from_guess) e.back().copy_from(z[std::size_t(i)]);
        work.push_back(D.make_field());
      }
      for (int i = 0; i < n; ++i) {
        ep.push_back(&e[std::size_t(i)]);
        wp.push_back(&work[std::size_t(i)]);
        rp.push_back(&r[std::size_t(i)]);
      }
      sap.smooth(ep, rp, wp, 2, from_guess);
      EXPECT_EQ(sap.colour_sweeps() > 0, std::string(fused) == "1");
      return e;
    };
    for (const int n : {1, 4, 5})
      for (const bool from_guess : {false, true}) {
        const std::vector<SpinorField<double>> got = smooth("1", n, from_guess), want = smooth("0", n, from_guess);
        for (int i = 0; i < n; ++i)
          EXPECT_LT(test::relative_difference(got[std::size_t(i)], want[std::size_t(i)]), 1e-12)
              << "field " << i << " of " << n << (from_guess ? ", from a guess" : ", from zero");
      }
  }
}

INSTANTIATE_TEST_SUITE_P(Locations, SchwarzSmootherTest, ::testing::ValuesIn(test::locations()),
                         [](const auto& info) { return std::string(to_string(info.param)); });

}  // namespace
}  // namespace lqcd
