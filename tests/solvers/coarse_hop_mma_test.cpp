// The tensor-core hopping pass of the even-odd coarse operator (solvers/multigrid/coarse_hop_mma.hpp, issue 46)
// against the CUDA-core pass it replaces: the even-odd operator applied to a block of right-hand sides in single
// precision with 16-bit blocks, once each way, agrees to TF32's rounding on every column (and differs from it:
// the tensor cores did run), for widths that fill one to four column tiles and leave lanes over, and for 10
// (a partial tile of rows and of the real K dimension, 2 x 10 = 20 = 2.5 x 8) and 48 components per site, on
// a coarse lattice 4 sites long in x (its forward and backward neighbours apart). The odd sites stay zero.
// The whole-lattice form of the same blocks (apply_full) agrees likewise.
#include <gtest/gtest.h>

#include <cstdlib>
#include <memory>

#include "dirac/dirac_operator_factory.hpp"
#include "solvers/multigrid/coarse_block_field.hpp"
#include "solvers/multigrid/coarse_schur.hpp"
#include "solvers/multigrid/multigrid.hpp"
#include "field_test_support.hpp"
#include "small_hierarchy.hpp"
#include "test_support.hpp"

namespace lqcd {
namespace {

// The even-odd operator's two passes, each made with the tensor cores or not (LQCD_COARSE_MMA, read when the
// operator is made).
std::unique_ptr<CoarseSchurComplement<float>> schur_with(const CoarseOperator<float>& Dc, bool tensor_cores) {
  setenv("LQCD_COARSE_MMA", tensor_cores ? "1" : "0", 1);
  auto s = std::make_unique<CoarseSchurComplement<float>>(Dc, true);
  unsetenv("LQCD_COARSE_MMA");
  s->update();
  return s;
}

TEST(CoarseHopMma, AgreesWithTheCudaCorePassToTf32Rounding) {
  if (!device_available()) GTEST_SKIP() << "no device";
  for (const int nv : {5, 24}) {
    const test::DeviceSinglePrecisionHierarchy h(nv);  // a 4 x 2 x 2 x 2 coarse lattice
    const CoarseOperator<float>& Dc = h.Dc();
    ASSERT_EQ(Dc.dof(), 2 * nv);
    const auto tensor = schur_with(Dc, true), cuda_core = schur_with(Dc, false);
    for (const int n : {4, 5, 12, 16}) {
      SCOPED_TRACE("dof " + std::to_string(Dc.dof()) + ", N = " + std::to_string(n));
      CoarseBlockField<float> in(Dc.lattice(), Dc.dof(), n, Location::Device), got = in.like(), want = in.like();
      for (int j = 0; j < n; ++j) {
        const CoarseField<double> r = test::random_coarse(Dc.lattice(), Dc.dof(), Location::Device, 700 + std::uint64_t(j));
        CoarseField<float> rf = Dc.make_field();
        convert_precision(rf, r);
        pack_rhs(in, j, rf);
      }
      tensor->apply(got, in);
      cuda_core->apply(want, in);
      CoarseField<float> g = Dc.make_field(), w = Dc.make_field();
      double worst = 0, scale = 0, odd = 0;
      for (int j = 0; j < n; ++j) {
        unpack_rhs(g, got, j);
        unpack_rhs(w, want, j);
        const CoarseField<float> gh = g.clone(Location::Host), wh = w.clone(Location::Host);
        const CoarseLattice& L = Dc.lattice();
        for (std::int64_t Y = 0; Y < L.sites; ++Y) {
          int x[4];
          L.coords(Y, x);
          const bool even = (x[0] + x[1] + x[2] + x[3]) % 2 == 0;
          for (int a = 0; a < Dc.dof(); ++a) {
            const std::int64_t i = Y * Dc.dof() + a;
            if (even) {
              worst = std::max(worst, double(abs(gh.view().data[i] - wh.view().data[i])));
              scale = std::max(scale, double(abs(wh.view().data[i])));
            } else {
              odd = std::max(odd, double(abs(gh.view().data[i])));
            }
          }
        }
      }
      EXPECT_GT(scale, 0.0);
      EXPECT_GT(worst, 0.0) << "bit for bit the CUDA-core pass: the tensor-core pass did not run";
      // Two passes, each a sum of 8 x 2 dof products of TF32 factors (2^-11 each): a few 1e-4 of the largest
      // entry where the columns are random.
      EXPECT_LT(worst, 2e-3 * scale) << "the tensor-core pass differs from the CUDA-core pass beyond TF32 rounding";
      EXPECT_EQ(odd, 0.0) << "the odd sites of the even-odd operator's result are not zero";
      // D_c on the whole lattice from the same blocks (apply_full: both parities' passes, then A_0).
      tensor->apply_full(got, in);
      cuda_core->apply_full(want, in);
      double worst_full = 0, scale_full = 0;
      for (int j = 0; j < n; ++j) {
        unpack_rhs(g, got, j);
        unpack_rhs(w, want, j);
        const CoarseField<float> gh = g.clone(Location::Host), wh = w.clone(Location::Host);
        for (std::int64_t i = 0; i < gh.size(); ++i) {
          worst_full = std::max(worst_full, double(abs(gh.view().data[i] - wh.view().data[i])));
          scale_full = std::max(scale_full, double(abs(wh.view().data[i])));
        }
      }
      EXPECT_GT(worst_full, 0.0) << "apply_full: the tensor-core pass did not run";
      EXPECT_LT(worst_full, 2e-3 * scale_full) << "apply_full differs from its CUDA-core form beyond TF32 rounding";
    }
  }
}

}  // namespace
}  // namespace lqcd
