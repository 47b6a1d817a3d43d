#include "app/heatbath_input.hpp"

#include <cmath>
#include <limits>

#include "app/input_values.hpp"
#include "app/run_files.hpp"
#include "core/error.hpp"

namespace lqcd::app {

std::vector<KeySpec> heatbath_schema() {
  std::vector<KeySpec> s = {
      {"lattice.dims", "[8, 8, 8, 8]", "extents (x, y, z, t); even, multiples of 4 for rectangle actions"},
      {"gauge.beta", "6.0", "coupling beta = 6/g^2"},
      {"gauge.action", "\"wilson\"", "wilson | symanzik (c1=-1/12) | iwasaki (c1=-0.331) | dbw2 (c1=-1.4088)"},
      gauge_boundary_schema()[0],
      gauge_boundary_schema()[1],
      {"heatbath.start", "\"hot\"", "hot (Haar-random links) | cold (unit links)"},
      {"heatbath.seed", "12345", "seed of the counter-based random numbers (Philox-4x32-10)"},
      {"heatbath.thermalization", "20", "sweeps before averages start and configurations are saved"},
      {"heatbath.sweeps", "30", "sweeps after thermalization"},
      {"heatbath.overrelaxation", "4", "overrelaxation steps after each heatbath step"},
      {"heatbath.measure_every", "1", "measure the gauge observables every N sweeps"},
  };
  for (KeySpec& k : flow_schema("configuration (output.save_every sweeps apart, or heatbath.measure_every)"))
    s.push_back(std::move(k));
  for (KeySpec& k : chain_output_schema("lqcd-heatbath", "sweeps")) s.push_back(std::move(k));
  return s;
}

HeatbathInput read_heatbath_input(const Config& c) {
  HeatbathInput in;
  in.dims = read_lattice_dims(c);
  const double beta = c.real("gauge.beta");
  if (!(beta > 0) || !std::isfinite(beta)) c.fail_key("gauge.beta", fmt::format("expected a positive number, got {}", beta));
  try {
    in.action = GaugeAction::from_name(c.string("gauge.action"), beta);
  } catch (const Error& e) {
    fail("{}: {}", c.source(), e.what());
  }
  read_gauge_boundary(c, in.dims, in.action);
  if (in.action.has_rectangles())
    for (int mu = 0; mu < 4; ++mu)
      if (in.dims[mu] % 4)
        c.fail_key("lattice.dims", fmt::format("the {} action's heatbath needs every extent to be a multiple of 4 (got {})",
                                               in.action.name(), dims_string(in.dims)));
  in.start = c.string("heatbath.start");
  if (in.start != "hot" && in.start != "cold")
    c.fail_key("heatbath.start", fmt::format("expected \"hot\" or \"cold\", got \"{}\"", in.start));
  in.seed = std::uint64_t(read_integer(c, "heatbath.seed", 0, std::numeric_limits<std::int64_t>::max()));
  in.thermalization = int(read_integer(c, "heatbath.thermalization", 0, 1 << 30));
  in.sweeps = int(read_integer(c, "heatbath.sweeps", 0, 1 << 30));
  in.overrelaxation = int(read_integer(c, "heatbath.overrelaxation", 0, 1 << 30));
  in.measure_every = int(read_integer(c, "heatbath.measure_every", 1, 1 << 30));
  in.prefix = read_output_prefix(c);
  const SavedFormat saved = read_saved_format(c);
  in.format = saved.format;
  in.precision = saved.precision;
  in.save_every = int(read_integer(c, "output.save_every", 0, 1 << 30));
  in.checkpoint_every = int(read_integer(c, "output.checkpoint_every", 0, 1 << 30));
  in.flow = read_flow_input(c, in.action.open());
  return in;
}

void check_heatbath_input(const Config& c) { (void)read_heatbath_input(c); }

}  // namespace lqcd::app
