#include "app/distill_input.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "measure/spin_matrix.hpp"

namespace lqcd::app {

std::vector<KeySpec> distill_schema() {
  // The [source] and [sink] keys of quark_schema are read but not used: distillation makes its own sources.
  std::vector<KeySpec> s = quark_schema("lqcd-distill");
  for (KeySpec& k : s)
    if (k.path.starts_with("source.") || k.path.starts_with("sink."))
      k.help = "not used by lqcd distill (distillation makes its own sources)";
  const std::vector<KeySpec> own = {
      {"distillation.nv", "64", "Laplacian eigenvectors per time slice (the distillation space), 1..3 Lx Ly Lz"},
      {"distillation.tolerance", "1e-11", "eigenvector residual ||-Laplacian v - lambda v|| to reach (|v| = 1)"},
      {"distillation.chebyshev_degree", "64", "degree of the Chebyshev filter of the subspace iteration"},
      {"distillation.guard", "0", "extra vectors in the iterated block (0: max(8, nv / 4))"},
      {"distillation.max_iterations", "100", "filter + Rayleigh-Ritz rounds per time slice before giving up"},
      {"distillation.seed", "1", "seed of the random start vectors"},
      {"distillation.stout_steps", "10", "3D stout smearing steps of the Laplacian's links (0: none)"},
      {"distillation.stout_rho", "0.1", "3D stout smearing parameter rho"},
      {"distillation.source_times", "[0]", "source time slices t0 of the perambulators (4 nv solves each)"},
      {"distillation.gammas", "[\"g5\", \"gxgygz\", \"gx\", \"gxgt\"]",
       "gamma structures of the meson operators (names as lqcd spectrum: products in x, y, z, t order; g5)"},
      {"distillation.momenta", "[[0, 0, 0]]", "operator momenta p = 2 pi n / L, as integer vectors n"},
      {"distillation.displacements", "[\"none\"]",
       "one-link covariant derivatives of the operators: any of none, x, y, z"},
      {"distillation.gevp", "[[\"g5\", \"gxgygz\"], [\"gx\", \"gxgt\"]]",
       "GEVP channels: lists of gamma names (each must be in gammas); solved per momentum, undisplaced "
       "operators; [] for none"},
      {"distillation.gevp_t0", "1", "reference time t0 of the GEVP C(t) v = lambda C(t0) v"},
      {"distillation.eigenvectors_in", "\"\"", "reuse the eigenvectors of this PREFIX.eigvecs.h5 (\"\": compute them)"},
      {"distillation.save_eigenvectors", "false", "write the eigenvectors to PREFIX.eigvecs.h5 (CRC32 per slice)"},
  };
  s.insert(s.end(), own.begin(), own.end());
  return s;
}

std::vector<ElementalKind> DistillInput::kinds() const {
  std::vector<ElementalKind> k;
  for (const auto& p : momenta)
    for (int d : displacements) k.push_back(ElementalKind{p, d});
  return k;
}

std::vector<DistillationOperator> DistillInput::operators() const {
  std::vector<DistillationOperator> ops;
  for (const ElementalKind& k : kinds())
    for (int g : gammas) ops.push_back(DistillationOperator{g, k});
  return ops;
}

DistillInput read_distill_input(const Config& c) {
  DistillInput in;
  in.quark = read_quark_input(c);
  refuse_open_time_boundary(c, in.quark);
  in.eigen.nv = int(std::clamp<std::int64_t>(c.integer("distillation.nv"), -1, 1 << 30));
  in.eigen.tolerance = c.real("distillation.tolerance");
  in.eigen.chebyshev_degree = int(std::clamp<std::int64_t>(c.integer("distillation.chebyshev_degree"), -1, 1 << 30));
  in.eigen.guard = int(std::clamp<std::int64_t>(c.integer("distillation.guard"), -1, 1 << 30));
  in.eigen.max_iterations = int(std::clamp<std::int64_t>(c.integer("distillation.max_iterations"), -1, 1 << 30));
  in.eigen.seed = std::uint64_t(c.integer("distillation.seed"));
  if (in.quark.dims_set) check_laplacian_eigen_params(in.eigen, in.quark.dims, c.source() + ": distillation.");
  in.stout.steps = int(std::clamp<std::int64_t>(c.integer("distillation.stout_steps"), -1, 1 << 20));
  in.stout.rho = c.real("distillation.stout_rho");
  in.stout.spatial_only = true;
  check_stout_params(in.stout, c.source() + ": distillation.stout");
  for (std::int64_t t : c.integers("distillation.source_times")) {
    if (t < 0 || t > (1 << 20)) c.fail_key("distillation.source_times", fmt::format("time {} is negative or too large", t));
    if (in.quark.dims_set && t >= in.quark.dims[3])
      c.fail_key("distillation.source_times", fmt::format("time {} is outside 0..{}", t, in.quark.dims[3] - 1));
    in.source_times.push_back(int(t));
  }
  if (in.source_times.empty()) c.fail_key("distillation.source_times", "expected at least one source time");
  for (const std::string& g : c.strings("distillation.gammas")) {
    const int n = gamma_index(g, c.source() + ": distillation.gammas");
    if (std::find(in.gammas.begin(), in.gammas.end(), n) != in.gammas.end())
      c.fail_key("distillation.gammas", fmt::format("\"{}\" is listed twice", g));
    in.gammas.push_back(n);
  }
  if (in.gammas.empty()) c.fail_key("distillation.gammas", "expected at least one gamma structure, e.g. [\"g5\"]");
  in.momenta = read_momenta(c, "distillation.momenta");
  for (const std::string& d : c.strings("distillation.displacements")) {
    const int k = d == "none" ? -1 : d == "x" ? 0 : d == "y" ? 1 : d == "z" ? 2 : -2;
    if (k == -2) c.fail_key("distillation.displacements", fmt::format("\"{}\": expected none, x, y or z", d));
    in.displacements.push_back(k);
  }
  if (in.displacements.empty()) c.fail_key("distillation.displacements", "expected at least one, e.g. [\"none\"]");
  for (const std::vector<std::string>& names : c.string_arrays("distillation.gevp")) {
    GevpChannel channel;
    for (const std::string& name : names) {
      const int n = gamma_index(name, c.source() + ": distillation.gevp");
      if (std::find(in.gammas.begin(), in.gammas.end(), n) == in.gammas.end())
        c.fail_key("distillation.gevp", fmt::format("\"{}\" is not among distillation.gammas", name));
      if (!channel.name.empty()) channel.name += '+';
      channel.name += name;
      channel.gammas.push_back(n);
    }
    in.gevp.push_back(channel);
  }
  const std::int64_t t0 = c.integer("distillation.gevp_t0");
  if (t0 < 0 || (in.quark.dims_set && t0 >= in.quark.dims[3]) || t0 > (1 << 20))
    c.fail_key("distillation.gevp_t0", "expected a time slice 0..T-1");
  in.gevp_t0 = int(t0);
  in.eigenvectors_in = c.string("distillation.eigenvectors_in");
  in.save_eigenvectors = c.boolean("distillation.save_eigenvectors");
  return in;
}

}  // namespace lqcd::app
