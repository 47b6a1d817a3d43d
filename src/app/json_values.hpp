#pragma once
// Numbers in the JSON outputs: JSON has no NaN or infinity, so a value that is not finite (an effective
// mass where the correlator changes sign, a GEVP energy where an eigenvalue is negative) is written null.

#include <cmath>
#include <vector>

#include <nlohmann/json.hpp>

namespace lqcd::app {

inline nlohmann::json finite_or_null(double x) { return std::isfinite(x) ? nlohmann::json(x) : nlohmann::json(nullptr); }

inline nlohmann::json finite_or_null(const std::vector<double>& v) {
  nlohmann::json a = nlohmann::json::array();
  for (double x : v) a.push_back(finite_or_null(x));
  return a;
}

}  // namespace lqcd::app
