#include "app/loops_input.hpp"

#include <fmt/format.h>

#include "core/error.hpp"
#include "measure/spin_matrix.hpp"

namespace lqcd::app {

std::vector<KeySpec> loops_schema() {
  std::vector<KeySpec> s = quark_schema("lqcd-loops");
  s.push_back({"loops.noise", "\"z4\"", "noise of the sources: \"z2\" (+-1), \"z4\" (+-1, +-i) or \"u1\" (e^{i phi})"});
  s.push_back({"loops.vectors", "4", "noise vectors; each one's estimate is written on its own (errors from their spread)"});
  s.push_back({"loops.seed", "1", "seed of the noise (vector i draws from seed and i)"});
  s.push_back({"loops.dilution", "[\"spin\", \"colour\"]",
               "dilution of each noise vector: any of \"time\", \"spin\", \"colour\" (one solve per piece: "
               "T x 4 x 3 x space_stride^3 at most)"});
  s.push_back({"loops.space_stride", "1",
               "spatial dilution: the sites split into stride^3 classes by (x mod s, y mod s, z mod s); 1: none"});
  s.push_back({"loops.gammas", "[\"1\", \"g5\", \"gx\", \"gy\", \"gz\", \"gt\"]",
               "the Gammas of tr[Gamma M^-1(x, x)], named as the spectrum's (\"1\", \"gx\", \"gxgy\", ..., \"g5\")"});
  s.push_back({"loops.momenta", "[[0, 0, 0]]", "momenta p = 2 pi n / L of the loops, as integer vectors n"});
  s.push_back({"loops.hopping_expansion", "0",
               "variance reduction: the first n terms of the hopping-parameter expansion of M^-1 taken exactly, the "
               "noise estimating only the rest (same expectation): 0 (off), 2 or 4; 4 costs 24 + 48 x (8 to ~19) operator "
               "applications once per configuration (8 when every extent is a multiple of 4), and n more per solve"});
  return s;
}

LoopsInput read_loops_input(const Config& c) {
  LoopsInput in;
  in.quark = read_quark_input(c);
  refuse_open_time_boundary(c, in.quark);
  if (in.quark.source_smearing.iterations > 0 || in.quark.sink_smearing.iterations > 0)
    c.fail_key(in.quark.source_smearing.iterations > 0 ? "source.smearing" : "sink.smearing",
               "the loops are local (tr[Gamma M^-1(x, x)]): use no smearing");
  try {
    in.noise.type = noise_type_from_name(c.string("loops.noise"), "loops.noise");
  } catch (const Error&) {
    c.fail_key("loops.noise", fmt::format("unknown noise \"{}\" (expected \"z2\", \"z4\" or \"u1\")", c.string("loops.noise")));
  }
  const std::int64_t vectors = c.integer("loops.vectors");
  if (vectors < 1 || vectors > 1000000) c.fail_key("loops.vectors", fmt::format("expected 1 to 1000000, got {}", vectors));
  in.vectors = int(vectors);
  const std::int64_t seed = c.integer("loops.seed");
  if (seed < 0) c.fail_key("loops.seed", fmt::format("expected a non-negative integer, got {}", seed));
  in.noise.seed = std::uint64_t(seed);
  for (const std::string& d : c.strings("loops.dilution")) {
    bool* flag = d == "time" ? &in.noise.dilution.time : d == "spin" ? &in.noise.dilution.spin
                                                      : d == "colour" ? &in.noise.dilution.colour : nullptr;
    if (!flag) c.fail_key("loops.dilution", fmt::format("unknown dilution \"{}\" (expected \"time\", \"spin\" or \"colour\")", d));
    if (*flag) c.fail_key("loops.dilution", fmt::format("\"{}\" is listed twice", d));
    *flag = true;
  }
  const std::int64_t stride = c.integer("loops.space_stride");
  if (stride > 4096) c.fail_key("loops.space_stride", fmt::format("{} exceeds any lattice extent lqcd runs", stride));
  for (int mu = 0; mu < 3 && in.quark.dims_set; ++mu)
    if (stride > in.quark.dims[mu])
      c.fail_key("loops.space_stride", fmt::format("{} exceeds the lattice's extent {} in direction {}", stride, in.quark.dims[mu], mu));
  if (stride < 1) c.fail_key("loops.space_stride", fmt::format("expected at least 1, got {}", stride));
  in.noise.dilution.space_stride = int(stride);
  for (const std::string& g : c.strings("loops.gammas")) {
    int n = 0;
    try {
      n = gamma_index(g, "loops.gammas");
    } catch (const Error&) {
      c.fail_key("loops.gammas", fmt::format("unknown Gamma \"{}\" (expected one of 1, gx, gy, gxgy, gz, ..., g5: products in x, "
                                             "y, z, t order)", g));
    }
    for (const int k : in.gammas)
      if (k == n) c.fail_key("loops.gammas", fmt::format("\"{}\" is listed twice", g));
    in.gammas.push_back(n);
  }
  if (in.gammas.empty()) c.fail_key("loops.gammas", "expected at least one Gamma, e.g. [\"1\"]");
  in.momenta = read_momenta(c, "loops.momenta");
  const std::int64_t order = c.integer("loops.hopping_expansion");
  if (order != 0 && order != 2 && order != 4)
    c.fail_key("loops.hopping_expansion", fmt::format("expected 0 (off), 2 or 4, got {}", order));
  in.hopping_expansion = int(order);
  return in;
}

}  // namespace lqcd::app
