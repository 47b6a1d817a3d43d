#pragma once
// The gauge observables as they appear in every JSON output (lqcd measure --json, PREFIX.jsonl).

#include <nlohmann/json.hpp>

#include "gauge/observables.hpp"

namespace lqcd::app {

inline nlohmann::json observables_json(const GaugeObservables& o) {
  return {{"plaquette", o.plaquette},
          {"plaquette_spatial", o.plaquette_spatial},
          {"plaquette_temporal", o.plaquette_temporal},
          {"rectangle", o.rectangle},
          {"polyakov_loop", {o.polyakov_loop.re, o.polyakov_loop.im}},
          {"link_trace", o.link_trace}};
}

}  // namespace lqcd::app
