#include "gauge/hyp_smearing.hpp"

#include <array>

#include "core/dispatch.hpp"
#include "core/error.hpp"
#include "gauge/hyp_smearing_kernels.hpp"
#include "gauge/smearing_steps.hpp"

namespace lqcd {

void check_hyp_params(const HypParams& p) {
  const double a[3] = {p.alpha1, p.alpha2, p.alpha3};
  for (int k = 0; k < 3; ++k)
    if (!(a[k] >= 0.0 && a[k] <= 1.0)) fail("hyp.alpha{}: expected a value in [0, 1], got {}", k + 1, a[k]);
  if (p.steps < 0) fail("hyp.steps: expected a non-negative number of steps, got {}", p.steps);
}

namespace {

struct DecoratedFields {
  std::array<GaugeField<double>, 3> f;
  DecoratedFields(const Geometry& g, Location loc)
      : f{GaugeField<double>(g, loc), GaugeField<double>(g, loc), GaugeField<double>(g, loc)} {}
  DecoratedLinks view() const { return {{f[0].view(), f[1].view(), f[2].view()}}; }
  void exchange_halo() {
    for (auto& x : f) x.exchange_halo();
  }
};

}  // namespace

GaugeField<double> hyp_smear(const GaugeField<double>& U, const HypParams& p) {
  check_hyp_params(p);
  const Geometry& g = U.geometry();
  const Location loc = U.location();
  DecoratedFields level1(g, loc), level2(g, loc);
  U.exchange_halo();
  return repeated_smearing(U, p.steps, [&](const GaugeField<double>& in, GaugeField<double>& out) {
    const std::int64_t volume = g.volume();
    if (!p.spatial) {
      for_each(loc, volume, HypLevel1Kernel{in.view(), level1.view(), p.alpha3});
      level1.exchange_halo();
    }
    for_each(loc, volume, HypLevel2Kernel{in.view(), level1.view(), level2.view(), p.alpha2, p.spatial});
    level2.exchange_halo();
    for_each(loc, volume, HypLevel3Kernel{in.view(), level2.view(), out.view(), p.alpha1, p.spatial});
  });
}

}  // namespace lqcd
