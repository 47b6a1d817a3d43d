#pragma once
// The gauge action as a monomial: S = beta sum [c0 sum_plaq (1 - Re tr P/3) + c1 sum_rect (1 - Re tr R/3)]
// (gauge/gauge_action.hpp), force F = (beta / 6) TA(U A) with A the action's staple.

#include "gauge/gauge_action.hpp"
#include "hmc/monomial.hpp"

namespace lqcd {

class GaugeMonomial : public Monomial {
 public:
  explicit GaugeMonomial(const GaugeAction& action) : action_(action) {}
  std::string name() const override;
  void refresh(const GaugeField<double>&, std::uint64_t, std::uint32_t) override {}
  double action(const GaugeField<double>& U) override;
  void add_force(const GaugeField<double>& U, MomentumField& F) override;

 private:
  GaugeAction action_;
};

}  // namespace lqcd
