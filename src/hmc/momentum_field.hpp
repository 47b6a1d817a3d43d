#pragma once
// Momenta and forces of the molecular dynamics: one su(3) matrix per link (md_kernels.hpp has the
// conventions), stored in the gauge-field layout, where the links live.

#include <cstdint>

#include "fields/gauge_field.hpp"

namespace lqcd {

// P_mu(x) = sum_a p^a T^a (Hermitian, traceless) per link.
using MomentumField = GaugeField<double>;

// Gaussian momenta, keyed by (seed, global site, direction, trajectory): the same on any backend.
void momentum_heatbath(MomentumField& P, std::uint64_t seed, std::uint32_t trajectory);
// (1/2) sum (p^a)^2 = sum_{x,mu} tr P_mu(x)^2.
double kinetic_energy(const MomentumField& P);
// U <- exp(i eps P) U on every link.
void update_links(GaugeField<double>& U, const MomentumField& P, double eps);
// Y <- Y + a X on every link (the momentum step P <- P - eps F is link_axpy(-eps, F, P)).
void link_axpy(double a, const MomentumField& X, MomentumField& Y);
void set_zero(MomentumField& F);

}  // namespace lqcd
