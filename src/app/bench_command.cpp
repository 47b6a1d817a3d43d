#include "app/bench_command.hpp"

#include <algorithm>
#include <iostream>
#include <sstream>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/device_choice.hpp"
#include "app/version.hpp"
#include "comm/process_grid.hpp"
#include "core/bandwidth.hpp"
#include "core/error.hpp"
#include "core/timer.hpp"
#include "gauge/observables.hpp"
#include "gauge/updates.hpp"

namespace lqcd::app {

namespace {

Dims parse_dims(const std::string& text) {
  Dims d{};
  std::stringstream ss(text);
  std::string item;
  int mu = 0;
  while (std::getline(ss, item, ',')) {
    if (mu >= 4) fail("--dims: expected four extents X,Y,Z,T (got \"{}\")", text);
    try {
      d[mu++] = std::stoi(item);
    } catch (const std::exception&) {
      fail("--dims: \"{}\" is not an integer (expected X,Y,Z,T)", item);
    }
  }
  if (mu != 4) fail("--dims: expected four extents X,Y,Z,T (got \"{}\")", text);
  return d;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

template <typename F>
double median_seconds(Location loc, int repetitions, F&& f) {
  f();  // warm-up
  detail::device_synchronize();
  std::vector<double> t;
  for (int r = 0; r < repetitions; ++r) {
    const Stopwatch w;
    f();
    if (loc == Location::Device) detail::device_synchronize();
    t.push_back(w.seconds());
  }
  return median(t);
}

}  // namespace

int run_bench(const BenchCommandOptions& opt) {
  if (opt.kernel != "heatbath" && opt.kernel != "copy")
    fail("lqcd bench: unknown benchmark \"{}\" (expected heatbath or copy)", opt.kernel);
  if (opt.repetitions < 1) fail("--repetitions: expected a positive integer (got {})", opt.repetitions);
  const Location loc = choose_location(opt.device);
  const std::string device = loc == Location::Device ? device_description() : "CPU (OpenMP)";

  // The reference first: copy bandwidth of a buffer far larger than the caches.
  const std::size_t copy_bytes = loc == Location::Device ? (std::size_t(1) << 30) : (std::size_t(1) << 28);
  const CopyBandwidth copy = measure_copy_bandwidth(loc, copy_bytes, std::max(opt.repetitions, 10));
  nlohmann::json result = {{"program", version_string()},
                           {"device", device},
                           {"copy_bandwidth_GBps", copy.gb_per_s},
                           {"copy_bytes", copy.bytes}};
  if (!opt.json)
    std::cout << fmt::format("# {}\n# device: {}\n# copy bandwidth: {:.1f} GB/s (read + write, {} MiB buffers, median of {})\n",
                             version_string(), device, copy.gb_per_s, copy.bytes >> 20, copy.repetitions);

  if (opt.kernel == "heatbath") {
    const Dims dims = parse_dims(opt.dims);
    const Geometry geom = ProcessGrid::single().decompose(dims, "--dims");
    const GaugeAction action = GaugeAction::from_name(opt.action, 6.0, "--action");
    check_update_geometry(geom, action);
    GaugeField<double> U(geom, loc);
    set_hot_gauge(U, 1);
    std::uint32_t sweep = 0;
    const double t_hb = median_seconds(loc, opt.repetitions, [&] { heatbath_sweep(U, action, 1, sweep++); });
    const double t_or = median_seconds(loc, opt.repetitions, [&] { overrelaxation_sweep(U, action); });
    // Bytes per sweep (double precision, 18 reals = 144 bytes per link), Wilson action:
    //   naive   = every link update loads its 18 staple links and loads + stores the link: 20 x 144 B x 4V;
    //   minimal = per direction-and-parity subset, all 8 link blocks of V/2 read once and 1 written:
    //             9 x V/2 x 144 B x 8 subsets = 36 V x 144 B.
    // Rectangle actions load 18 x 5 more links per update (naive); their minimal traffic per subset is
    // the same field read, repeated for 4 colours.
    const double v = double(geom.volume()), link_bytes = 144;
    const double naive = (action.has_rectangles() ? 110.0 : 20.0) * 4 * v * link_bytes;
    const double minimal = (action.has_rectangles() ? 4.0 : 1.0) * 36 * v * link_bytes;
    const double combined = t_hb + 4 * t_or;
    result.update({{"benchmark", "heatbath"},
                   {"dims", dims},
                   {"action", action.name()},
                   {"precision", "double"},
                   {"repetitions", opt.repetitions},
                   {"heatbath_sweep_s", t_hb},
                   {"overrelaxation_sweep_s", t_or},
                   {"sweeps_per_s_hb_plus_4or", 1.0 / combined},
                   {"link_updates_per_s_hb", 4 * v / t_hb},
                   {"bytes_per_sweep_naive", naive},
                   {"bytes_per_sweep_minimal", minimal},
                   {"heatbath_GBps_naive", naive / t_hb / 1e9},
                   {"heatbath_GBps_minimal", minimal / t_hb / 1e9},
                   {"overrelaxation_GBps_minimal", minimal / t_or / 1e9},
                   {"heatbath_fraction_of_copy", minimal / t_hb / 1e9 / copy.gb_per_s},
                   {"overrelaxation_fraction_of_copy", minimal / t_or / 1e9 / copy.gb_per_s}});
    if (!opt.json)
      std::cout << fmt::format(
          "# heatbath benchmark: {} lattice, {} action, double precision, median of {}\n"
          "  heatbath sweep        {:9.3f} ms   {:8.1f} GB/s minimal ({:.1f} naive)   {:5.1f}% of copy\n"
          "  overrelaxation sweep  {:9.3f} ms   {:8.1f} GB/s minimal                  {:5.1f}% of copy\n"
          "  heatbath + 4 OR       {:9.3f} sweeps/s   ({:.3g} link updates/s in the heatbath)\n",
          dims_string(dims), action.name(), opt.repetitions, t_hb * 1e3, minimal / t_hb / 1e9, naive / t_hb / 1e9,
          100 * minimal / t_hb / 1e9 / copy.gb_per_s, t_or * 1e3, minimal / t_or / 1e9,
          100 * minimal / t_or / 1e9 / copy.gb_per_s, 1.0 / combined, 4 * v / t_hb);
  }
  if (opt.json) std::cout << result.dump() << std::endl;
  return 0;
}

}  // namespace lqcd::app
