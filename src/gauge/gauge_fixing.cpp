#include "gauge/gauge_fixing.hpp"

#include <cmath>
#include <complex>
#include <optional>

#include "comm/communicator.hpp"
#include "core/dispatch.hpp"
#include "core/error.hpp"
#include "core/fourier_transform.hpp"
#include "gauge/gauge_fixing_kernels.hpp"
#include "gauge/updates.hpp"

namespace lqcd {

std::string to_string(GaugeCondition g) { return g == GaugeCondition::Landau ? "landau" : "coulomb"; }
std::string to_string(GaugeFixMethod m) { return m == GaugeFixMethod::Fourier ? "fft" : "overrelaxation"; }

void check_gauge_fix_params(const GaugeFixParams& p, const std::string& prefix) {
  if (!(p.precision > 0) || !(p.precision < 1))
    fail("{}.precision: expected a theta target in (0, 1) (1e-14 is usual in double precision), got {}", prefix,
         p.precision);
  if (p.max_iterations < 1) fail("{}.max_iterations: expected at least 1, got {}", prefix, p.max_iterations);
  if (!(p.alpha > 0) || !(p.alpha <= 1))
    fail("{}.alpha: expected a steepest-descent step in (0, 1] (0.08 is usual), got {}", prefix, p.alpha);
  if (!(p.omega >= 1) || !(p.omega < 2))
    fail("{}.omega: expected an overrelaxation exponent in [1, 2) (1.7 is usual), got {}", prefix, p.omega);
  if (p.reunitarize_every < 0)
    fail("{}.reunitarize_every: expected 0 (never) or a number of iterations, got {}", prefix, p.reunitarize_every);
}

namespace {

int directions(GaugeCondition g) { return g == GaugeCondition::Landau ? 4 : 3; }

// F and theta, and Delta into `delta` where its data pointer is set.
GaugeFixQuality measure(const GaugeField<double>& U, GaugeCondition gauge, PackedHermitianView delta) {
  const Geometry& g = U.geometry();
  U.exchange_halo();
  const int ndir = directions(gauge);
  Sums<2> s = reduce<Sums<2>>(U.location(), g.volume(), GaugeFixDivergenceKernel{U.view(), delta, ndir});
  comm::sum(g.grid, s.v);
  const double volume = double(g.global_volume());
  return {s[0] / (3.0 * ndir * volume), s[1] / (3.0 * volume)};
}

// The FFT's shape over lqcd's lexicographic order (t slowest): Landau the 4D lattice (4 packed
// components), Coulomb each time slice in 3D (4 Lt arrays).
BatchedFft fourier_transform(const Geometry& g, GaugeCondition gauge, Location loc) {
  const Dims& n = g.local;
  if (gauge == GaugeCondition::Landau) return BatchedFft({n[3], n[2], n[1], n[0]}, 4, loc);
  return BatchedFft({n[2], n[1], n[0]}, 4 * n[3], loc);
}

class FourierSteepestDescent {
 public:
  FourierSteepestDescent(const GaugeField<double>& U, const GaugeFixParams& p)
      : p_(p),
        delta_(std::size_t(4 * U.geometry().volume()), U.location()),
        g_(std::size_t(U.geometry().volume()), U.location()),
        fft_(fourier_transform(U.geometry(), p.gauge, U.location())) {}
  PackedHermitianView view() const { return {delta_.data(), U_volume()}; }
  double alpha() const { return p_.alpha; }
  void set_alpha(double alpha) { p_.alpha = alpha; }
  // One step, from Delta as the last measure() left it in view().
  void step(GaugeField<double>& U) {
    auto* data = reinterpret_cast<std::complex<double>*>(delta_.data());
    fft_.forward(data);
    const Dims& n = U.geometry().local;
    const int ndir = directions(p_.gauge);
    const double p2max = 4.0 * ndir;
    for_each(U.location(), U_volume(),
             FourierAccelerationKernel{view(), {n[0], n[1], n[2], n[3]}, ndir, p2max / double(fft_.points())});
    fft_.backward(data);
    for_each(U.location(), U_volume(), GaugeFixExponentialKernel{view(), g_.data(), p_.alpha});
    for_each(U.location(), U_volume(), GaugeFixRotationKernel{U.view(), g_.data()});
  }

 private:
  std::int64_t U_volume() const { return std::int64_t(delta_.size() / 4); }
  GaugeFixParams p_;
  Buffer<Complex<double>> delta_;
  Buffer<SU3<double>> g_;  // the step's gauge transformation, lexicographic
  BatchedFft fft_;
};

void overrelaxation_step(GaugeField<double>& U, GaugeField<double>& G, const GaugeFixParams& p) {
  const Geometry& g = U.geometry();
  for (int parity = 0; parity < 2; ++parity) {
    U.exchange_halo();
    for_each(U.location(), g.half_volume(),
             GaugeFixOverrelaxationKernel{U.view(), G.view(), parity, directions(p.gauge), p.omega});
    G.exchange_halo();
    for_each(U.location(), g.volume(), GaugeFixApplyParityKernel{U.view(), G.view(), parity});
  }
}

}  // namespace

GaugeFixQuality gauge_fix_quality(const GaugeField<double>& U, GaugeCondition gauge) {
  return measure(U, gauge, PackedHermitianView{nullptr, 0});
}

GaugeFixResult fix_gauge(GaugeField<double>& U, const GaugeFixParams& p,
                         const std::function<void(int, const GaugeFixQuality&)>& progress) {
  check_gauge_fix_params(p);
  const Geometry& g = U.geometry();
  const bool fourier = p.method == GaugeFixMethod::Fourier;
  // The rotation kernel reads its neighbours' g periodically inside the box: no halo, no decomposition.
  if (fourier && (g.grid != Dims{1, 1, 1, 1} || g.has_halo()))
    fail("gauge fixing: the Fourier-accelerated method runs on one process (the FFT is not distributed); "
         "use the overrelaxation method with --grid {}x{}x{}x{}",
         g.grid[0], g.grid[1], g.grid[2], g.grid[3]);
  std::optional<FourierSteepestDescent> sd;
  std::optional<GaugeField<double>> G;
  if (fourier)
    sd.emplace(U, p);
  else
    G.emplace(g, U.location());
  const auto quality = [&] { return fourier ? measure(U, p.gauge, sd->view()) : gauge_fix_quality(U, p.gauge); };
  GaugeFixResult r;
  r.initial = r.final = quality();
  r.alpha = p.alpha;
  for (;;) {
    if (progress) progress(r.iterations, r.final);
    if (r.final.theta < p.precision) {
      r.converged = true;
      break;
    }
    if (!std::isfinite(r.final.theta) || r.iterations >= p.max_iterations) break;
    if (fourier)
      sd->step(U);
    else
      overrelaxation_step(U, *G, p);
    ++r.iterations;
    if (p.reunitarize_every > 0 && r.iterations % p.reunitarize_every == 0) reunitarize(U);
    const double last = r.final.functional;
    r.final = quality();
    // Steepest descent with a small enough step raises F at every iteration; a fall beyond rounding
    // means the step is too long for this field (the highest modes oscillate and grow): halve it.
    if (fourier && r.final.functional < last - 1e-12) {
      sd->set_alpha(sd->alpha() / 2);
      r.alpha = sd->alpha();
      ++r.step_halvings;
    }
  }
  return r;
}

}  // namespace lqcd
