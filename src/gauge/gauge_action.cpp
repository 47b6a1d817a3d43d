#include "gauge/gauge_action.hpp"

#include "core/error.hpp"
#include "gauge/time_boundary.hpp"

namespace lqcd {

double GaugeAction::c1() const {
  switch (type) {
    case GaugeActionType::Wilson: return 0.0;
    case GaugeActionType::Symanzik: return -1.0 / 12.0;
    case GaugeActionType::Iwasaki: return -0.331;
    case GaugeActionType::DBW2: return -1.4088;
  }
  return 0.0;
}

TimeBoundary GaugeAction::time_boundary(int time_extent) const {
  // Every user of open boundaries (action, force, updates) asks here: the one check of what is implemented.
  if (open() && has_rectangles())
    fail("open boundaries in time are implemented for the Wilson gauge action only (got \"{}\")", name());
  TimeBoundary b;
  b.open = open();
  b.boundary_weight = open() ? 0.5 * c_G : 1.0;
  b.last = time_extent - 1;
  return b;
}

std::string GaugeAction::name() const {
  switch (type) {
    case GaugeActionType::Wilson: return "wilson";
    case GaugeActionType::Symanzik: return "symanzik";
    case GaugeActionType::Iwasaki: return "iwasaki";
    case GaugeActionType::DBW2: return "dbw2";
  }
  return "?";
}

GaugeAction GaugeAction::from_name(const std::string& name, double beta, const std::string& key) {
  GaugeAction a;
  a.beta = beta;
  if (name == "wilson") a.type = GaugeActionType::Wilson;
  else if (name == "symanzik") a.type = GaugeActionType::Symanzik;
  else if (name == "iwasaki") a.type = GaugeActionType::Iwasaki;
  else if (name == "dbw2") a.type = GaugeActionType::DBW2;
  else fail("{}: unknown gauge action \"{}\" (expected \"wilson\", \"symanzik\", \"iwasaki\" or \"dbw2\")", key, name);
  if (!(beta > 0)) fail("gauge.beta: must be positive (got {})", beta);
  return a;
}

}  // namespace lqcd
