#include "hmc/momentum_field.hpp"

#include "comm/communicator.hpp"
#include "core/dispatch.hpp"
#include "hmc/md_kernels.hpp"

namespace lqcd {

void momentum_heatbath(MomentumField& P, std::uint64_t seed, std::uint32_t trajectory) {
  for_each(P.location(), P.geometry().volume(), MomentumHeatbathKernel{P.view(), seed, trajectory});
}

double kinetic_energy(const MomentumField& P) {
  return comm::sum(P.geometry().grid,
                   reduce<Sums<1>>(P.location(), P.geometry().volume(), KineticEnergyKernel{P.view()})[0]);
}

void update_links(GaugeField<double>& U, const MomentumField& P, double eps) {
  for_each(U.location(), U.geometry().volume(), LinkUpdateKernel{U.view(), P.view(), eps});
  U.exchange_halo();
}

void link_axpy(double a, const MomentumField& X, MomentumField& Y) {
  for_each(Y.location(), Y.geometry().volume(), LinkAxpyKernel{a, X.view(), Y.view()});
}

void set_zero(MomentumField& F) { for_each(F.location(), F.geometry().volume(), LinkZeroKernel{F.view()}); }

}  // namespace lqcd
