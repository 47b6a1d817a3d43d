#include "gauge/observables.hpp"

#include <vector>

#include "comm/communicator.hpp"
#include "core/dispatch.hpp"
#include "gauge/open_boundary.hpp"

namespace lqcd {

namespace {

// Sum over spatial sites of tr P(x)/3 when the time direction is split over processes: each process
// multiplies its segment of every line, the segments travel once around the ring of processes along t
// (each ends with a cyclic product of the whole line, whose trace is the loop's), and the processes at
// t-coordinate 0 contribute the traces.
Complex<double> polyakov_sum_split_time(const GaugeField<double>& U) {
  const Geometry& g = U.geometry();
  const GaugeField<double> host = U.clone(Location::Host);
  const GaugeView<double> v = host.view();
  const std::int64_t spatial = g.volume() / g.local[kTimeDir];
  std::vector<SU3<double>> acc(std::size_t(spatial), SU3<double>::identity());
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < spatial; ++i) {
    int x[4];
    v.idx.coords_lex(i, x);
    for (int t = 0; t < g.local[kTimeDir]; ++t) {
      x[kTimeDir] = t;
      acc[std::size_t(i)] = acc[std::size_t(i)] * v.link(x, kTimeDir);
    }
  }
  std::vector<SU3<double>> passing = acc, received(acc.size());
  const Dims coords = g.grid_coords();
  const int up = comm::neighbour_rank(g.grid, coords, kTimeDir, +1);
  const int down = comm::neighbour_rank(g.grid, coords, kTimeDir, -1);
  for (int step = 1; step < g.grid[kTimeDir]; ++step) {
    comm::send_receive(passing.data(), down, received.data(), up, passing.size() * sizeof(SU3<double>), 100 + step);
    passing.swap(received);
    for (std::size_t i = 0; i < acc.size(); ++i) acc[i] = acc[i] * passing[i];
  }
  Complex<double> s{};
  if (coords[kTimeDir] == 0)
    for (const SU3<double>& p : acc) s += trace(p);
  return s;
}

}  // namespace

GaugeObservables gauge_observables(const GaugeField<double>& U) {
  const Geometry& g = U.geometry();
  const double v = double(g.global_volume());
  Sums<4> s = reduce<Sums<4>>(U.location(), g.volume(), GaugeObservablesKernel{U.view()});
  comm::sum(g.grid, s.v);
  const std::int64_t spatial = g.global_volume() / g.global[kTimeDir];
  Sums<2> p;
  if (g.grid[kTimeDir] == 1) {
    p = reduce<Sums<2>>(U.location(), g.volume() / g.local[kTimeDir], PolyakovLoopKernel{U.view()});
  } else {
    const Complex<double> tr = polyakov_sum_split_time(U);
    p[0] = tr.re / 3.0;
    p[1] = tr.im / 3.0;
  }
  comm::sum(g.grid, p.v);
  GaugeObservables o;
  o.plaquette_spatial = s[0] / (3 * v);
  o.plaquette_temporal = s[1] / (3 * v);
  o.plaquette = (s[0] + s[1]) / (6 * v);
  o.rectangle = s[2] / (12 * v);
  o.link_trace = s[3] / (4 * v);
  o.polyakov_loop = Complex<double>(p[0] / double(spatial), p[1] / double(spatial));
  return o;
}

double plaquette(const GaugeField<double>& U) { return gauge_observables(U).plaquette; }

double gauge_action_value(const GaugeField<double>& U, const GaugeAction& action) {
  if (action.open())  // the plaquettes in the lattice, weighted (gauge/time_boundary.hpp)
    return action.beta * open_boundary_plaquettes(U, action.time_boundary(U.geometry().global[kTimeDir])).weighted_deficit;
  const GaugeObservables o = gauge_observables(U);
  const double v = double(U.geometry().global_volume());
  return action.beta * (action.c0() * 6 * v * (1 - o.plaquette) + action.c1() * 12 * v * (1 - o.rectangle));
}

UnitarityStats unitarity(const GaugeField<double>& U, double tolerance, const TimeBoundary& b) {
  UnitarityStats u = reduce<UnitarityStats>(U.location(), U.geometry().volume(), UnitarityKernel{U.view(), tolerance, b});
  u.max_deviation = comm::max(U.geometry().grid, u.max_deviation);
  u.violations = comm::sum(U.geometry().grid, u.violations);
  return u;
}

}  // namespace lqcd
