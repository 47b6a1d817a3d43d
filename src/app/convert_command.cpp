#include "app/convert_command.hpp"

#include <memory>

#include <CLI/CLI.hpp>

#include <filesystem>
#include <iostream>

#include "app/input_values.hpp"
#include "app/run_files.hpp"
#include "core/error.hpp"
#include "fields/lexicographic_gauge.hpp"
#include "measure/configuration.hpp"

namespace lqcd::app {

int run_convert(const ConvertCommandOptions& opt) {
  if (opt.format != "ildg" && opt.format != "nersc" && opt.format != "openqcd")
    fail("--format: expected ildg, nersc or openqcd (got \"{}\")", opt.format);
  if (opt.precision != 0 && opt.precision != 32 && opt.precision != 64)
    fail("--precision: expected 32 or 64 (got {})", opt.precision);
  std::error_code ec;
  if (std::filesystem::equivalent(opt.input, opt.output, ec))
    fail("{}: input and output are the same file", opt.output);
  // symlink_status: a dangling or looping symbolic link is there too, and must not be replaced silently.
  if (std::filesystem::exists(std::filesystem::symlink_status(opt.output, ec)) && !opt.force)
    fail("{}: exists already (use --force to replace it)", opt.output);

  const Dims copies = opt.tile.empty() ? Dims{1, 1, 1, 1} : parse_dims_option(opt.tile, "--tile");
  LoadedConfiguration c = load_configuration(opt.input);
  io::WriteOptions w;
  w.precision_bits = opt.precision ? opt.precision : c.info.precision_bits;
  if (opt.format == "openqcd" && w.precision_bits != 64) {
    if (opt.precision == 32) fail("--precision 32: the openqcd format stores 64-bit reals only");
    w.precision_bits = 64;
  }
  // Widening 32-bit links projects them to SU(3) first; the header gets the projected field's values.
  const bool projected = project_for_wider_output(c, w.precision_bits);
  w.plaquette = c.observables.plaquette;
  w.link_trace = c.observables.link_trace;
  w.metadata = {{"lqcd.converted_from", opt.input}, {"lqcd.source_format", c.info.format}};
  if (!opt.tile.empty()) w.metadata["lqcd.tiled"] = dims_string(copies);
  if (projected) w.metadata["lqcd.projected"] = "links from 32-bit storage projected to SU(3) in double";
  const LexicographicGauge lex = tile(to_lexicographic(c.field), copies);
  if (opt.format == "nersc") io::write_nersc(opt.output, lex, w);
  else if (opt.format == "openqcd") io::write_openqcd(opt.output, lex, w);
  else io::write_ildg(opt.output, lex, w);
  std::cout << fmt::format("{} ({}, {}, {}-bit) -> {} ({}, {}, {}-bit{}); plaquette {:.12f}\n", opt.input,
                           dims_string(c.field.geometry().global), c.info.format, c.info.precision_bits, opt.output,
                           dims_string(lex.dims), opt.format, w.precision_bits,
                           projected ? ", projected to SU(3)" : "", c.observables.plaquette);
  return 0;
}

Command add_convert_command(CLI::App& lqcd) {
  auto o = std::make_shared<ConvertCommandOptions>();
  CLI::App* c = lqcd.add_subcommand(
      "convert", "Convert a configuration to another format; the input is verified first, writes are atomic.");
  c->add_option("input", o->input, "configuration to read (any supported format)")->required();
  c->add_option("output", o->output, "file to write")->required();
  c->add_option("--format", o->format, "ildg | nersc | openqcd")->capture_default_str();
  c->add_option("--precision", o->precision, "32 | 64 bits per real (default: as stored in the input)");
  c->add_option("--tile", o->tile,
                      "NX,NY,NZ,NT: repeat the lattice this many times per direction (e.g. 2,2,2,2 makes 16^4 "
                      "into 32^4; the plaquette is unchanged)");
  c->add_flag("--force", o->force, "replace an existing output file");
  return {c, [o] { return run_convert(*o); }};
}

}  // namespace lqcd::app
