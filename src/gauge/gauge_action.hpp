#pragma once
// Gauge actions with plaquette and 1x2 rectangle terms (DESIGN.md):
//   S = beta * sum [ c0 * sum_plaq (1 - Re tr P / 3) + c1 * sum_rect (1 - Re tr R / 3) ],  c0 = 1 - 8 c1,
// the sums running over the 6V plaquettes and the 12V rectangles.
//   Wilson c1 = 0; tree-level Symanzik c1 = -1/12 (Luscher-Weisz, Commun. Math. Phys. 97 (1985) 59);
//   Iwasaki c1 = -0.331 (Y. Iwasaki, UTHEP-118, 1983); DBW2 c1 = -1.4088 (T. Takaishi, PRD 54 (1996) 1050;
//   QCDTARO, hep-lat/9911033).

#include <string>

namespace lqcd {

enum class GaugeActionType { Wilson, Symanzik, Iwasaki, DBW2 };
// In time: periodic, or openQCD's open boundaries (gauge/time_boundary.hpp).
enum class TimeBoundaryType { Periodic, Open };

struct TimeBoundary;

struct GaugeAction {
  GaugeActionType type = GaugeActionType::Wilson;
  double beta = 6.0;
  TimeBoundaryType boundary = TimeBoundaryType::Periodic;
  double c_G = 1.0;  // open boundaries: the spatial plaquettes at x0 = 0 and T weigh c_G / 2

  bool open() const { return boundary == TimeBoundaryType::Open; }
  // What the kernels need of the boundary on a lattice of `time_extent` (global N0) slices.
  TimeBoundary time_boundary(int time_extent) const;

  double c1() const;
  double c0() const { return 1.0 - 8.0 * c1(); }
  bool has_rectangles() const { return type != GaugeActionType::Wilson; }
  std::string name() const;  // "wilson", "symanzik", "iwasaki", "dbw2"

  // From the input name; throws lqcd::Error naming `key` and the accepted values otherwise.
  static GaugeAction from_name(const std::string& name, double beta, const std::string& key = "gauge.action");
};

}  // namespace lqcd
