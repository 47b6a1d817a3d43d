#include "hmc/pseudofermion_monomial.hpp"

#include "core/dispatch.hpp"
#include "core/error.hpp"
#include "hmc/md_kernels.hpp"

namespace lqcd {

Monomial::SolverStats PseudofermionMonomial::take_solver_stats() {
  const SolverStats s = stats_;
  stats_ = {};
  return s;
}

SpinorField<double> PseudofermionMonomial::gaussian_noise(const SpinorField<double>& like, std::uint64_t seed,
                                                          std::uint32_t trajectory) const {
  SpinorField<double> eta = like.like();
  for_each(eta.location(), eta.sites(), GaussianSpinorKernel<double>{eta.view(), seed, RngPurpose::Pseudofermion, stream_, trajectory,
                                                                 kUnitComplexVariance});
  return eta;
}

const SpinorField<double>& PseudofermionMonomial::pseudofermion() const {
  if (!phi) fail("internal: {}: action or force before the pseudofermion heatbath", name());
  return *phi;
}

}  // namespace lqcd
