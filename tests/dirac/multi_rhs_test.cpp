// The multi-right-hand-side hopping term (issue 4): N spinor fields interleaved in one block
// (fields/spinor_block_field.hpp) go in and out bit for bit, and the multi-RHS kernel gives for every
// rhs what the one-rhs WilsonHoppingKernel gives on it (the same code per rhs: identical in double,
// 1e-6 in single; half precision within 1e-3 of double), with and without dagger and the twisted
// site term, for N = 1, 3, 12, on the host and on the device. Not yet on a decomposed lattice.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <type_traits>
#include <vector>

#include "core/dispatch.hpp"
#include "core/error_type.hpp"
#include "dirac/wilson_even_odd.hpp"
#include "dirac/wilson_even_odd_multi_rhs.hpp"
#include "dirac/wilson_kernels.hpp"
#include "dirac/wilson_multi_rhs.hpp"
#include "dirac/wilson_operator.hpp"
#include "field_test_support.hpp"
#include "fields/spinor_blas.hpp"
#include "fields/spinor_block_field.hpp"

namespace lqcd {
namespace {

// ||a - b|| / ||b||, compared in double.
template <typename A, typename B>
double relative_to(const SpinorField<A>& a, const SpinorField<B>& b) {
  SpinorField<double> d = test::converted<double>(a);
  const SpinorField<double> bd = test::converted<double>(b);
  axpy(Complex<double>(-1.0), bd, d);
  return std::sqrt(norm2(d) / norm2(bd));
}

class MultiRhsTest : public ::testing::TestWithParam<Location> {};

template <typename Real>
void expect_round_trip_is_exact(const Geometry& g, Location loc) {
  for (Subset subset : {Subset::Full, Subset::Odd}) {
    const int n = 3;
    const std::vector<SpinorField<Real>> fields = test::random_fields<Real>(g, loc, subset, n, 11);
    SpinorBlockField<Real> block(g, loc, n, subset);
    pack_rhs<Real>(block, fields);
    std::vector<SpinorField<Real>> back;
    for (int j = 0; j < n; ++j) back.push_back(fields[0].like());
    unpack_rhs<Real>(back, block);
    for (int j = 0; j < n; ++j) {
      SCOPED_TRACE(std::string(precision_name<Real>()) + ", rhs " + std::to_string(j));
      EXPECT_EQ(relative_to(back[std::size_t(j)], fields[std::size_t(j)]), 0.0);
      // The block's loads are the fields' (on the host: the same values, decoded the same way).
      if (loc == Location::Host) {
        const SpinorView<Real> f = fields[std::size_t(j)].view();
        const SpinorBlockView<Real> b = block.view();
        for (std::int64_t i = 0; i < fields[0].sites(); i += 7) {
          const int p = f.parity_of(i);
          const std::int64_t s = f.cb_of(i);
          const auto u = f.load(p, s), w = b.load(p, s, j);
          for (int k = 0; k < 12; ++k) {
            EXPECT_EQ(u.s[k / 3].c[k % 3].re, w.s[k / 3].c[k % 3].re);
            EXPECT_EQ(u.s[k / 3].c[k % 3].im, w.s[k / 3].c[k % 3].im);
          }
          // The documented layout: element s * N + j of a field with stride stride * N, i.e. component k
          // of (p, s, j) at block(p) + (k * stride + s) * N + j, or in pairs (single precision) pair
          // k / 2 at pair word (k / 2 * stride + s) * N + j.
          if constexpr (!is_fixed_point_v<Real>) {
            const std::int64_t stride = b.flat.stride / n;
            EXPECT_EQ(stride, f.stride);
            constexpr bool paired = stored_in_pairs_v<Real, 12>;
            EXPECT_EQ(paired, (std::is_same_v<Real, float>));
            for (int k = 0; k < 12; ++k) {
              const std::int64_t in_block = paired ? 2 * ((k / 2 * stride + s) * n + j) + k % 2 : (k * stride + s) * n + j;
              EXPECT_EQ(b.flat.block(p)[in_block].re, f.block(p)[component_offset(paired, k, stride, s)].re);
              EXPECT_EQ(in_block, component_offset(paired, k, stride * n, s * n + j));
            }
          } else {
            EXPECT_EQ(b.flat.norm_block(p)[s * n + j], f.norm_block(p)[s]);
          }
        }
      }
    }
  }
}

TEST_P(MultiRhsTest, PackAndUnpackAreExact) {
  const Geometry g = Geometry::single_process({4, 4, 6, 8});
  expect_round_trip_is_exact<double>(g, GetParam());
  expect_round_trip_is_exact<float>(g, GetParam());
  expect_round_trip_is_exact<Half>(g, GetParam());
}

// The multi-RHS kernel on n right-hand sides against the one-rhs kernel in the same storage, and (with
// double_tolerance > 0) against the one-rhs kernel in double with 18-real links.
template <typename Real, int LC>
void expect_kernel_matches_one_rhs(const GaugeField<double>& U, int n, double tolerance, double double_tolerance) {
  const Geometry& g = U.geometry();
  const Location loc = U.location();
  const GaugeField<Real, LC> Uc = convert_links<Real, LC>(U);
  const FermionBoundary boundary = WilsonParams{}.boundary;
  const std::vector<SpinorField<double>> in_d = test::random_fields<double>(g, loc, Subset::Odd, n, 100);
  const std::vector<SpinorField<double>> x_d = test::random_fields<double>(g, loc, Subset::Even, n, 200);
  std::vector<SpinorField<Real>> in, x;
  for (int j = 0; j < n; ++j) {
    in.push_back(test::converted<Real>(in_d[std::size_t(j)]));
    x.push_back(test::converted<Real>(x_d[std::size_t(j)]));
  }
  SpinorBlockField<Real> in_b(g, loc, n, Subset::Odd), x_b(g, loc, n, Subset::Even), out_b(g, loc, n, Subset::Even);
  pack_rhs<Real>(in_b, in);
  pack_rhs<Real>(x_b, x);
  for (int twisted = 0; twisted < 2; ++twisted)
    for (int dagger = 0; dagger < 2; ++dagger) {
      const double alpha = twisted ? -0.12 : 1.0, c0 = 1.0, c5 = twisted ? 2 * 0.12 * 0.05 : 0.0;
      hop_multi_rhs(Uc, out_b, in_b, twisted ? &x_b : nullptr, boundary, alpha, c0, c5, dagger);
      for (int j = 0; j < n; ++j) {
        SCOPED_TRACE(std::string(precision_name<Real>()) + ", " + std::to_string(2 * LC) + " reals, n " +
                     std::to_string(n) + ", rhs " + std::to_string(j) + ", twisted " + std::to_string(twisted) +
                     ", dagger " + std::to_string(dagger));
        SpinorField<Real> got(g, loc, Subset::Even), want(g, loc, Subset::Even);
        unpack_rhs(got, out_b, j);
        const auto& in_j = in[std::size_t(j)];
        const auto& x_j = x[std::size_t(j)];
        const WilsonHoppingKernel<Real, LC> k{Uc.view(), in_j.view(), want.view(), x_j.view(), boundary,
                                              alpha,     c0,          c5,          twisted,     dagger};
        for_each(loc, want.sites(), k);
        if (tolerance == 0) EXPECT_EQ(relative_to(got, want), 0.0);
        else EXPECT_LE(relative_to(got, want), tolerance);
        if (double_tolerance > 0) {
          SpinorField<double> ref(g, loc, Subset::Even);
          const WilsonHoppingKernel<double, 9> kd{U.view(), in_d[std::size_t(j)].view(), ref.view(),
                                                  x_d[std::size_t(j)].view(), boundary, alpha, c0, c5, twisted,
                                                  dagger};
          for_each(loc, ref.sites(), kd);
          EXPECT_LE(relative_to(got, ref), double_tolerance);
        }
      }
    }
}

TEST_P(MultiRhsTest, EveryRhsIsWhatTheOneRhsKernelGives) {
  const Geometry g = Geometry::single_process({4, 4, 6, 8});
  const Location loc = GetParam();
  GaugeField<double> U(g, loc);
  set_hot_gauge(U, 5);
  // Double: the same code path per rhs, exact on the host (1e-15 on the device, where the compiler
  // may contract the two kernels' multiply-adds differently).
  const double exact = loc == Location::Host ? 0.0 : 1e-15;
  for (int n : {1, 3, 12}) {
    expect_kernel_matches_one_rhs<double, 6>(U, n, exact, 1e-13);
    expect_kernel_matches_one_rhs<float, 6>(U, n, 1e-6, 1e-5);
    expect_kernel_matches_one_rhs<Half, 6>(U, n, 1e-6, 1e-3);
  }
  expect_kernel_matches_one_rhs<float, 9>(U, 12, 1e-6, 1e-5);
}

// The even-odd operator on a block (WilsonEvenOddMultiRHS) against WilsonEvenOddOperator on each rhs:
// M_hat and M_hat^dag, Wilson and twisted mass, 12-real links in each precision.
template <typename Real>
void expect_even_odd_matches_one_rhs(const GaugeField<double>& U, double mu, double tolerance) {
  const Geometry& g = U.geometry();
  const Location loc = U.location();
  const GaugeField<Real, 6> Uc = convert_links<Real, 6>(U);
  WilsonParams prm;
  prm.kappa = 0.13;
  prm.mu = mu;
  const int n = 4;
  const WilsonEvenOddMultiRHS<Real, 6> Mb(Uc, prm, n);
  const WilsonEvenOddOperator<Real, 6> M(Uc, prm);
  const std::vector<SpinorField<Real>> in = test::random_fields<Real>(g, loc, Subset::Even, n, 300);
  SpinorBlockField<Real> in_b = Mb.make_block(), out_b = Mb.make_block();
  pack_rhs<Real>(in_b, in);
  for (int dagger = 0; dagger < 2; ++dagger) {
    if (dagger) Mb.apply_dagger(out_b, in_b);
    else Mb.apply(out_b, in_b);
    for (int j = 0; j < n; ++j) {
      SpinorField<Real> got = M.make_field(), want = M.make_field();
      unpack_rhs(got, out_b, j);
      if (dagger) M.apply_dagger(want, in[std::size_t(j)]);
      else M.apply(want, in[std::size_t(j)]);
      EXPECT_LE(relative_to(got, want), tolerance)
          << precision_name<Real>() << ", mu " << mu << ", dagger " << dagger << ", rhs " << j;
    }
  }
  EXPECT_EQ(Mb.flops_per_site(), M.flops_per_site());

  // The fused CG steps against the unfused sequence (BlockOperator's defaults).
  const BlockOperator<Real>& base = Mb;
  const std::vector<double> a = {0.7, -1.3, 0.0, 2.5};
  SpinorBlockField<Real> fused = Mb.make_block(), plain = Mb.make_block();
  const std::vector<double> n_fused = Mb.apply_norm2(fused, in_b);
  const std::vector<double> n_plain = base.BlockOperator<Real>::apply_norm2(plain, in_b);
  pack_rhs<Real>(out_b, test::random_fields<Real>(g, loc, Subset::Even, n, 400));
  fused.copy_from(out_b);
  plain.copy_from(out_b);
  const std::vector<double> m_fused = Mb.apply_dagger_axpy_norm2(a, in_b, fused);
  const std::vector<double> m_plain = base.BlockOperator<Real>::apply_dagger_axpy_norm2(a, in_b, plain);
  for (int j = 0; j < n; ++j) {
    const std::size_t u = std::size_t(j);
    // Half: the fused sums see the values as computed, the unfused ones the values as stored.
    const double sums = std::is_same_v<Real, double> ? 1e-12 : 1e-5;
    EXPECT_NEAR(n_fused[u], n_plain[u], sums * n_plain[u]) << precision_name<Real>() << ", rhs " << j;
    EXPECT_NEAR(m_fused[u], m_plain[u], sums * m_plain[u])
        << precision_name<Real>() << ", rhs " << j;
    SpinorField<Real> f = M.make_field(), q = M.make_field();
    unpack_rhs(f, fused, j);
    unpack_rhs(q, plain, j);
    // Single and half: the unfused path rounds M^dag in to the storage precision before the axpy.
    const double close = std::is_same_v<Real, double> ? tolerance + 1e-15 : 1e-4;
    EXPECT_LE(relative_to(f, q), close)
        << precision_name<Real>() << ", rhs " << j;
  }
}

TEST_P(MultiRhsTest, EvenOddOperatorIsTheOneRhsOperatorOnEveryRhs) {
  const Geometry g = Geometry::single_process({4, 4, 6, 8});
  const Location loc = GetParam();
  GaugeField<double> U(g, loc);
  set_hot_gauge(U, 8);
  const bool host = loc == Location::Host;
  for (double mu : {0.0, 0.05}) {
    expect_even_odd_matches_one_rhs<double>(U, mu, host ? 0.0 : 1e-15);
    expect_even_odd_matches_one_rhs<float>(U, mu, 1e-6);
    expect_even_odd_matches_one_rhs<Half>(U, mu, host ? 1e-6 : 1e-3);  // device: a rounding may flip a 16-bit value
  }
}

// The sites' visiting order (SiteIndexer::tiled_site, forced with LQCD_MULTI_RHS_T_TILE) changes
// which thread takes which site, not what a site gets: every tile gives the storage order's fields
// bit for bit, and the fused sums up to their summation order. A tile that does not divide T is an
// error naming the variable.
template <typename Real>
void expect_every_tile_gives_the_same_result(const GaugeField<double>& U) {
  const Geometry& g = U.geometry();
  const Location loc = U.location();
  const GaugeField<Real, 6> Uc = convert_links<Real, 6>(U);
  WilsonParams prm;
  prm.kappa = 0.13;
  prm.mu = 0.05;
  const int n = 3;
  const WilsonEvenOddMultiRHS<Real, 6> Mb(Uc, prm, n);
  SpinorBlockField<Real> in = Mb.make_block();
  pack_rhs<Real>(in, test::random_fields<Real>(g, loc, Subset::Even, n, 500));
  auto run = [&](const char* tile, SpinorBlockField<Real>& out, SpinorBlockField<Real>& fused) {
    const test::ScopedEnv env("LQCD_MULTI_RHS_T_TILE", tile);
    Mb.apply(out, in);
    return Mb.apply_norm2(fused, in);
  };
  SpinorBlockField<Real> out1 = Mb.make_block(), fused1 = Mb.make_block();
  const std::vector<double> sums1 = run("1", out1, fused1);
  for (const char* tile : {"2", "4", "8"}) {
    SpinorBlockField<Real> out = Mb.make_block(), fused = Mb.make_block();
    const std::vector<double> sums = run(tile, out, fused);
    for (int j = 0; j < n; ++j) {
      SpinorField<Real> a(g, loc, Subset::Even), b(g, loc, Subset::Even);
      unpack_rhs(a, out, j);
      unpack_rhs(b, out1, j);
      EXPECT_EQ(relative_to(a, b), 0.0) << precision_name<Real>() << ", t_tile " << tile << ", rhs " << j;
      unpack_rhs(a, fused, j);
      unpack_rhs(b, fused1, j);
      EXPECT_EQ(relative_to(a, b), 0.0) << precision_name<Real>() << ", fused, t_tile " << tile << ", rhs " << j;
      EXPECT_NEAR(sums[std::size_t(j)], sums1[std::size_t(j)], 1e-12 * sums1[std::size_t(j)]);
    }
  }
  SpinorBlockField<Real> out = Mb.make_block();
  const test::ScopedEnv env("LQCD_MULTI_RHS_T_TILE", "3");
  const std::string e = test::error_of([&] { Mb.apply(out, in); });
  EXPECT_NE(e.find("LQCD_MULTI_RHS_T_TILE=3: expected a divisor of the local time extent 8"), std::string::npos) << e;
}

TEST_P(MultiRhsTest, EveryVisitingOrderGivesTheSameResult) {
  const Geometry g = Geometry::single_process({4, 4, 6, 8});
  GaugeField<double> U(g, GetParam());
  set_hot_gauge(U, 9);
  expect_every_tile_gives_the_same_result<double>(U);
  expect_every_tile_gives_the_same_result<float>(U);
  expect_every_tile_gives_the_same_result<Half>(U);
}

TEST_P(MultiRhsTest, ADecomposedLatticeIsRefused) {
  Geometry g = Geometry::single_process({4, 4, 4, 4});
  g.halo = {0, 0, 0, 1};
  const Location loc = GetParam();
  const GaugeField<float, 6> U(g, loc);
  SpinorBlockField<float> in(g, loc, 2, Subset::Odd), out(g, loc, 2, Subset::Even);
  const std::string e = test::error_of([&] { hop_multi_rhs(U, out, in, nullptr, WilsonParams{}.boundary, 1.0, 1.0, 0.0, 0); });
  EXPECT_NE(e.find("multi-RHS dslash: not yet on a decomposed lattice"), std::string::npos) << e;
}

INSTANTIATE_TEST_SUITE_P(Locations, MultiRhsTest, ::testing::ValuesIn(test::locations()),
                         [](const auto& info) { return info.param == Location::Host ? "Host" : "Device"; });

}  // namespace
}  // namespace lqcd
