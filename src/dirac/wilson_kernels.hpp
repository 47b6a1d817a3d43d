#pragma once
// The Wilson hopping term and the site terms of the Wilson and twisted-mass operators, as a site
// kernel for host and device (DESIGN.md conventions):
//   (H psi)(x) = sum_mu [ (1 - gamma_mu) U_mu(x) psi(x + mu) + (1 + gamma_mu) U_mu(x - mu)^dag psi(x - mu) ],
// with the fermion boundary phase e^{i theta_mu} on hops across the lattice boundary in +mu (and
// its conjugate in -mu). H^dag = gamma_5 H gamma_5 swaps the projectors (dagger = 1).
// The kernel computes out = (c0 + i c5 gamma_5) x + alpha H in on the sites of `out`, reading `in`
// at the opposite parity: with x = in, c0 = 1, c5 = 2 kappa mu, alpha = -kappa this is the
// twisted-mass operator in hopping form M = 1 + 2 i kappa mu gamma_5 - kappa H.
// FLOPs per output site (QUDA's count for the hopping term): 1320.

#include <type_traits>

#include "dirac/fermion_boundary.hpp"
#include "fields/gauge_view.hpp"
#include "fields/spinor_field.hpp"
#include "math/gamma.hpp"
#include "math/half_spinor.hpp"

namespace lqcd {

template <typename T>
LQCD_HOST_DEVICE ColorSpinor<T> color_multiply(const SU3<T>& u, const ColorSpinor<T>& psi) {
  ColorSpinor<T> r;
  LQCD_UNROLL
  for (int s = 0; s < 4; ++s) r.s[s] = u * psi.s[s];
  return r;
}
template <typename T>
LQCD_HOST_DEVICE ColorSpinor<T> color_adj_multiply(const SU3<T>& u, const ColorSpinor<T>& psi) {
  ColorSpinor<T> r;
  LQCD_UNROLL
  for (int s = 0; s < 4; ++s) r.s[s] = adj_mul(u, psi.s[s]);
  return r;
}

// The hopping term (H psi)(x) at site xc (checkerboard index s) of parity p, with the links of U and
// the neighbours read from `in` at parity 1 - p: any spinor source with
//   ColorSpinor<T> load(int parity, std::int64_t cb) const
//   HalfSpinor<T> load_projected(int parity, std::int64_t cb, int mu, int sign, T& scale) const
//                  (spin_project_half of load(), divided by scale; the hop applies the scale in
//                  add_reconstructed: half precision's norm, else 1)
// (a SpinorView, or one right-hand side of a SpinorBlockView, wilson_multi_rhs_kernels.hpp), so that
// the single- and the multi-right-hand-side kernels share this one implementation. Each hop is
// spin-projected first (half_spinor.hpp): two colour vectors are multiplied by the link instead of
// four. Where mu is split over processes (halo depth r_mu > 0), the hops leaving the box are left
// out: FaceHopKernel adds them from the neighbours' messages, so this only reads sites inside the box
// (periodic wrap where mu is not split) and needs no halo-aware indexing. H^dag with dagger = 1.
// RealPhases: every boundary phase is +-1 (FermionBoundary::real), which wilson_hop checks.
template <bool RealPhases, typename T, typename Links, typename Source>
LQCD_HOST_DEVICE ColorSpinor<T> wilson_hop_with(const Links& U, const Source& in, const FermionBoundary& boundary,
                                                int dagger, int p, std::int64_t s, const int xc[4], T weight) {
  const int sign = dagger ? -1 : 1;
  const SiteIndexer& idx = U.idx;
  // No branch guards a hop where the phases are real: a hop left out (split) reads the site itself
  // and adds it with factor 0, and a phase +-1 is a factor of the scale the accumulation applies
  // anyway. So the 8 hops are one straight block that the compiler schedules as a whole (the loads of
  // a later hop ahead of the arithmetic of an earlier one) and in which it computes shared addresses
  // once; with the kernels' register cap raised to 128 for it, the half-precision hopping term ran
  // 15% faster (docs/performance.md). A complex phase is applied to h in a branch, as before.
  // Neighbours by their lexicographic index in 32-bit arithmetic (SiteIndexer::from: a process holds
  // fewer than 2^31 sites): lex(x +- mu) = lex(x) +- stride_mu, wrapped at the box's faces; the
  // checkerboard index is half of it.
  const unsigned lex_x = 2 * unsigned(s) + unsigned(xc[0] & 1);
  unsigned stride = 1;
  ColorSpinor<T> acc{};
  LQCD_UNROLL
  for (int mu = 0; mu < 4; ++mu) {
    const bool split = idx.r[mu] > 0;
    const unsigned wrap = unsigned(idx.n[mu] - 1) * stride;
    const Complex<double> phase = boundary.phase[mu];
    // forward: (1 - gamma_mu) U_mu(x) psi(x + mu)
    {
      const bool face = xc[mu] == idx.n[mu] - 1;
      const bool left_out = split && face;
      const unsigned lex = face ? lex_x - wrap : lex_x + stride;
      T scale, link_scale;
      const HalfSpinor<T> psi = in.load_projected(1 - p, left_out ? s : std::int64_t(lex >> 1), mu, sign, scale);
      HalfSpinor<T> h = color_multiply(U.load_unscaled(mu, p, s, link_scale), psi);
      const bool across = xc[mu] + idx.off[mu] == idx.gn[mu] - 1;
      T factor = left_out ? T(0) : weight;
      if constexpr (RealPhases) factor = across ? factor * T(phase.re) : factor;
      else if (across) h = Complex<T>(phase) * h;
      add_reconstructed(acc, mu, sign, h, scale * link_scale * factor);
    }
    // backward: (1 + gamma_mu) U_mu(x - mu)^dag psi(x - mu)
    {
      const bool face = xc[mu] == 0;
      const bool left_out = split && face;
      const unsigned lex = face ? lex_x + wrap : lex_x - stride;
      const std::int64_t sz = left_out ? s : std::int64_t(lex >> 1);
      T scale, link_scale;
      const HalfSpinor<T> psi = in.load_projected(1 - p, sz, mu, -sign, scale);
      HalfSpinor<T> h = color_adj_multiply(U.load_unscaled(mu, 1 - p, sz, link_scale), psi);
      const bool across = xc[mu] + idx.off[mu] == 0;
      T factor = left_out ? T(0) : weight;
      if constexpr (RealPhases) factor = across ? factor * T(phase.re) : factor;
      else if (across) h = Complex<T>(conj(phase)) * h;
      add_reconstructed(acc, mu, -sign, h, scale * link_scale * factor);
    }
    stride *= unsigned(idx.n[mu]);
  }
  return acc;
}

// weight H in (weight: the kernels' alpha, applied in the accumulation's scale rather than as 24
// multiplications of the result).
template <typename T, typename Links, typename Source>
LQCD_HOST_DEVICE ColorSpinor<T> wilson_hop(const Links& U, const Source& in, const FermionBoundary& boundary,
                                           int dagger, int p, std::int64_t s, const int xc[4], T weight = T(1)) {
  if (boundary.real()) return wilson_hop_with<true, T>(U, in, boundary, dagger, p, s, xc, weight);
  return wilson_hop_with<false, T>(U, in, boundary, dagger, p, s, xc, weight);
}

// The kernels' result at one site: (c0 + i c5 gamma_5) x + alpha H in (c5 -> -c5 with dagger; without
// has_x only alpha H in), x read from any spinor source at the site itself (as wilson_hop's `in`).
template <typename T, typename Links, typename Source>
LQCD_HOST_DEVICE ColorSpinor<T> wilson_site_result(const Links& U, const Source& in, const Source& x,
                                                   const FermionBoundary& boundary, double alpha, double c0,
                                                   double c5, int has_x, int dagger, int p, std::int64_t s,
                                                   const int xc[4]) {
  ColorSpinor<T> r = wilson_hop<T>(U, in, boundary, dagger, p, s, xc, T(alpha));
  if (has_x) {
    const ColorSpinor<T> v = x.load(p, s);
    r += Complex<T>(T(c0)) * v;
    if (c5 != 0.0) r += Complex<T>(0, T(dagger ? -c5 : c5)) * apply_gamma(kGamma5, v);
  }
  return r;
}

// Real = double, float or Half: the storage precision of links and spinors; the arithmetic is in
// T = compute_t<Real> (float for Half; the coefficients are given in double and rounded once, at use).
// LinkComponents: 9, 6 or 4 (18-, 12- or 8-real links, the rest rebuilt in registers; gauge_view.hpp).
template <typename Real, int LinkComponents = 9>
struct WilsonHoppingKernel {
  // Occupancy over registers (exec_cuda.cuh). Since the hops have no branches (wilson_hop_with) the
  // compiler keeps several hops' loads in flight and wants registers for them. Single and half
  // precision with compressed links: two blocks of 256 threads per SM (128 registers); three (80
  // registers) spilled, and two measured half/12 +5%, single/12 +10% against three on the H100.
  // Double precision, and single with 18-real links: one block (up to 255 registers); two spilled and
  // measured 15% (double/18) and 5% (single/18) slower (thirteenth session, docs/performance.md).
  using T = compute_t<Real>;
  static constexpr int kMinBlocksPerSM = std::is_same_v<Real, double> || LinkComponents == 9 ? 1 : 2;
  GaugeView<Real, LinkComponents> U;
  SpinorView<Real> in;
  SpinorView<Real> out;
  SpinorView<Real> x;  // site-term input (same sites as out); ignored when has_x = 0
  FermionBoundary boundary;
  double alpha;
  double c0, c5;
  int has_x;
  int dagger;
  // The sites' visiting order on a parity field (SiteIndexer::tiled_site, dirac/visiting_order.hpp);
  // 1: storage order (always on a full field).
  int t_tile = 1;

  // The launch tuner may run the kernel repeatedly (exec_cuda.cuh) unless it updates x in place.
  bool tunable() const { return in.data != out.data && !(has_x && x.data == out.data); }

  // alpha times the hopping term at site xc (checkerboard index s) of parity p (wilson_hop).
  LQCD_HOST_DEVICE ColorSpinor<T> alpha_hop(int p, std::int64_t s, const int xc[4]) const {
    return wilson_hop<T>(U, in, boundary, dagger, p, s, xc, T(alpha));
  }

  LQCD_HOST_DEVICE void operator()(std::int64_t i) const {
    const int p = out.parity_of(i);
    int xc[4];
    const std::int64_t s = U.idx.tiled_site(p, out.cb_of(i), t_tile, xc);
    out.store(p, s, wilson_site_result<T>(U, in, x, boundary, alpha, c0, c5, has_x, dagger, p, s, xc));
  }
};

// The hopping term's DRAM traffic per output site at best: the 8 links once, the input spinor once
// (L2 serving its other 7 reads), the output once (what dirac/visiting_order.hpp budgets).
template <typename Real, int LinkComponents>
constexpr std::int64_t hopping_traffic_bytes() {
  return 8 * 2 * LinkComponents * std::int64_t(sizeof(stored_t<Real>)) + 2 * spinor_site_bytes<Real>();
}

}  // namespace lqcd

namespace lqcd {

// out = (c0 + i c5 gamma_5) in on the sites of `out` (the site term of twisted mass and its
// inverse (1 - i 2 kappa mu gamma_5) / (1 + 4 kappa^2 mu^2)). dagger flips the sign of c5.
// FLOPs per site: 48 (Wilson: a scale, 24) to 72.
template <typename Real>
struct TwistedSiteKernel {
  using T = compute_t<Real>;
  SpinorView<Real> in;
  SpinorView<Real> out;
  double c0, c5;
  int dagger;
  LQCD_HOST_DEVICE void operator()(std::int64_t i) const {
    const int p = out.parity_of(i);
    const std::int64_t s = out.cb_of(i);
    const ColorSpinor<T> v = in.load(p, s);
    ColorSpinor<T> r = Complex<T>(T(c0)) * v;
    if (c5 != 0.0) r += Complex<T>(0, T(dagger ? -c5 : c5)) * apply_gamma(kGamma5, v);
    out.store(p, s, r);
  }
};

}  // namespace lqcd
