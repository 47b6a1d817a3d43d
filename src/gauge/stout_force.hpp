#pragma once
// Stout-smeared links with the chain rule of the force (C. Morningstar, M. Peardon, Phys. Rev. D 69
// (2004) 054501, section IV): an action S[V] of the smeared links V = stout^n(U) is an action of the thin
// links U, and its force with respect to U follows from the force with respect to V step by step
// backwards through the n levels (eqs. 68-75; gauge/stout_force_kernels.hpp has the formulas).
//
// Why a force with respect to V is all the input needed: V is in SU(3) for every U, so every variation
// of V is dV = iX V with X in su(3), and only the tangent part of dS/dV enters the chain rule. A force
// F_V (F_V^a = d/dw S[e^{iwT^a} V], the convention of hmc/md_kernels.hpp, summed as F_V = sum_a F_V^a T^a)
// fixes that part completely; Sigma' = -i V^dag F_V is a matrix of eq. 68 with 2 Re tr(Sigma' iT^a V) =
// 2 Re tr(F_V T^a) = F_V^a. So the fermion force is computed as usual on the links V, and chain_rule turns
// it into the force on U. Each step's result is again a force (the one of the level below), so the levels
// chain through the same interface.
//
// Forces here are fields of su(3) matrices in the gauge-field layout (hmc's MomentumField).

#include <vector>

#include "fields/gauge_field.hpp"
#include "gauge/stout_smearing.hpp"

namespace lqcd {

class StoutSmearedLinks {
 public:
  // Smears a copy of U (which is not referenced afterwards) and keeps every level: level(0) = U,
  // level(k) = one step of level(k - 1), smeared() = level(steps). Halos are filled on every level
  // (U's must be: the invariant of the HMC's links). Throws lqcd::Error for bad params (prefix "stout").
  StoutSmearedLinks(const GaugeField<double>& U, const StoutParams& params);

  const GaugeField<double>& smeared() const { return levels_.back(); }
  const GaugeField<double>& level(int k) const { return levels_.at(std::size_t(k)); }
  int steps() const { return params_.steps; }
  const StoutParams& params() const { return params_; }

  // The force with respect to U of an action whose force with respect to smeared() is FV (a new field
  // where the links live). 0 steps: a copy of FV.
  GaugeField<double> chain_rule(const GaugeField<double>& FV) const;

 private:
  StoutParams params_;
  std::vector<GaugeField<double>> levels_;
};

}  // namespace lqcd
