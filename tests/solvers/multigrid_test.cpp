// The multigrid (solvers/multigrid/multigrid.hpp) and its parts: the transfer operator is orthonormal
// (P^dag P = 1) and keeps chirality; the coarse operator built from the links equals P^dag D P formed
// column by column with the fine operator, and the one built by probing, to 1e-12 in double, for
// Wilson, twisted mass, clover and twisted clover, and its even-odd form is exact (in 16-bit fixed
// point to 1e-3), with even and odd coarse extents (2 and 3 colours per direction); its adjoint is
// the adjoint; it is gamma_5-hermitian where D is; the multigrid solve meets the double-precision
// true residual (recomputed here with the fine operator) with a single- or double-precision cycle, in
// fewer iterations than unpreconditioned GCR; host and device take the same iteration counts.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "dirac/dirac_operator_factory.hpp"
#include "field_test_support.hpp"
#include "solvers/multigrid/coarse_field.hpp"
#include "solvers/multigrid/coarse_gcr.hpp"
#include "solvers/multigrid/coarse_schur.hpp"
#include "solvers/multigrid/multigrid.hpp"
#include "solvers/solver.hpp"
#include "test_support.hpp"

namespace lqcd {
namespace {

struct Problem {
  Geometry geom;
  GaugeField<double> U;
  DiracOperators ops;
  Problem(const Dims& dims, Location loc, const FermionParams& fp, SloppyPrecision sloppy = SloppyPrecision::None)
      : geom(Geometry::single_process(dims)), U(test::rough_gauge(geom, loc)), ops(make_dirac_operators(U, fp, sloppy)) {}
};

FermionParams fermion(FermionAction action, double kappa, double mu, double csw) {
  FermionParams p;
  p.action = action;
  p.wilson.kappa = kappa;
  p.wilson.mu = mu;
  p.csw = csw;
  return p;
}

using test::random_coarse;

double coarse_difference(const CoarseField<double>& a, const CoarseField<double>& b) {
  CoarseField<double> d = a.clone(a.location());
  axpy(Complex<double>(-1.0), b, d);
  return std::sqrt(norm2(d) / norm2(b));
}

MultigridParams small_params(const Dims& block, int nv) {
  MultigridParams p;
  p.block = block;
  p.test_vectors = nv;
  p.setup_iterations = 3;
  p.adaptive_cycles = 0;
  p.smoother = MultigridSmoother::MR;  // odd coarse extents too
  p.post_smoothing = 4;
  return p;
}

struct OperatorCase {
  std::string name;
  FermionParams fermion;
  Dims dims;
  Dims block;
};

class CoarseOperatorTest : public ::testing::TestWithParam<std::tuple<Location, int>> {};

std::vector<OperatorCase> operator_cases() {
  return {
      {"wilson", fermion(FermionAction::Wilson, 0.124, 0, 0), {4, 4, 4, 4}, {2, 2, 2, 2}},
      {"twisted_mass", fermion(FermionAction::TwistedMass, 0.124, 0.05, 0), {4, 4, 4, 4}, {2, 2, 2, 2}},
      {"clover", fermion(FermionAction::Clover, 0.124, 0, 1.7), {4, 4, 4, 4}, {2, 2, 2, 2}},
      {"twisted_clover", fermion(FermionAction::Clover, 0.124, 0.05, 1.7), {4, 4, 4, 4}, {2, 2, 2, 2}},
      // coarse extents 3 (three colours in those directions) and 2; blocks 2 x 2 x 4 x 2
      {"wilson_odd_coarse", fermion(FermionAction::Wilson, 0.124, 0, 0), {6, 4, 8, 6}, {2, 2, 4, 2}},
  };
}

TEST_P(CoarseOperatorTest, EqualsGalerkinProductColumnByColumn) {
  const Location loc = std::get<0>(GetParam());
  const OperatorCase oc = operator_cases()[std::size_t(std::get<1>(GetParam()))];
  SCOPED_TRACE(oc.name);
  Problem pr(oc.dims, loc, oc.fermion);
  const LinearOperator<double>& D = *pr.ops.full;
  MultigridPreconditioner<double> mg(D, small_params(oc.block, 3));
  mg.setup();
  const TransferOperator<double>& T = mg.transfer();
  const CoarseOperator<double>& Dc = mg.coarse_operator();
  const int dof = Dc.dof();
  const std::int64_t n = Dc.lattice().sites * dof;

  // Column by column: e_j -> P^dag D P e_j against D_c e_j.
  CoarseField<double> e(Dc.lattice(), dof, Location::Host), got = Dc.make_field(), want = Dc.make_field();
  SpinorField<double> f = T.make_fine(), Df = T.make_fine();
  double worst = 0;
  for (std::int64_t j = 0; j < n; ++j) {
    set_zero(e);
    e.view().data[j] = Complex<double>(1.0);
    const CoarseField<double> ed = e.clone(loc);
    Dc.apply(got, ed);
    T.prolong(f, ed);
    D.apply(Df, f);
    T.restrict_to(want, Df);
    worst = std::max(worst, coarse_difference(got, want));
  }
  EXPECT_LT(worst, 1e-12) << "largest relative difference of a column";

  // The adjoint: <u, D_c v> = <D_c^dag u, v>.
  const CoarseField<double> u = random_coarse(Dc.lattice(), dof, loc, 5), v = random_coarse(Dc.lattice(), dof, loc, 6);
  CoarseField<double> Dv = Dc.make_field(), Ddu = Dc.make_field();
  Dc.apply(Dv, v);
  Dc.apply_dagger(Ddu, u);
  const Complex<double> a = dot(u, Dv), b = dot(Ddu, v);
  EXPECT_LT(abs(a - b), 1e-12 * abs(a));

  // The coarse GCR with device scalars (solvers/multigrid/coarse_gcr.hpp) solves D_c x = D_c v to its tolerance,
  // checked with the recomputed residual.
  {
    CoarseGcr<double> gcr(v, 8);
    GcrControl gc;
    gc.tolerance = 1e-10;
    gc.max_iterations = 2000;
    gc.restart = 8;
    CoarseField<double> x = Dc.make_field(), Dx = Dc.make_field();
    const GcrOutcome o =
        gcr.solve([&Dc](CoarseField<double>& out, const CoarseField<double>& in) { Dc.apply(out, in); }, x, Dv, gc);
    EXPECT_TRUE(o.converged && o.true_residual) << o.iterations << " iterations, residual " << o.relative_residual;
    Dc.apply(Dx, x);
    EXPECT_LE(coarse_difference(Dx, Dv), 1e-10);
  }

  // The two constructions agree: build() took the links (D has a hopping part), probing applies D
  // to every colour's probes and knows nothing of D's form.
  ASSERT_TRUE(D.hopping_part().has_value());
  CoarseOperator<double> probed(Dc.lattice(), dof, loc);
  EXPECT_EQ(probed.build_by_probing(D, T), T.aggregation().colours * dof);
  CoarseField<double> Pv = Dc.make_field();
  probed.apply(Pv, v);
  EXPECT_LT(coarse_difference(Pv, Dv), 1e-12);

  // The even-odd form (even coarse extents): for b = D_c v, S v_e equals the prepared right-hand side,
  // and reconstruct() gives v_o back from v_e.
  if (CoarseSchurComplement<double>::possible(Dc.lattice())) {
    CoarseSchurComplement<double> schur(Dc, false);
    schur.update();
    CoarseField<double> rhs = Dc.make_field(), Sv = Dc.make_field(), ve = v.clone(Location::Host);
    for (std::int64_t Y = 0; Y < Dc.lattice().sites; ++Y) {
      int X[4];
      Dc.lattice().coords(Y, X);
      if ((X[0] + X[1] + X[2] + X[3]) % 2 == 1)
        for (int k = 0; k < dof; ++k) ve.view().data[Y * dof + k] = Complex<double>();
    }
    CoarseField<double> x = ve.clone(loc);
    schur.prepare(rhs, Dv);
    schur.apply(Sv, x);
    EXPECT_LT(coarse_difference(Sv, rhs), 1e-12) << "S v_e against b-hat_e - H-hat_eo b-hat_o";
    // With the hopping blocks in 16-bit fixed point: S to the codes' resolution (2^-15 of each
    // block's largest entry), not exactly.
    CoarseSchurComplement<double> half(Dc, true);
    half.update();
    CoarseField<double> Sh = Dc.make_field();
    half.apply(Sh, x);
    const double half_error = coarse_difference(Sh, Sv);
    EXPECT_LT(half_error, 1e-3);
    EXPECT_GT(half_error, 1e-12) << "the half-precision blocks are not the double ones";
    schur.reconstruct(x);
    EXPECT_LT(coarse_difference(x, v), 1e-12) << "v_o from v_e";
  }

  // gamma_5-hermiticity: D_c^dag = G D_c G with G = +1 on the first n_v components of a site, -1 on
  // the rest, where D is gamma_5-hermitian (mu = 0); the twisted mass flips the sign of mu instead.
  if (oc.fermion.wilson.mu == 0) {
    CoarseField<double> gu = u.clone(Location::Host);
    for (std::int64_t i = 0; i < gu.size(); ++i)
      if (i % dof >= dof / 2) gu.view().data[i] = -gu.view().data[i];
    CoarseField<double> gud = gu.clone(loc), Dgu = Dc.make_field();
    Dc.apply(Dgu, gud);
    CoarseField<double> h = Dgu.clone(Location::Host);
    for (std::int64_t i = 0; i < h.size(); ++i)
      if (i % dof >= dof / 2) h.view().data[i] = -h.view().data[i];
    EXPECT_LT(coarse_difference(h.clone(loc), Ddu), 1e-12);
  }
}

std::string operator_case_name(const ::testing::TestParamInfo<std::tuple<Location, int>>& info) {
  return std::string(to_string(std::get<0>(info.param))) + "_" + operator_cases()[std::size_t(std::get<1>(info.param))].name;
}

INSTANTIATE_TEST_SUITE_P(Cases, CoarseOperatorTest,
                         ::testing::Combine(::testing::ValuesIn(test::locations()), ::testing::Range(0, 5)),
                         operator_case_name);

class MultigridTest : public ::testing::TestWithParam<Location> {};

// The construction from the links restricts its self blocks' probe images 12 columns at a time: with 8
// test vectors (16 columns: a tile of 12 and one of 4) it equals the construction by probing. A column
// of the second tile written into the first tile's place would differ by O(1).
TEST(CoarseOperatorTiles, LinksBuildEqualsProbingOverSeveralTiles) {
  for (const Location loc : test::locations()) {
    SCOPED_TRACE(to_string(loc));
    Problem pr({4, 4, 4, 4}, loc, fermion(FermionAction::Clover, 0.124, 0, 1.7));
    const LinearOperator<double>& D = *pr.ops.full;
    MultigridPreconditioner<double> mg(D, small_params({2, 2, 2, 2}, 8));
    mg.setup();
    const TransferOperator<double>& T = mg.transfer();
    const CoarseOperator<double>& Dc = mg.coarse_operator();
    ASSERT_EQ(Dc.dof(), 16);
    CoarseOperator<double> links(Dc.lattice(), Dc.dof(), loc), probed(Dc.lattice(), Dc.dof(), loc);
    EXPECT_EQ(links.build_from_links(D, T), Dc.dof());
    probed.build_by_probing(D, T);
    const CoarseField<double> v = random_coarse(Dc.lattice(), Dc.dof(), loc, 5);
    CoarseField<double> a = Dc.make_field(), b = Dc.make_field();
    links.apply(a, v);
    probed.apply(b, v);
    EXPECT_LT(coarse_difference(a, b), 1e-12);
  }
}

TEST_P(MultigridTest, TransferIsOrthonormalAndKeepsChirality) {
  const Location loc = GetParam();
  Problem pr({4, 4, 4, 8}, loc, fermion(FermionAction::Wilson, 0.12, 0, 0));
  MultigridPreconditioner<double> mg(*pr.ops.full, small_params({2, 2, 2, 4}, 4));
  mg.setup();
  const TransferOperator<double>& T = mg.transfer();
  const CoarseField<double> e = random_coarse(T.aggregation().coarse, T.coarse_dof(), loc, 9);
  SpinorField<double> f = T.make_fine();
  CoarseField<double> back = T.make_coarse();
  T.prolong(f, e);
  T.restrict_to(back, f);
  EXPECT_LT(coarse_difference(back, e), 1e-13) << "P^dag P = 1";
  EXPECT_NEAR(norm2(f), norm2(e), 1e-12 * norm2(e)) << "P is an isometry";
  // The first n_v components of every coarse site prolong to spins 0, 1 only (gamma_5 = +1).
  CoarseField<double> upper = e.clone(Location::Host);
  for (std::int64_t i = 0; i < upper.size(); ++i)
    if (i % T.coarse_dof() >= T.test_vectors()) upper.view().data[i] = Complex<double>();
  T.prolong(f, upper.clone(loc));
  const LexicographicSpinor lex = to_lexicographic(f);
  double lower_spins = 0;
  for (const auto& s : lex)
    for (int spin = 2; spin < 4; ++spin)
      for (int c = 0; c < 3; ++c) lower_spins = std::max(lower_spins, abs(s.s[spin].c[c]));
  EXPECT_EQ(lower_spins, 0.0);
}

// The block orthonormalisation (solvers/multigrid/block_orthonormalisation.hpp) is the QR factorisation of each
// aggregate's vectors, V = Q R with R upper triangular and positive on its diagonal, i.e. what
// Gram-Schmidt in the order of the vectors gives: with P made of Q, (P^dag v_k)(Y, chi, l) = R[l][k] is 0
// for l > k and real positive for l = k, and P P^dag v_k = v_k. A vector that is zero stays zero, and
// the others are not disturbed by it. Both precisions (single: CholeskyQR2 with a double Gram matrix).
template <typename Real>
void check_block_qr(Location loc, double tol) {
  const Geometry geom = Geometry::single_process({4, 4, 4, 8});
  const int nv = 6, zero = 3;
  TransferOperator<Real> T(geom, {2, 2, 2, 4}, nv, loc);
  std::vector<SpinorField<Real>> v;
  for (int k = 0; k < nv; ++k) {
    v.push_back(T.make_fine());
    T.random_field(v.back(), 77, k);
    if (k == 2) axpy(Complex<double>(0.999), v[0], v.back());  // nearly parallel to vector 0
    if (k == zero) set_zero(v.back());
    T.set_vector(k, v.back());
  }
  T.orthonormalise();
  CoarseField<Real> c = T.make_coarse();
  SpinorField<Real> back = T.make_fine(), q = T.make_fine();
  for (int k = 0; k < nv; ++k) {
    SCOPED_TRACE("vector " + std::to_string(k));
    T.restrict_to(c, v[k]);
    T.prolong(back, c);
    axpy(Complex<double>(-1.0), v[k], back);
    if (k != zero) {
      EXPECT_LT(std::sqrt(norm2(back) / norm2(v[k])), tol) << "v_k in the span of q_0 .. q_k";
    }
    const CoarseField<Real> h = c.clone(Location::Host);
    double above = 0, below = 0, diagonal_im = 0, smallest_diagonal = 1e300;
    for (std::int64_t t = 0; t < h.size(); ++t) {
      const int l = int(t % nv);
      const Complex<Real> z = h.view().data[t];
      if (l > k) below = std::max(below, double(abs(z)));
      if (l < k) above = std::max(above, double(abs(z)));
      if (l == k) {
        diagonal_im = std::max(diagonal_im, std::abs(double(z.im)));
        smallest_diagonal = std::min(smallest_diagonal, double(z.re));
      }
    }
    EXPECT_LT(below, tol) << "R is upper triangular";
    if (k == zero) {
      EXPECT_EQ(smallest_diagonal, 0.0);
      T.get_vector(k, q);
      EXPECT_EQ(norm2(q), 0.0) << "a zero vector stays zero";
      continue;
    }
    EXPECT_GT(smallest_diagonal, 0.0) << "R's diagonal positive";
    EXPECT_LT(diagonal_im, tol) << "R's diagonal real";
    if (k > 0) {
      EXPECT_GT(above, 0.01) << "the vectors were not orthogonal to start with";
    }
  }
  // Q^dag Q = 1 on every aggregate: P^dag P = 1 on the components of the non-zero vectors.
  CoarseField<Real> e = T.make_coarse(), e_back = T.make_coarse();
  CoarseField<double> eh = random_coarse(T.aggregation().coarse, T.coarse_dof(), Location::Host, 5);
  CoarseField<Real> er(T.aggregation().coarse, T.coarse_dof(), Location::Host);
  for (std::int64_t t = 0; t < eh.size(); ++t)
    er.view().data[t] = t % nv == zero ? Complex<Real>() : Complex<Real>(eh.view().data[t]);
  e = er.clone(loc);
  SpinorField<Real> f = T.make_fine();
  T.prolong(f, e);
  T.restrict_to(e_back, f);
  axpy(Complex<double>(-1.0), e, e_back);
  EXPECT_LT(std::sqrt(norm2(e_back) / norm2(e)), tol) << "P^dag P = 1";
}

TEST_P(MultigridTest, BlockOrthonormalisationIsTheQrFactorisation) {
  check_block_qr<double>(GetParam(), 1e-13);
  check_block_qr<float>(GetParam(), 5e-5);
}

// Solves with the cycle in double and in single precision; returns the outer iterations.
int solve_and_check(Location loc, bool single) {
  Problem pr({8, 8, 8, 8}, loc, fermion(FermionAction::Clover, 0.1255, 0, 1.0),
             single ? SloppyPrecision::Single : SloppyPrecision::None);
  MultigridParams mp;
  mp.block = {4, 4, 4, 4};
  mp.test_vectors = 8;
  mp.setup_iterations = 20;
  mp.adaptive_cycles = 1;
  mp.coarse_half = single;  // the single-precision cycle with the coarse blocks in 16-bit fixed point
  SolverParams sp;
  sp.tolerance = 1e-10;
  sp.max_iterations = 200;
  const SpinorField<double> b = to_spinor_field(test::random_spinor(pr.geom, 21), pr.geom, loc);
  SpinorField<double> x = pr.ops.full->make_field();
  set_zero(x);
  SolverResult r;
  if (single) {
    MultigridPreconditioner<float> mg(*pr.ops.full_single, mp);
    mg.setup();
    r = solve_multigrid(*pr.ops.full, mg, x, b, sp);
    EXPECT_GT(mg.timings().coarse_iterations, 0);
  } else {
    MultigridPreconditioner<double> mg(*pr.ops.full, mp);
    mg.setup();
    r = solve_multigrid(*pr.ops.full, mg, x, b, sp);
  }
  EXPECT_TRUE(r.converged);
  EXPECT_LE(test::relative_residual(*pr.ops.full, x, b), 1e-10);
  EXPECT_LE(r.true_residual, 1e-10);

  // Unpreconditioned GCR on the same system needs more iterations (each is one application, where
  // a multigrid iteration is several plus a coarse solve: the count only shows the preconditioner works).
  SolverParams gp = sp;
  gp.type = SolverType::GCR;
  gp.max_iterations = 5000;
  SpinorField<double> y = pr.ops.full->make_field();
  set_zero(y);
  const SolverResult g = solve(*pr.ops.full, y, b, gp);
  EXPECT_LT(3 * r.iterations, g.iterations) << "multigrid " << r.iterations << ", GCR " << g.iterations;
  return r.iterations;
}

TEST_P(MultigridTest, SolveMeetsTheDoubleTolerance) {
  solve_and_check(GetParam(), false);
  solve_and_check(GetParam(), true);
}

// The 8^4 clover problem's settings (three_levels, HalfTransfersKeepTheSolve): blocks 2^4, 6 test vectors
// from 10 setup iterations, two Schwarz post-smoothing sweeps; solves to 1e-10 in at most 200 iterations.
MultigridParams eight_four_params(int levels) {
  MultigridParams mp = small_params({2, 2, 2, 2}, 6);
  mp.setup_iterations = 10;
  mp.smoother = MultigridSmoother::Schwarz;
  mp.post_smoothing = 2;
  mp.levels = levels;
  return mp;
}
SolverParams eight_four_solver() {
  SolverParams sp;
  sp.tolerance = 1e-10;
  sp.max_iterations = 200;
  return sp;
}

// Three levels on 8^4 (blocks 2^4, coarse 4^4, coarse blocks 2^4, third level 2^4): the third level's
// operator equals P_c^dag D_c P_c column by column to 1e-12, and the K-cycle solve meets the double
// tolerance with the cycle in double (the third level by GCR) and in single precision (the third level
// by its dense inverse, the default at this size). Returns the single-precision iterations.
int three_levels(Location loc) {
  Problem pr({8, 8, 8, 8}, loc, fermion(FermionAction::Clover, 0.1255, 0, 1.0), SloppyPrecision::Single);
  MultigridParams mp = eight_four_params(3);
  mp.coarse_test_vectors = 4;
  mp.coarse_setup_iterations = 10;
  const SolverParams sp = eight_four_solver();
  const SpinorField<double> b = to_spinor_field(test::random_spinor(pr.geom, 23), pr.geom, loc);
  {
    MultigridParams gcr = mp;
    gcr.coarsest_direct_max = 0;
    MultigridPreconditioner<double> mg(*pr.ops.full, gcr);
    mg.setup();
    const ThirdLevel<double>* L = mg.third_level();
    EXPECT_TRUE(L != nullptr && mg.info().levels == 3);
    if (!L) return -1;
    const CoarseOperator<double>& Dc = mg.coarse_operator();
    const int dof = L->op.dof();
    EXPECT_EQ(mg.info().coarsest, (Dims{2, 2, 2, 2}));
    EXPECT_EQ(dof, 8);
    CoarseField<double> e(L->op.lattice(), dof, Location::Host), got = L->op.make_field(), want = L->op.make_field();
    CoarseField<double> f = Dc.make_field(), Df = Dc.make_field();
    double worst = 0;
    for (std::int64_t j = 0; j < L->op.lattice().sites * dof; ++j) {
      set_zero(e);
      e.view().data[j] = Complex<double>(1.0);
      const CoarseField<double> ed = e.clone(loc);
      L->op.apply(got, ed);
      L->transfer.prolong(f, ed);
      Dc.apply(Df, f);
      L->transfer.restrict_to(want, Df);
      worst = std::max(worst, coarse_difference(got, want));
    }
    EXPECT_LT(worst, 1e-12) << "third-level operator against P_c^dag D_c P_c";

    SpinorField<double> x = pr.ops.full->make_field();
    set_zero(x);
    const SolverResult r = solve_multigrid(*pr.ops.full, mg, x, b, sp);
    EXPECT_TRUE(r.converged);
    EXPECT_LE(test::relative_residual(*pr.ops.full, x, b), 1e-10);
    EXPECT_GT(mg.timings().coarsest_iterations, 0);
    EXPECT_FALSE(mg.info().coarsest_direct);
  }
  MultigridPreconditioner<float> mg(*pr.ops.full_single, mp);
  mg.setup();
  EXPECT_TRUE(mg.info().coarsest_direct);
  SpinorField<double> x = pr.ops.full->make_field();
  set_zero(x);
  const SolverResult r = solve_multigrid(*pr.ops.full, mg, x, b, sp);
  EXPECT_TRUE(r.converged);
  EXPECT_LE(test::relative_residual(*pr.ops.full, x, b), 1e-10);
  return r.iterations;
}

TEST_P(MultigridTest, ThreeLevelsGalerkinAndSolve) { three_levels(GetParam()); }

// multigrid.transfer_half: the single-precision cycle's transfers from 16-bit test vectors take the solve
// to the double tolerance in at most one more outer iteration than the 32-bit vectors (8^4 clover, two
// levels); the double-precision cycle refuses them, naming the key.
TEST_P(MultigridTest, HalfTransfersKeepTheSolve) {
  const Location loc = GetParam();
  Problem pr({8, 8, 8, 8}, loc, fermion(FermionAction::Clover, 0.1255, 0, 1.0), SloppyPrecision::Single);
  MultigridParams mp = eight_four_params(2);
  const SolverParams sp = eight_four_solver();
  const SpinorField<double> b = to_spinor_field(test::random_spinor(pr.geom, 24), pr.geom, loc);
  int iterations[2] = {0, 0};
  for (const bool half : {false, true}) {
    mp.transfer_half = half;
    MultigridPreconditioner<float> mg(*pr.ops.full_single, mp);
    mg.setup();
    SpinorField<double> x = pr.ops.full->make_field();
    set_zero(x);
    const SolverResult r = solve_multigrid(*pr.ops.full, mg, x, b, sp);
    EXPECT_TRUE(r.converged) << half;
    EXPECT_LE(test::relative_residual(*pr.ops.full, x, b), 1e-10) << half;
    iterations[half] = r.iterations;
  }
  EXPECT_LE(iterations[1], iterations[0] + 1);
  mp.transfer_half = true;
  try {
    MultigridPreconditioner<double> mg(*pr.ops.full, mp);
    ADD_FAILURE() << "the double-precision cycle took 16-bit transfers";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("transfer_half"), std::string::npos) << e.what();
  }
}

// Schwarz sweeps x <- x - S D x as the whole setup of the test vectors (setup_sweeps, no GCR iterations,
// no adaptive cycles) take them towards D's near-null space: ||D v|| / ||v|| of every vector falls from
// 1.12 (the random start) to 0.65 after 4 sweeps (0.56 after 100; 40 GCR(8) iterations reach 0.46, this
// heavy quark's floor). Sweeps that did nothing, or added S D x, would leave it or raise it.
TEST_P(MultigridTest, SetupSweepsTakeTheTestVectorsTowardsTheNearNullSpace) {
  const Location loc = GetParam();
  Problem pr({8, 8, 8, 8}, loc, fermion(FermionAction::Clover, 0.1255, 0, 1.0));
  const LinearOperator<double>& D = *pr.ops.full;
  MultigridParams mp = small_params({2, 2, 2, 2}, 6);
  mp.setup_iterations = 0;
  mp.smoother = MultigridSmoother::Schwarz;
  const auto ratios = [&](int sweeps) {
    MultigridParams p = mp;
    p.setup_sweeps = sweeps;
    MultigridPreconditioner<double> mg(D, p);
    mg.setup();
    std::vector<double> q;
    SpinorField<double> Dv = D.make_field();
    for (const SpinorField<double>& v : mg.test_vectors()) {
      D.apply(Dv, v);
      q.push_back(std::sqrt(norm2(Dv) / norm2(v)));
    }
    return q;
  };
  const std::vector<double> random = ratios(0), swept = ratios(4);

  ASSERT_EQ(random.size(), swept.size());
  for (std::size_t k = 0; k < random.size(); ++k)
    EXPECT_LT(swept[k], 0.7 * random[k]) << "vector " << k << ": ||D v|| / ||v|| " << swept[k] << " after 4 sweeps, "
                                         << random[k] << " from the random start";
}


TEST(MultigridDevice, SameIterationsAsHost) {
  if (!device_available()) GTEST_SKIP() << "no device";
  EXPECT_EQ(solve_and_check(Location::Device, true), solve_and_check(Location::Host, true));
  EXPECT_EQ(three_levels(Location::Device), three_levels(Location::Host));
}

// coarse_mu_factor f: the coarse operator differs from the Galerkin one by exactly i (f - 1) 2 kappa mu G
// on the diagonal (G = +1 / -1 on the two chiralities), nothing for mu = 0; the solve still meets the
// tolerance (the outer iteration uses the fine operator).
TEST_P(MultigridTest, CoarseMuFactorScalesTheCoarseTwistedMassOnly) {
  const Location loc = GetParam();
  for (const double mu : {0.0, 0.05}) {
    SCOPED_TRACE(mu);
    const double kappa = 0.124;
    Problem pr({4, 4, 4, 4}, loc, fermion(mu != 0 ? FermionAction::TwistedMass : FermionAction::Wilson, kappa, mu, 0));
    MultigridParams p = small_params({2, 2, 2, 2}, 3);
    MultigridPreconditioner<double> plain(*pr.ops.full, p);
    plain.setup();
    p.coarse_mu_factor = 4.0;
    MultigridPreconditioner<double> scaled(*pr.ops.full, p);
    scaled.setup();
    const CoarseOperator<double>& A = plain.coarse_operator();
    const CoarseField<double> v = random_coarse(A.lattice(), A.dof(), loc, 12);
    CoarseField<double> a = A.make_field(), b = A.make_field();
    A.apply(a, v);
    scaled.coarse_operator().apply(b, v);
    // want = a + i 3 (2 kappa mu) G v
    CoarseField<double> want = v.clone(Location::Host);
    const double m = 3.0 * 2 * kappa * mu;
    for (std::int64_t i = 0; i < want.size(); ++i) {
      const Complex<double> z = want.view().data[i];
      const double g = i % A.dof() < A.dof() / 2 ? 1.0 : -1.0;
      want.view().data[i] = Complex<double>(-g * m * z.im, g * m * z.re);
    }
    CoarseField<double> w = want.clone(loc);
    axpy(Complex<double>(1.0), a, w);
    EXPECT_LT(coarse_difference(b, w), 1e-12);
  }
}

TEST(MultigridParamsTest, BadValuesNameTheirParameter) {
  const Geometry g = Geometry::single_process({8, 8, 8, 8});
  EXPECT_NE(test::error_of([&] { TransferOperator<double>(g, {3, 4, 4, 4}, 4, Location::Host); })
                .find("multigrid.block = 3x4x4x4"),
            std::string::npos);
  EXPECT_NE(test::error_of([&] { TransferOperator<double>(g, {8, 4, 4, 4}, 4, Location::Host); }).find("at least twice"),
            std::string::npos);
  MultigridParams p;
  p.test_vectors = 0;
  EXPECT_NE(test::error_of([&] { check_multigrid_params(p); }).find("test_vectors = 0:"), std::string::npos);
  p = {};
  p.coarse_tolerance = 1.5;
  EXPECT_NE(test::error_of([&] { check_multigrid_params(p); }).find("coarse_tolerance = 1.5:"), std::string::npos);
  p = {};
  p.coarse_mu_factor = 0.5;
  EXPECT_NE(test::error_of([&] { check_multigrid_params(p); }).find("coarse_mu_factor = 0.5:"), std::string::npos);
  p = {};
  p.levels = 4;
  EXPECT_NE(test::error_of([&] { check_multigrid_params(p); }).find("levels = 4:"), std::string::npos);
  p = {};
  p.levels = 1;
  EXPECT_NE(test::error_of([&] { check_multigrid_params(p); }).find("levels = 1:"), std::string::npos);
  p = {};
  p.coarse_test_vectors = 65;
  EXPECT_NE(test::error_of([&] { check_multigrid_params(p); }).find("coarse_test_vectors = 65:"), std::string::npos);
  // A coarse lattice (4^4 here) that the coarse block does not tile twice.
  EXPECT_NE(test::error_of([&] {
              CoarseTransferOperator<double>(CoarseLattice::of({4, 4, 4, 4}), 8, {4, 2, 2, 2}, 2, Location::Host,
                                             "multigrid.coarse_block");
            }).find("multigrid.coarse_block = 4x2x2x2"),
            std::string::npos);
}

// The memory estimate that refuses a multigrid too large for the device (app/bench, the commands) counts
// outer_recycle's pairs (two fields each, u_i = A c_i and c_i, solvers/krylov/flexible_gcr.hpp) per
// right-hand side, and its message names them.
TEST(MultigridMemory, RecycledPairsAreCountedAndNamed) {
  MultigridParams p;
  const double plain = multigrid_bytes_per_site(p, 4, 1), plain3 = multigrid_bytes_per_site(p, 4, 1, 3);
  EXPECT_EQ(multigrid_memory_summary(p).find("recycled"), std::string::npos) << multigrid_memory_summary(p);
  p.outer_recycle = 8;
  const double single_field = 24.0 * 4;  // a spinor in single precision, per site
  EXPECT_DOUBLE_EQ(multigrid_bytes_per_site(p, 4, 1) - plain, 2 * 8 * single_field);
  EXPECT_DOUBLE_EQ(multigrid_bytes_per_site(p, 4, 1, 3) - plain3, 3 * 2 * 8 * single_field);
  EXPECT_NE(multigrid_memory_summary(p).find("the outer GCR(16) with 8 recycled pairs per right-hand side"),
            std::string::npos)
      << multigrid_memory_summary(p);
}

INSTANTIATE_TEST_SUITE_P(Locations, MultigridTest, ::testing::ValuesIn(test::locations()),
                         [](const auto& info) { return std::string(to_string(info.param)); });

}  // namespace
}  // namespace lqcd


namespace lqcd {
namespace {

// levels = 0 (the default) takes three levels where the coarse lattice is at least 8 sites in every
// direction and the coarse block tiles it (32^4 and 48^4 with 4^4 blocks), else two; a number given
// is kept.
TEST(MultigridParamsTest, DefaultLevelsFollowTheCoarseLattice) {
  MultigridParams p;
  EXPECT_EQ(p.levels, 0);
  EXPECT_EQ(multigrid_levels(p, {32, 32, 32, 32}), 3);
  EXPECT_EQ(multigrid_levels(p, {48, 48, 48, 96}), 3);
  EXPECT_EQ(multigrid_levels(p, {16, 16, 16, 32}), 2);  // coarse 4^3 x 8
  EXPECT_EQ(multigrid_levels(p, {24, 24, 24, 24}), 2);  // coarse 6^4
  p.coarse_block = {3, 2, 2, 2};
  EXPECT_EQ(multigrid_levels(p, {32, 32, 32, 32}), 2);  // 3 does not divide the coarse 8
  p = {};
  p.levels = 2;
  EXPECT_EQ(multigrid_levels(p, {32, 32, 32, 32}), 2);
  p.levels = 3;
  EXPECT_EQ(multigrid_levels(p, {8, 8, 8, 8}), 3);
}

}  // namespace
}  // namespace lqcd
