#include "hmc/even_odd_fermion.hpp"

#include <cmath>

#include <fmt/format.h>

#include "core/dispatch.hpp"
#include "core/error.hpp"
#include "core/timer.hpp"
#include "fields/spinor_blas.hpp"
#include "core/environment_switch.hpp"
#include "dirac/clover_even_odd.hpp"
#include "dirac/compressed_clover_even_odd.hpp"
#include "dirac/wilson_even_odd.hpp"
#include "hmc/md_kernels.hpp"

namespace lqcd {

namespace {

// The quarks' hop links with open boundaries, owned by the operator built on them: the first base, so
// that they exist before the operator and outlive it.
struct OwnedHopLinks {
  GaugeField<double> hop_links;
};

class OpenBoundaryCloverSchur : private OwnedHopLinks, public WilsonCloverEvenOddOperator<double> {
 public:
  OpenBoundaryCloverSchur(const GaugeField<double>& U, const EvenOddQuark& q)
      : OwnedHopLinks{quark_hopping_links(U, q.time)},
        WilsonCloverEvenOddOperator<double>(
            std::make_shared<WilsonCloverOperator<double>>(U, q.params, q.csw, q.clover_trace_kept, &hop_links,
                                                           q.time)) {}
};

class OpenBoundaryWilsonSchur : private OwnedHopLinks, public WilsonEvenOddOperator<double> {
 public:
  OpenBoundaryWilsonSchur(const GaugeField<double>& U, const EvenOddQuark& q)
      : OwnedHopLinks{quark_hopping_links(U, q.time)}, WilsonEvenOddOperator<double>(hop_links, q.params) {}
  const GaugeField<double>& links() const { return hop_links; }
};

}  // namespace

std::unique_ptr<SchurOperator<double>> EvenOddQuark::schur(const GaugeField<double>& U) const {
  if (time.open) {
    if (U.geometry().global[kTimeDir] < 4)
      fail("open boundaries in time need at least 4 time slices (got {})", U.geometry().global[kTimeDir]);
    if (time.last != U.geometry().global[kTimeDir] - 1)
      fail("the quarks' open boundary is set for {} time slices, the links have {}", time.last + 1,
           U.geometry().global[kTimeDir]);
    if (time.c_F != 1.0 && csw == 0)
      fail("c_F = {} needs the clover term (csw > 0), which carries it", time.c_F);
    if (csw != 0) return std::make_unique<OpenBoundaryCloverSchur>(U, *this);
    return std::make_unique<OpenBoundaryWilsonSchur>(U, *this);
  }
  if (csw != 0)
    return std::make_unique<WilsonCloverEvenOddOperator<double>>(
        std::make_shared<WilsonCloverOperator<double>>(U, params, csw, clover_trace_kept));
  return std::make_unique<WilsonEvenOddOperator<double>>(U, params);
}

// The links of M_hat's hops: U, or with open boundaries the cut copy M owns.
const GaugeField<double>& EvenOddQuark::hop_links(const SchurOperator<double>& M, const GaugeField<double>& U) const {
  if (csw != 0) return static_cast<const WilsonCloverEvenOddOperator<double>&>(M).full_operator().links();
  if (!time.open) return U;
  const auto* open = dynamic_cast<const OpenBoundaryWilsonSchur*>(&M);
  if (!open) fail("hop_links: M is not this quark's open-boundary operator (made by schur(U))");
  return open->links();
}

template <typename Sloppy>
SloppySchur<Sloppy>::SloppySchur(const EvenOddQuark& q, const GaugeField<double>& U, const SchurOperator<double>& M) {
  if (q.csw == 0) {
    links_.emplace(convert_links<Sloppy, 6>(q.hop_links(M, U)));
    op_ = std::make_unique<WilsonEvenOddOperator<Sloppy, 6>>(*links_, q.params);
    return;
  }
  const auto& C = static_cast<const WilsonCloverEvenOddOperator<double>&>(M);
  if constexpr (std::is_same_v<Sloppy, float>) {
    if (!switch_from_environment("LQCD_COMPRESSED_CLOVER", true)) {
      links_18_.emplace(convert_precision<float>(C.full_operator().links()));
      op_ = std::make_unique<WilsonCloverEvenOddOperator<float>>(
          std::make_shared<WilsonCloverOperator<float>>(*links_18_, C.full_operator()));
      return;
    }
  }
  op_ = std::make_unique<CompressedCloverEvenOddOperator<Sloppy, 6>>(C);
}

template class SloppySchur<float>;
template class SloppySchur<Half>;

double EvenOddQuark::log_det_odd(const SchurOperator<double>& M) const {
  return csw != 0 ? static_cast<const WilsonCloverEvenOddOperator<double>&>(M).clover().log_det(1) : 0.0;
}

void EvenOddQuark::add_force(const SchurOperator<double>& M, const GaugeField<double>& U,
                             const SpinorField<double>& y, const SpinorField<double>& x, double coef,
                             double det_coef, MomentumField& F) const {
  const Geometry& g = U.geometry();
  // Z = A_oo^{-1} H_oe x,  W = (A_oo^dag)^{-1} (H^dag)_oe y.
  SpinorField<double> Z(g, U.location(), Subset::Odd), W(g, U.location(), Subset::Odd);
  if (csw != 0) {
    const auto& C = static_cast<const WilsonCloverEvenOddOperator<double>&>(M).full_operator();
    C.hop(Z, x, nullptr, 1.0, false);
    C.apply_clover_inverse(Z, Z, false);
    C.hop(W, y, nullptr, 1.0, true);
    C.apply_clover_inverse(W, W, true);
  } else {
    const auto& E = static_cast<const WilsonEvenOddOperator<double>&>(M);
    E.hop(Z, x, nullptr, 1.0, 0.0, 0);
    E.site_inverse(Z, Z, 0);
    E.hop(W, y, nullptr, 1.0, 0.0, 1);
    E.site_inverse(W, W, 1);
  }
  SpinorField<double> a(g, U.location(), Subset::Full), b(g, U.location(), Subset::Full);
  a.set_parity_part(0, y);
  a.set_parity_part(1, W);
  b.set_parity_part(0, x);
  b.set_parity_part(1, Z);
  // -2 Re y^dag dM_hat x = 2 kappa^2 Re <a, dH b> - 2 Re [y^dag dA_ee x + kappa^2 W^dag dA_oo Z].
  const double k = params.kappa;
  a.exchange_halo();
  b.exchange_halo();
  // On the hop links: with open boundaries a cut link (zero in the copy) gets no force.
  HoppingForceKernel hopping{hop_links(M, U).view(), F.view(), a.view(), b.view(), {}, 2 * k * k * coef};
  for (int mu = 0; mu < 4; ++mu) hopping.phase[mu] = params.boundary.phase[mu];
  for_each(U.location(), 4 * g.volume(), hopping);  // a thread per link
  if (csw != 0) {
    // Each dA = i kappa c_sw sigma.dF (clover_kernels.hpp); d log |det A_oo| = Re sum_odd tr[A^{-1} dA].
    const auto& clover = static_cast<const WilsonCloverEvenOddOperator<double>&>(M).clover();
    const double kc = k * csw;
    const std::int64_t stride = padded_stride(g.stored_half_volume(), sizeof(Complex<double>));
    const std::size_t size = std::size_t(stride) * 6 * 2 * 9;
    if (!planes || planes->size() != size || planes->location() != U.location())
      planes = std::make_shared<Buffer<Complex<double>>>(size, U.location());
    const PlaneFieldView G{planes->data(), stride};
    for_each(U.location(), g.volume(),
             CloverInsertionKernel{clover.view(), a.view(), b.view(), G, -2 * kc * coef, -2 * kc * k * k * coef,
                                   kc * det_coef, time, clover_trace_kept});
    // The force of a link reads G at the corners of the plaquettes around it (one step, diagonals too).
    exchange_halo(planes->data(), U.location(), g, HaloLayout{stride, 6, 9, 2 * 9 * stride, 9 * stride, -1}, 1);
    for_each(U.location(), 4 * g.volume(), CloverForceKernel{U.view(), F.view(), G});
  }
}

std::string describe(const EvenOddQuark& q) {
  const std::string kind =
      q.params.mu != 0 ? (q.csw != 0 ? "twisted clover" : "twisted mass") : (q.csw != 0 ? "clover" : "wilson");
  std::string s = fmt::format("{} (kappa {}", kind, q.params.kappa);
  if (q.params.mu != 0) s += fmt::format(", mu {}", q.params.mu);
  if (q.csw != 0) s += fmt::format(", csw {}", q.csw);
  if (q.csw != 0 && q.clover_trace_kept) s += ", F with its trace";
  if (q.time.open) s += fmt::format(", open in time, c_F {}", q.time.c_F);
  return s + ")";
}

void check_finite_source(const SpinorField<double>& b, const std::string& who) {
  if (!std::isfinite(norm2(b)))
    fail("{}: the fermion operator produced NaN/Inf (an unstable integration, a singular clover term, or links "
         "far from this kappa's range: use more integration steps, check kappa and csw); the trajectory is not "
         "used and the configuration before it is kept",
         who);
}

SpinorField<double> solve_normal_equations(const EvenOddQuark& q, const GaugeField<double>& U,
                                           const SchurOperator<double>& M, const SpinorField<double>& b,
                                           const SolverParams& p, Monomial::SolverStats& stats,
                                           const std::string& who, ChronologicalGuess* forecast) {
  const NormalOperator<double> A(M);
  SpinorField<double> X = M.make_field();
  check_finite_source(b, who);
  if (forecast) {  // its guess (zero while it keeps nothing)
    const Stopwatch clock;
    forecast->guess(A, X, b);
    stats.seconds += clock.seconds();
  } else {
    set_zero(X);
  }
  try {
    SolverResult r;
    if (p.precision != SolverPrecision::Double) {
      SolverParams mixed = p;
      mixed.hermitian = true;
      mixed.type = SolverType::CG;
      const auto solve_in = [&]<typename Sloppy>() {
        const Stopwatch clock;
        const SloppySchur<Sloppy> Ms(q, U, M);
        const NormalOperator<Sloppy> As(Ms.op());
        stats.seconds += clock.seconds();
        return solve_mixed<Sloppy>(A, As, X, b, mixed);
      };
      r = p.precision == SolverPrecision::Half ? solve_in.template operator()<Half>()
                                               : solve_in.template operator()<float>();
    } else {
      r = solve_hermitian(A, X, b, p);
    }
    stats.iterations += r.iterations;
    stats.seconds += r.seconds;
  } catch (const SolverError& e) {
    throw SolverError(fmt::format("{}: {}", who, e.what()), e.result());
  }
  if (forecast) forecast->record(X);
  return X;
}

}  // namespace lqcd
