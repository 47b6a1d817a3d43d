#pragma once
// The Wilson flow (M. Luscher, "Properties and uses of the Wilson flow in lattice QCD", JHEP 1008
// (2010) 071): dV_t/dt = Z(V_t) V_t, V_0 = U, with Z = -g_0^2 times the Wilson action's gradient, and
// what it measures: the energy density E(t) = (1/4) G^a_{mu nu} G^a_{mu nu} (from the plaquette and
// from the clover field strength), t^2 E(t), W(t) = t d/dt t^2 E(t), the scales t0 (t^2 E(t0) = 0.3)
// and w0 (W(w0^2) = 0.3; S. Borsanyi et al. (BMW), JHEP 1209 (2012) 010), and the topological charge Q(t)
// from the clover field strength; on request (FlowParams::improved_charge) also Q from the O(a^2)-improved
// field strength 5/3 F^{1x1} - 1/3 (F^{1x2} + F^{2x1}) (gauge/field_strength.hpp; S. Bilson-Thompson,
// D. Leinweber, A. Williams, Ann. Phys. 304 (2003) 1), free of O(a^2) artefacts at tree level.
// Lattice units throughout: t/a^2, E a^4, w0/a.
//
// Integrator: Luscher's third-order Runge-Kutta scheme (his appendix C, eqs. C.1-C.3),
//   W_1 = exp(Z_0 / 4) V_t,   W_2 = exp(8/9 Z_1 - 17/36 Z_0) W_1,
//   V_{t+eps} = exp(3/4 Z_2 - 8/9 Z_1 + 17/36 Z_0) W_2,   Z_i = eps Z(W_i),
// in its low-storage form with one extra field X: X = Z_0/4; X = 8/9 Z_1 - 17/9 X; X = 3/4 Z_2 - X,
// each followed by W <- exp(X) W. Global error O(eps^3).
//
// Three flows (the action whose gradient drives it):
// - Wilson: the plaquette action (Luscher 2010).
// - Symanzik: the tree-level Symanzik (Luscher-Weisz) action, c0 = 5/3 plaquettes and c1 = -1/12 1x2
//   rectangles (the "Symanzik flow" of MILC and BMW; S. Borsanyi et al., JHEP 1209 (2012) 010).
// - Zeuthen: Z = -g0^2 (1 + a^2/12 nabla*_mu nabla_mu) d S_LW, the Symanzik gradient smoothed along its own
//   direction, which removes the flow's O(a^2) effects at tree level (A. Ramos, S. Sint, Eur. Phys. J. C 76
//   (2016) 15, eq. 2.17), with nabla*_mu nabla_mu X_mu(x) = U_mu(x) X_mu(x+mu) U_mu(x)^dag
//   + U_mu(x-mu)^dag X_mu(x-mu) U_mu(x-mu) - 2 X_mu(x).
// The rectangles (of the Symanzik and Zeuthen flows and of the improved charge) reach two sites: on a
// decomposed lattice they read halos of depth 2 (lqcd's default, ProcessGrid::kHaloDepth).
//
// Open boundaries in time (FlowParams::open_boundary; gauge/time_boundary.hpp), as openQCD defines them
// (modules/wflow/wflow.c; M. Luscher, S. Schaefer, Comput. Phys. Commun. 184 (2013) 519, appendix B): the
// Wilson flow moves the active links only (U_t at x0 = T stays zero), driven by the tree-level O(a)-improved
// plaquette action (c_G = 1: the spatial plaquettes at x0 = 0 and T weighted 1/2), and the generator of the
// spatial links at x0 = 0 and T is doubled. The measurements are openQCD's ms3 ones per time slice
// (FlowSlices).

#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "fields/gauge_field.hpp"
#include "gauge/time_boundary.hpp"

namespace lqcd {

// openQCD's time-slice observables (its ms3 program: uflds/plaq_sum.c plaq_action_slices, tcharge/ym_action.c,
// tcharge/tcharge.c), divided by the spatial volume N1 N2 N3, for x0 = 0 .. N0 - 1:
// - energy_plaquette[x0] = (1/V3) [2 w(x0) sum_{spatial p at x0} Re tr(1 - P) + sum over the time-like
//   plaquettes between x0 - 1 and x0 and between x0 and x0 + 1 of Re tr(1 - P)] (each time-like plaquette
//   split between its two slices), w = 1/2 at open boundaries' x0 = 0 and T, else 1;
// - energy_clover[x0] = (1/V3) sum_x -sum_{mu<nu} tr(G_{mu nu}(x)^2), zero at open boundaries' x0 = 0 and T;
// - charge[x0] = sum_x q(x) (clover), zero at open boundaries' x0 = 0 and T.
// On a periodic lattice their means over x0 are FlowMeasurement's energies and their sum its Q.
struct FlowSlices {
  std::vector<double> energy_plaquette, energy_clover, charge;
};
// From a field with its halo exchanged; open: the boundary of gauge/time_boundary.hpp with c_G = 1.
FlowSlices flow_slices(const GaugeField<double>& V, bool open_boundary);

// E and Q of one flowed field (global: summed over all processes).
struct FlowMeasurement {
  double t = 0;                 // flow time t/a^2
  int steps = 0;                // integration steps taken (accepted) to reach t
  double energy_plaquette = 0;  // E a^4 = (2 / V) sum_x sum_{mu<nu} Re tr(1 - P_{mu nu}(x))
  double energy_clover = 0;     // E a^4 = -(1 / V) sum_x sum_{mu<nu} tr(G_{mu nu}(x)^2)
  double charge = 0;            // Q = sum_x q(x), clover definition (gradient_flow_kernels.hpp)
  // Q from the O(a^2)-improved field strength (ImprovedChargeKernel), same normalisation and sign; only
  // when FlowParams::improved_charge asked for it.
  std::optional<double> charge_improved;
  // Per time slice (FlowParams::slices, and always with open boundaries).
  std::optional<FlowSlices> slices;
  double t2E_plaquette() const { return t * t * energy_plaquette; }
  double t2E_clover() const { return t * t * energy_clover; }
};

struct FlowParams;
// E and Q of V (its halo exchanged); with improved_charge also charge_improved. With open boundaries E is
// the mean of E(x0) over the central slices N0/4 <= x0 <= T - N0/4 (away from the boundaries, whose effects
// fall off exponentially in x0), and Q the sum of q(x0) (openQCD's tcharge(): x0 = 1 .. T - 1).
FlowMeasurement flow_measurement(const GaugeField<double>& V, double t, bool improved_charge = false);
FlowMeasurement flow_measurement(const GaugeField<double>& V, double t, const FlowParams& p);
// The central slices that give the scalar E with open boundaries: [first, last] of N0 slices.
std::pair<int, int> open_boundary_bulk_slices(int time_extent);
// Q from the O(a^2)-improved field strength alone (global). Throws lqcd::Error when V's geometry has a
// halo shallower than the rectangles' two sites.
double improved_topological_charge(const GaugeField<double>& V);

enum class FlowAction { Wilson, Symanzik, Zeuthen };
std::string to_string(FlowAction a);  // "wilson", "symanzik", "zeuthen"
// From a name; throws lqcd::Error naming `key` otherwise.
FlowAction flow_action_from_name(const std::string& name, const std::string& key = "flow.action");

// The flow's generator q (Hermitian, traceless) on every link: dV/dt = i q V (Z = i q in Luscher's
// notation). For tests and for the Zeuthen flow's second pass. open_boundary: openQCD's flow (above).
GaugeField<double> flow_generator(const GaugeField<double>& V, FlowAction action, bool open_boundary = false);

// One Runge-Kutta step of the flow, V in place (its halo exchanged before each stage), with work
// fields of V's shape kept between steps.
class GradientFlow {
 public:
  // open_boundary: openQCD's flow with open boundaries in time (Wilson only; lqcd::Error otherwise).
  explicit GradientFlow(const GaugeField<double>& like, FlowAction action = FlowAction::Wilson,
                        bool open_boundary = false);
  void step(GaugeField<double>& V, double epsilon);
  // The same step, and the distance max |V - V2| (entries, over all links) to the embedded second-order
  // result V2 = exp(2 Z_1 - Z_0) V_t (P. Fritzsch, A. Ramos, JHEP 1310 (2013) 008, appendix D): the
  // local error estimate of the adaptive flow.
  double step_with_error(GaugeField<double>& V, double epsilon);
  FlowAction action() const { return action_; }

 private:
  FlowAction action_;
  TimeBoundary boundary_;
  GaugeField<double> X_;
  std::optional<GaugeField<double>> q_;  // Zeuthen: the Symanzik generator before the smoothing
  std::optional<GaugeField<double>> W1_, Y_;  // adaptive: the first stage's field, the embedded exponent
};

struct FlowParams {
  FlowAction action = FlowAction::Wilson;
  double epsilon = 0.01;  // step in t/a^2
  // Flow until t/a^2 = t_max; 0: until both t0 and w0 are passed, at most to t = L_min^2 / 32 (the
  // smoothing radius sqrt(8t) reaches half the smallest extent).
  double t_max = 0;
  int measure_every = 1;  // steps between measurements (the first at t = 0)
  // > 0: adaptive step size (Fritzsch-Ramos): a step is accepted when its error estimate
  // (GradientFlow::step_with_error) is below `tolerance`, and the next step is
  // eps * min(5, 0.95 (tolerance / error)^(1/3)); epsilon is the first step. 0: fixed steps of epsilon.
  double tolerance = 0;
  // Also measure the O(a^2)-improved topological charge (FlowMeasurement::charge_improved): off by default,
  // since its rectangles cost several times the clover measurement.
  bool improved_charge = false;
  // openQCD's open boundary conditions in time (the header's paragraph): the Wilson flow only, without
  // improved_charge; the frozen links are set to zero before the flow.
  bool open_boundary = false;
  // E(x0) and q(x0) per time slice in every measurement (FlowMeasurement::slices); always when open.
  bool slices = false;
};

// Throws lqcd::Error naming flow.epsilon, flow.t_max, flow.measure_every or flow.tolerance.
void check_flow_params(const FlowParams& p);

// Flows V (in place) and returns the measurements; `each` (when given) sees every measurement as it is
// made.
std::vector<FlowMeasurement> run_gradient_flow(GaugeField<double>& V, const FlowParams& p,
                                             const std::function<void(const FlowMeasurement&)>& each = {});

// The scales from a flow history (clover E), by linear interpolation between the measurements that
// bracket the crossing of `reference` (0.3); W(t) is the difference quotient of t^2 E between
// neighbouring measurements, at their mid time. Empty when the history does not reach it.
struct FlowScales {
  std::optional<double> t0;  // t0/a^2
  std::optional<double> w0;  // w0/a
};
FlowScales flow_scales(const std::vector<FlowMeasurement>& history, double reference = 0.3);
// The same crossings of any t^2 E curve given at the flow times t (an ensemble average: Python's
// lqcd.analysis.flow_scales calls this through the C interface, lqcd_flow_scales).
FlowScales flow_scales(const std::vector<double>& t, const std::vector<double>& t2E, double reference = 0.3);

}  // namespace lqcd
