// Issue 26, bad inputs: every input in the table below is wrong, and each must give a non-zero exit
// status, exactly one line of the program's own on stderr naming the file (TOML inputs) and the key or
// option with what was expected, and leave the directory as it was: no file created, none changed
// (earlier runs' outputs are there to be damaged). One process start per input (~50 ms each).
//
// LQCD_BAD_INPUTS_TABLE=FILE writes the table of docs/validation.md from the real runs (markdown rows).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include <fmt/format.h>

#include "cli_support.hpp"

namespace lqcd {
namespace {

using namespace std::string_literals;

enum class Kind {
  Toml,  // the text is written to bad.toml and the command runs on it
  Args   // the text is the command line (after "lqcd")
};

struct BadInput {
  const char* command;
  const char* what;
  Kind kind;
  std::string text;    // "@TESTDATA@" stands for the test-data directory; "BINARY" for a binary file
  std::string expect;  // the key or option the message must name
};

const BadInput kCases[] = {
    {"heatbath", "unknown key (typo)", Kind::Toml, "[heatbath]\nsweep = 3\n", "heatbath.sweep"},
    {"heatbath", "unknown section", Kind::Toml, "[mystery]\nx = 1\n", "mystery"},
    {"heatbath", "key outside any section", Kind::Toml, "sweeps = 3\n", "sweeps"},
    {"heatbath", "sub-table in a section", Kind::Toml, "[heatbath.more]\nsweeps = 3\n", "heatbath.more"},
    {"heatbath", "string for a number", Kind::Toml, "[gauge]\nbeta = \"6.0\"\n", "gauge.beta"},
    {"heatbath", "float for an integer", Kind::Toml, "[heatbath]\nsweeps = 3.5\n", "heatbath.sweeps"},
    {"heatbath", "array for a scalar", Kind::Toml, "[heatbath]\nsweeps = [3]\n", "heatbath.sweeps"},
    {"heatbath", "table for a value", Kind::Toml, "[heatbath]\nsweeps = { n = 3 }\n", "heatbath.sweeps"},
    {"heatbath", "boolean for an integer", Kind::Toml, "[heatbath]\nseed = true\n", "heatbath.seed"},
    {"heatbath", "integer for a string", Kind::Toml, "[gauge]\naction = 1\n", "gauge.action"},
    {"heatbath", "zero extent", Kind::Toml, "[lattice]\ndims = [0, 8, 8, 8]\n", "lattice.dims"},
    {"heatbath", "negative extent", Kind::Toml, "[lattice]\ndims = [-8, 8, 8, 8]\n", "lattice.dims"},
    {"heatbath", "odd extent", Kind::Toml, "[lattice]\ndims = [8, 8, 7, 8]\n", "lattice.dims"},
    {"heatbath", "extent 2^40", Kind::Toml, "[lattice]\ndims = [1099511627776, 8, 8, 8]\n", "lattice.dims"},
    {"heatbath", "extents of 10^6 (petabytes)", Kind::Toml, "[lattice]\ndims = [1000000, 1000000, 8, 8]\n", "lattice.dims"},
    {"heatbath", "4096^4 (terabytes)", Kind::Toml, "[lattice]\ndims = [4096, 4096, 4096, 4096]\n", "lattice.dims"},
    {"heatbath", "non-integer extent", Kind::Toml, "[lattice]\ndims = [8.0, 8, 8, 8]\n", "lattice.dims"},
    {"heatbath", "string extents", Kind::Toml, "[lattice]\ndims = [\"8\", \"8\", \"8\", \"8\"]\n", "lattice.dims"},
    {"heatbath", "three extents", Kind::Toml, "[lattice]\ndims = [8, 8, 8]\n", "lattice.dims"},
    {"heatbath", "five extents", Kind::Toml, "[lattice]\ndims = [8, 8, 8, 8, 8]\n", "lattice.dims"},
    {"heatbath", "no extents", Kind::Toml, "[lattice]\ndims = []\n", "lattice.dims"},
    {"heatbath", "a number for the extents", Kind::Toml, "[lattice]\ndims = 8\n", "lattice.dims"},
    {"heatbath", "unknown time boundary", Kind::Toml, "[gauge]\nboundary = \"closed\"\n", "gauge.boundary"},
    {"heatbath", "open boundaries with rectangles", Kind::Toml, "[gauge]\naction = \"symanzik\"\nboundary = \"open\"\n", "gauge.boundary"},
    {"heatbath", "open boundaries on 2 time slices", Kind::Toml, "[gauge]\nboundary = \"open\"\n[lattice]\ndims = [8, 8, 8, 2]\n", "gauge.boundary"},
    {"heatbath", "negative c_G", Kind::Toml, "[gauge]\nboundary = \"open\"\nc_G = -1.0\n", "gauge.c_G"},
    {"heatbath", "rectangle action, extent not a multiple of 4", Kind::Toml, "[gauge]\naction = \"iwasaki\"\n[lattice]\ndims = [8, 8, 8, 6]\n", "lattice.dims"},
    {"heatbath", "beta = nan", Kind::Toml, "[gauge]\nbeta = nan\n", "gauge.beta"},
    {"heatbath", "beta = inf", Kind::Toml, "[gauge]\nbeta = inf\n", "gauge.beta"},
    {"heatbath", "beta = -inf", Kind::Toml, "[gauge]\nbeta = -inf\n", "gauge.beta"},
    {"heatbath", "beta = 0", Kind::Toml, "[gauge]\nbeta = 0.0\n", "gauge.beta"},
    {"heatbath", "unknown gauge action", Kind::Toml, "[gauge]\naction = \"wilsn\"\n", "gauge.action"},
    {"heatbath", "unknown start", Kind::Toml, "[heatbath]\nstart = \"warm\"\n", "heatbath.start"},
    {"heatbath", "negative seed", Kind::Toml, "[heatbath]\nseed = -1\n", "heatbath.seed"},
    {"heatbath", "integer overflow", Kind::Toml, "[heatbath]\nseed = 9223372036854775808\n", "bad.toml:2"},
    {"heatbath", "sweeps = 2^40", Kind::Toml, "[heatbath]\nsweeps = 1099511627776\n", "heatbath.sweeps"},
    {"heatbath", "sweeps = -1", Kind::Toml, "[heatbath]\nsweeps = -1\n", "heatbath.sweeps"},
    {"heatbath", "thermalization = 2^40", Kind::Toml, "[heatbath]\nthermalization = 1099511627776\n", "heatbath.thermalization"},
    {"heatbath", "measure_every = 0", Kind::Toml, "[heatbath]\nmeasure_every = 0\n", "heatbath.measure_every"},
    {"heatbath", "overrelaxation = -1", Kind::Toml, "[heatbath]\noverrelaxation = -1\n", "heatbath.overrelaxation"},
    {"heatbath", "duplicate key", Kind::Toml, "[heatbath]\nsweeps = 3\nsweeps = 4\n", "sweeps"},
    {"heatbath", "duplicate section", Kind::Toml, "[heatbath]\nsweeps = 3\n[heatbath]\nseed = 4\n", "heatbath"},
    {"heatbath", "syntax error", Kind::Toml, "[heatbath\nsweeps = 3\n", "bad.toml:1"},
    {"heatbath", "binary bytes, not TOML", Kind::Toml, "BINARY", "bad.toml:1"},
    // The fuzzer's finding: toml++ 3.3 reaches __builtin_unreachable() on U+FCB6..U+FEFE (src/app/config.cpp).
    {"heatbath", "U+FCBF, which toml++ 3.3 mishandles", Kind::Toml, " \xef\xb2\xbf", "bad.toml:1:2"},
    {"heatbath", "U+FEFE in a key", Kind::Toml, "[heatbath]\nsw\xef\xbb\xbe" "eps = 3\n", "bad.toml:2:3"},
    // Issue 47's fuzzing (toml, 620 s on the GPU machine): the same undefined behaviour for U+00A1..U+0499 and
    // U+2C8E..U+3087 wherever whitespace may stand; the five inputs it kept had U+00EB, U+0113, U+0222, U+03DA
    // and U+048B before a key. Each must be one syntax error with its line and column.
    {"heatbath", "U+00EB before a key", Kind::Toml, "[heatbath]\n\xc3\xab sweeps = 3\n", "bad.toml:2:1"},
    {"heatbath", "U+0113 after a value", Kind::Toml, "[heatbath]\nsweeps = 3 \xc4\x93\n", "bad.toml:2:12"},
    {"heatbath", "U+0222 in a table header", Kind::Toml, "[heat\xc8\xa2" "bath]\n", "bad.toml:1:6"},
    {"heatbath", "U+03DA in an array", Kind::Toml, "[lattice]\ndims = [4, \xcf\x9a 4, 4, 4]\n", "bad.toml:2:12"},
    {"heatbath", "U+048B at the start", Kind::Toml, "\xd2\x8b", "bad.toml:1:1"},
    {"heatbath", "U+2C90 before a key", Kind::Toml, "\xe2\xb2\x90sweeps = 3\n", "bad.toml:1:1"},
    // toml++'s groups exactly (the review of issue 47): U+2C5E..U+3057 and U+FB26..U+FEFE, the character after
    // a backslash in a multi-line string, and code after a multi-line string closed by four quotes.
    {"heatbath", "U+2C60 after a value", Kind::Toml, "[heatbath]\nsweeps = 3\xe2\xb1\xa0\n", "bad.toml:2:11"},
    {"heatbath", "U+FB50 after a value", Kind::Toml, "[heatbath]\nsweeps = 3\xef\xad\x90\n", "bad.toml:2:11"},
    {"heatbath", "U+00B5 escaped in a multi-line string", Kind::Toml, "[output]\nprefix = \"\"\"a\\\xc2\xb5\"\"\"\n",
     "bad.toml:2:15"},
    {"heatbath", "U+00B5 after a four-quote close", Kind::Toml, "[output]\nprefix = \"\"\"a\"\"\"\" \xc2\xb5\n",
     "bad.toml:2:19"},
    {"heatbath", "U+03B2 after a multi-line string's line-ending backslash", Kind::Toml,
     "[output]\nprefix = \"\"\"run\\\n  \xce\xb2\"\"\"\n", "bad.toml:3:3"},
    {"heatbath", "unknown output format", Kind::Toml, "[output]\nformat = \"hdf5\"\n", "output.format"},
    {"heatbath", "precision 16", Kind::Toml, "[output]\nprecision = 16\n", "output.precision"},
    {"heatbath", "openqcd in 32 bits", Kind::Toml, "[output]\nformat = \"openqcd\"\nprecision = 32\n", "output.precision"},
    {"heatbath", "empty prefix", Kind::Toml, "[output]\nprefix = \"\"\n", "output.prefix"},
    {"heatbath", "prefix names a directory", Kind::Toml, "[output]\nprefix = \"out/\"\n", "output.prefix"},
    {"heatbath", "save_every = -1", Kind::Toml, "[output]\nsave_every = -1\n", "output.save_every"},
    {"heatbath", "a directory as the input", Kind::Args, "heatbath adir", "adir"},
    {"heatbath", "missing input file", Kind::Args, "heatbath no-such-file.toml", "no-such-file.toml"},
    {"heatbath", "unknown option", Kind::Args, "heatbath --bogus", "--bogus"},
    {"heatbath", "unknown device", Kind::Args, "heatbath --device tpu", "--device"},
    {"heatbath", "bad --grid", Kind::Args, "heatbath --grid 1,1,1", "--grid"},
    {"hmc", "unknown clover field strength", Kind::Toml, "[[monomial]]\ntype = \"clover\"\ncsw = 1.7\nclover_field_strength = \"trace_less\"\nlevel = 0\n", "monomial.clover_field_strength"},
    {"hmc", "c_F on the gauge monomial", Kind::Toml, "[gauge]\nboundary = \"open\"\n[[monomial]]\ntype = \"gauge\"\nc_F = 1.1\nlevel = 0\n", "monomial.c_F"},
    {"hmc", "c_F without open boundaries", Kind::Toml, "[[monomial]]\ntype = \"gauge\"\nlevel = 0\n[[monomial]]\ntype = \"clover\"\ncsw = 1.7\nc_F = 1.2\nlevel = 0\n", "monomial.c_F"},
    {"hmc", "c_F without the clover term", Kind::Toml, "[gauge]\nboundary = \"open\"\n[[monomial]]\ntype = \"gauge\"\nlevel = 0\n[[monomial]]\ntype = \"wilson\"\nc_F = 1.2\nlevel = 0\n", "monomial.c_F"},
    {"hmc", "open boundaries with multigrid force solves", Kind::Toml, "[gauge]\nboundary = \"open\"\n[[monomial]]\ntype = \"gauge\"\nlevel = 0\n[[monomial]]\ntype = \"clover\"\ncsw = 1.7\nmultigrid = true\nlevel = 0\n", "monomial.multigrid"},
    {"hmc", "open boundaries with smeared quarks", Kind::Toml, "[gauge]\nboundary = \"open\"\n[fermion_smearing]\nsteps = 1\n[[monomial]]\ntype = \"gauge\"\nlevel = 0\n[[monomial]]\ntype = \"clover\"\ncsw = 1.7\nlevel = 0\n", "fermion_smearing.steps"},
    {"hmc", "no gauge monomial", Kind::Toml, "[[monomial]]\ntype = \"wilson\"\n", "monomial.type"},
    {"hmc", "two gauge monomials", Kind::Toml, "[[monomial]]\ntype = \"gauge\"\nlevel = 0\n[[monomial]]\ntype = \"gauge\"\nlevel = 0\n", "monomial.type"},
    {"hmc", "unknown monomial type", Kind::Toml, "[[monomial]]\ntype = \"gauge\"\nlevel = 0\n[[monomial]]\ntype = \"staggered\"\n", "monomial.type"},
    {"hmc", "unknown monomial key", Kind::Toml, "[[monomial]]\ntype = \"gauge\"\nlevel = 0\n[[monomial]]\ntype = \"wilson\"\ncolour = 3\n", "monomial.colour"},
    {"hmc", "[monomial] instead of [[monomial]]", Kind::Toml, "[monomial]\ntype = \"gauge\"\n", "monomial"},
    {"hmc", "monomial = a number", Kind::Toml, "monomial = 3\n", "monomial"},
    {"hmc", "kappa = nan", Kind::Toml, "[[monomial]]\ntype = \"gauge\"\nlevel = 0\n[[monomial]]\ntype = \"wilson\"\nkappa = nan\n", "monomial.kappa"},
    {"hmc", "kappa = inf", Kind::Toml, "[[monomial]]\ntype = \"gauge\"\nlevel = 0\n[[monomial]]\ntype = \"wilson\"\nkappa = inf\n", "monomial.kappa"},
    {"hmc", "kappa < 0", Kind::Toml, "[[monomial]]\ntype = \"gauge\"\nlevel = 0\n[[monomial]]\ntype = \"wilson\"\nkappa = -0.1\n", "monomial.kappa"},
    {"hmc", "csw = nan", Kind::Toml, "[[monomial]]\ntype = \"gauge\"\nlevel = 0\n[[monomial]]\ntype = \"clover\"\ncsw = nan\n", "monomial.csw"},
    {"hmc", "mu = inf", Kind::Toml, "[[monomial]]\ntype = \"gauge\"\nlevel = 0\n[[monomial]]\ntype = \"twisted_mass\"\nmu = inf\n", "monomial.mu"},
    {"hmc", "mu with a wilson monomial", Kind::Toml, "[[monomial]]\ntype = \"gauge\"\nlevel = 0\n[[monomial]]\ntype = \"wilson\"\nmu = 0.1\n", "monomial.mu"},
    {"hmc", "csw with a wilson monomial", Kind::Toml, "[[monomial]]\ntype = \"gauge\"\nlevel = 0\n[[monomial]]\ntype = \"wilson\"\ncsw = 1.0\n", "monomial.csw"},
    {"hmc", "ratio without its denominator", Kind::Toml, "[[monomial]]\ntype = \"gauge\"\nlevel = 0\n[[monomial]]\ntype = \"hasenbusch_ratio\"\n", "monomial.kappa2"},
    {"hmc", "kappa2 = nan", Kind::Toml, "[[monomial]]\ntype = \"gauge\"\nlevel = 0\n[[monomial]]\ntype = \"hasenbusch_ratio\"\nkappa2 = nan\n", "monomial.kappa2"},
    {"hmc", "kappa2 < 0", Kind::Toml, "[[monomial]]\ntype = \"gauge\"\nlevel = 0\n[[monomial]]\ntype = \"hasenbusch_ratio\"\nkappa2 = -0.1\n", "monomial.kappa2"},
    {"hmc", "lambda_min = nan", Kind::Toml, "[[monomial]]\ntype = \"gauge\"\nlevel = 0\n[[monomial]]\ntype = \"rational\"\nlambda_min = nan\n", "monomial.lambda_min"},
    {"hmc", "lambda_max = inf", Kind::Toml, "[[monomial]]\ntype = \"gauge\"\nlevel = 0\n[[monomial]]\ntype = \"rational\"\nlambda_max = inf\n", "monomial.lambda_max"},
    {"hmc", "spectrum_check = -1", Kind::Toml, "[[monomial]]\ntype = \"gauge\"\nlevel = 0\n[[monomial]]\ntype = \"rational\"\nspectrum_check = -1\n", "monomial.spectrum_check"},
    {"hmc", "lambda_min > lambda_max", Kind::Toml, "[[monomial]]\ntype = \"gauge\"\nlevel = 0\n[[monomial]]\ntype = \"rational\"\nlambda_min = 2.0\nlambda_max = 1.0\n", "monomial.lambda_max"},
    {"hmc", "solver.precision quarter", Kind::Toml, "[solver]\nprecision = \"quarter\"\n", "solver.precision"},
    {"hmc", "solver.reliable_delta 1", Kind::Toml, "[solver]\nreliable_delta = 1.0\n", "solver.reliable_delta"},
    {"hmc", "solver.inner_tolerance 1", Kind::Toml, "[solver]\ninner_tolerance = 1.0\n", "solver.inner_tolerance"},
    {"hmc", "solver.force_tolerance -1e-8", Kind::Toml, "[solver]\nforce_tolerance = -1e-8\n", "solver.force_tolerance"},
    {"hmc", "solver.force_tolerance nan", Kind::Toml, "[solver]\nforce_tolerance = nan\n", "solver.force_tolerance"},
    {"hmc", "multigrid on the gauge monomial", Kind::Toml, "[[monomial]]\ntype = \"gauge\"\nlevel = 0\nmultigrid = true\n[[monomial]]\ntype = \"wilson\"\n", "monomial.multigrid"},
    {"hmc", "multigrid with a twisted mass", Kind::Toml, "[[monomial]]\ntype = \"gauge\"\nlevel = 0\n[[monomial]]\ntype = \"twisted_mass\"\nmu = 0.1\nmultigrid = true\n", "monomial.multigrid"},
    {"hmc", "multigrid on the rational monomial", Kind::Toml, "[[monomial]]\ntype = \"gauge\"\nlevel = 0\n[[monomial]]\ntype = \"rational\"\nmultigrid = true\n", "monomial.multigrid"},
    {"hmc", "multigrid.block not dividing the lattice", Kind::Toml, "[[monomial]]\ntype = \"gauge\"\nlevel = 0\n[[monomial]]\ntype = \"wilson\"\nmultigrid = true\n[multigrid]\nblock = [3, 4, 4, 4]\n", "multigrid.block"},
    {"hmc", "multigrid.refresh_iterations -1", Kind::Toml, "[[monomial]]\ntype = \"gauge\"\nlevel = 0\n[[monomial]]\ntype = \"wilson\"\nmultigrid = true\n[multigrid]\nrefresh_iterations = -1\n", "multigrid.refresh_iterations"},
    {"hmc", "multigrid.coarse_distributed with coarse_half", Kind::Toml, "[[monomial]]\ntype = \"gauge\"\nlevel = 0\n[[monomial]]\ntype = \"wilson\"\nmultigrid = true\n[multigrid]\ncoarse_distributed = true\ncoarse_half = true\n", "multigrid.coarse_distributed"},
    {"hmc", "multigrid.refresh_growth 0.5", Kind::Toml, "[[monomial]]\ntype = \"gauge\"\nlevel = 0\n[[monomial]]\ntype = \"wilson\"\nmultigrid = true\n[multigrid]\nrefresh_growth = 0.5\n", "multigrid.refresh_growth"},
    {"hmc", "monomial.multigrid = 1", Kind::Toml, "[[monomial]]\ntype = \"gauge\"\nlevel = 0\n[[monomial]]\ntype = \"wilson\"\nmultigrid = 1\n", "monomial.multigrid"},
    {"hmc", "forecast 17", Kind::Toml, "[[monomial]]\ntype = \"gauge\"\nlevel = 0\n[[monomial]]\ntype = \"wilson\"\nforecast = 17\n", "monomial.forecast"},
    {"hmc", "forecast on the gauge monomial", Kind::Toml, "[[monomial]]\ntype = \"gauge\"\nlevel = 0\nforecast = 3\n[[monomial]]\ntype = \"wilson\"\n", "monomial.forecast"},
    {"hmc", "degree 0", Kind::Toml, "[[monomial]]\ntype = \"gauge\"\nlevel = 0\n[[monomial]]\ntype = \"rational\"\ndegree = 0\n", "monomial.degree"},
    {"hmc", "degree 2^32 + 12", Kind::Toml, "[[monomial]]\ntype = \"gauge\"\nlevel = 0\n[[monomial]]\ntype = \"rational\"\ndegree = 4294967308\n", "monomial.degree"},
    {"hmc", "rational with mu", Kind::Toml, "[[monomial]]\ntype = \"gauge\"\nlevel = 0\n[[monomial]]\ntype = \"rational\"\nmu = 0.1\n", "monomial.mu"},
    {"hmc", "level beyond the integrator", Kind::Toml, "[[monomial]]\ntype = \"gauge\"\nlevel = 3\n", "monomial.level"},
    {"hmc", "level -1", Kind::Toml, "[[monomial]]\ntype = \"gauge\"\nlevel = -1\n", "monomial.level"},
    {"hmc", "level 2^32", Kind::Toml, "[[monomial]]\ntype = \"gauge\"\nlevel = 4294967296\n", "monomial.level"},
    {"hmc", "unknown integrator", Kind::Toml, "[integrator]\ntype = \"euler\"\n", "integrator.type"},
    {"hmc", "zero steps", Kind::Toml, "[integrator]\nsteps = [4, 0]\n", "integrator.steps"},
    {"hmc", "no levels", Kind::Toml, "[integrator]\nsteps = []\n", "integrator.steps"},
    {"hmc", "steps = a number", Kind::Toml, "[integrator]\nsteps = 4\n", "integrator.steps"},
    {"hmc", "non-integer steps", Kind::Toml, "[integrator]\nsteps = [4.5]\n", "integrator.steps"},
    {"hmc", "steps = 2^40", Kind::Toml, "[integrator]\nsteps = [1099511627776]\n", "integrator.steps"},
    {"hmc", "tau = nan", Kind::Toml, "[integrator]\ntau = nan\n", "integrator.tau"},
    {"hmc", "tau = inf", Kind::Toml, "[integrator]\ntau = inf\n", "integrator.tau"},
    {"hmc", "tau = 0", Kind::Toml, "[integrator]\ntau = 0\n", "integrator.tau"},
    {"hmc", "trajectories = 2^40", Kind::Toml, "[hmc]\ntrajectories = 1099511627776\n", "hmc.trajectories"},
    {"hmc", "trajectories = -1", Kind::Toml, "[hmc]\ntrajectories = -1\n", "hmc.trajectories"},
    {"hmc", "float thermalization", Kind::Toml, "[hmc]\nthermalization = 3.0\n", "hmc.thermalization"},
    {"hmc", "negative seed", Kind::Toml, "[hmc]\nseed = -5\n", "hmc.seed"},
    {"hmc", "start file missing", Kind::Toml, "[hmc]\nstart = \"no-such.ildg\"\n", "hmc.start"},
    {"hmc", "integer for a boolean", Kind::Toml, "[hmc]\nreversibility_check = 1\n", "hmc.reversibility_check"},
    {"hmc", "tolerance = nan", Kind::Toml, "[solver]\ntolerance = nan\n", "solver.tolerance"},
    {"hmc", "tolerance = 0", Kind::Toml, "[solver]\ntolerance = 0.0\n", "solver.tolerance"},
    {"hmc", "tolerance = 2", Kind::Toml, "[solver]\ntolerance = 2.0\n", "solver.tolerance"},
    {"hmc", "max_iterations = 0", Kind::Toml, "[solver]\nmax_iterations = 0\n", "solver.max_iterations"},
    {"hmc", "beta = nan", Kind::Toml, "[gauge]\nbeta = nan\n", "gauge.beta"},
    {"hmc", "4096^4 (terabytes)", Kind::Toml, "[lattice]\ndims = [4096, 4096, 4096, 4096]\n", "lattice.dims"},
    {"hmc", "odd extent", Kind::Toml, "[lattice]\ndims = [8, 8, 8, 9]\n", "lattice.dims"},
    {"hmc", "missing input file", Kind::Args, "hmc no-such-file.toml", "no-such-file.toml"},
    {"spectrum", "kappa = nan", Kind::Toml, "[fermion]\nkappa = nan\n", "fermion.kappa"},
    {"spectrum", "kappa = inf", Kind::Toml, "[fermion]\nkappa = inf\n", "fermion.kappa"},
    {"spectrum", "kappa < 0", Kind::Toml, "[fermion]\nkappa = -0.1\n", "fermion.kappa"},
    {"spectrum", "mass = nan", Kind::Toml, "[fermion]\nmass = nan\n", "fermion.mass"},
    {"spectrum", "mass = inf", Kind::Toml, "[fermion]\nmass = inf\n", "fermion.mass"},
    {"spectrum", "mass = -4 (kappa infinite)", Kind::Toml, "[fermion]\nmass = -4.0\n", "fermion.mass"},
    {"spectrum", "both kappa and mass", Kind::Toml, "[fermion]\nkappa = 0.1\nmass = 0.5\n", "fermion.mass"},
    {"spectrum", "csw = nan", Kind::Toml, "[fermion]\naction = \"clover\"\ncsw = nan\n", "fermion.csw"},
    {"spectrum", "csw with wilson", Kind::Toml, "[fermion]\ncsw = 1.0\n", "fermion.csw"},
    {"spectrum", "unknown clover field strength", Kind::Toml,
     "[fermion]\naction = \"clover\"\ncsw = 1.0\nclover_field_strength = \"milc\"\n", "fermion.clover_field_strength"},
    {"spectrum", "negative rotation", Kind::Toml, "[spectrum]\nrotated_sink_d1 = -0.1\n", "spectrum.rotated_sink_d1"},
    {"spectrum", "wavefunction sink nan", Kind::Toml, "[spectrum]\nwavefunction_sink_radius = nan\n",
     "spectrum.wavefunction_sink_radius"},
    {"spectrum", "trace kept without csw", Kind::Toml, "[fermion]\naction = \"clover\"\nclover_field_strength = \"trace_kept\"\n",
     "fermion.clover_field_strength"},
    {"spectrum", "mu = nan", Kind::Toml, "[fermion]\naction = \"twisted_mass\"\nmu = nan\n", "fermion.mu"},
    {"spectrum", "two_kappa_mu = inf", Kind::Toml, "[fermion]\naction = \"twisted_mass\"\ntwo_kappa_mu = inf\n", "fermion.two_kappa_mu"},
    {"spectrum", "both mu and two_kappa_mu", Kind::Toml, "[fermion]\naction = \"twisted_mass\"\nmu = 0.1\ntwo_kappa_mu = 0.02\n", "fermion.two_kappa_mu"},
    {"spectrum", "mu without twisted_mass", Kind::Toml, "[fermion]\nmu = 0.1\n", "fermion.mu"},
    {"spectrum", "unknown fermion action", Kind::Toml, "[fermion]\naction = \"overlap\"\n", "fermion.action"},
    {"spectrum", "three boundary entries", Kind::Toml, "[fermion]\nboundary = [\"periodic\", \"periodic\", \"periodic\"]\n", "fermion.boundary"},
    {"spectrum", "unknown boundary", Kind::Toml, "[fermion]\nboundary = [\"periodic\", \"open\", \"periodic\", \"periodic\"]\n", "fermion.boundary"},
    {"spectrum", "free-field zero mode", Kind::Toml, "[fermion]\nkappa = 0.125\nboundary = [\"periodic\", \"periodic\", \"periodic\", \"periodic\"]\n", "fermion.kappa"},
    {"spectrum", "tolerance = nan", Kind::Toml, "[solver]\ntolerance = nan\n", "solver.tolerance"},
    {"spectrum", "tolerance = 0", Kind::Toml, "[solver]\ntolerance = 0.0\n", "solver.tolerance"},
    {"spectrum", "inner_tolerance = nan", Kind::Toml, "[solver]\ninner_tolerance = nan\n", "solver.inner_tolerance"},
    {"spectrum", "max_iterations = 2^40", Kind::Toml, "[solver]\nmax_iterations = 1099511627776\n", "solver.max_iterations"},
    {"spectrum", "gcr_restart = 0", Kind::Toml, "[solver]\ngcr_restart = 0\n", "solver.gcr_restart"},
    {"spectrum", "unknown solver", Kind::Toml, "[solver]\ntype = \"gmres\"\n", "solver.type"},
    {"spectrum", "unknown solver precision", Kind::Toml, "[solver]\nprecision = \"quarter\"\n", "solver.precision"},
    {"spectrum", "smearing_kappa = nan", Kind::Toml, "[source]\nsmearing = \"gaussian\"\nsmearing_iterations = 2\nsmearing_kappa = nan\n", "source.smearing_kappa"},
    {"spectrum", "smearing_width = nan", Kind::Toml, "[source]\nsmearing = \"gaussian\"\nsmearing_iterations = 2\nsmearing_width = nan\n", "source.smearing_width"},
    {"spectrum", "smearing_width = inf", Kind::Toml, "[source]\nsmearing = \"gaussian\"\nsmearing_iterations = 2\nsmearing_width = inf\n", "source.smearing_width"},
    {"spectrum", "smearing without iterations", Kind::Toml, "[source]\nsmearing = \"gaussian\"\n", "source.smearing_iterations"},
    {"spectrum", "unknown smearing", Kind::Toml, "[sink]\nsmearing = \"box\"\n", "sink.smearing"},
    {"spectrum", "ape_alpha = nan", Kind::Toml, "[source]\nape_alpha = nan\n", "source.ape_alpha"},
    {"spectrum", "ape_alpha = 2", Kind::Toml, "[source]\nape_alpha = 2.0\n", "source.ape_alpha"},
    {"spectrum", "source position 2^40", Kind::Toml, "[source]\nposition = [0, 0, 0, 1099511627776]\n", "source.position"},
    {"spectrum", "negative source position", Kind::Toml, "[source]\nposition = [0, 0, 0, -1]\n", "source.position"},
    {"spectrum", "three source coordinates", Kind::Toml, "[source]\nposition = [0, 0, 0]\n", "source.position"},
    {"spectrum", "source outside the lattice", Kind::Toml, "[source]\nposition = [0, 0, 0, 8]\n", "source.position"},
    {"spectrum", "negative source seed", Kind::Toml, "[source]\nseed = -1\n", "source.seed"},
    {"spectrum", "unknown source type", Kind::Toml, "[source]\ntype = \"volume\"\n", "source.type"},
    {"spectrum", "gaussian_wavefunction without gauge fixing", Kind::Toml, "[source]\ntype = \"gaussian_wavefunction\"\n", "source.type"},
    {"spectrum", "source radius 0", Kind::Toml, "[source]\ntype = \"gaussian_wavefunction\"\nradius = 0.0\n[gauge_fixing]\ngauge = \"coulomb\"\n", "source.radius"},
    {"spectrum", "source radius = nan", Kind::Toml, "[source]\nradius = nan\n", "source.radius"},
    {"spectrum", "momentum 2^40", Kind::Toml, "[spectrum]\nmomenta = [[0, 0, 1099511627776]]\n", "spectrum.momenta"},
    {"spectrum", "a flat momentum list", Kind::Toml, "[spectrum]\nmomenta = [0, 0, 0]\n", "spectrum.momenta"},
    {"spectrum", "no momenta", Kind::Toml, "[spectrum]\nmomenta = []\n", "spectrum.momenta"},
    {"spectrum", "two-component momentum", Kind::Toml, "[spectrum]\nmomenta = [[0, 0]]\n", "spectrum.momenta"},
    {"spectrum", "gauge.config missing", Kind::Toml, "[gauge]\nconfig = \"missing.ildg\"\n", "gauge.config"},
    {"spectrum", "gauge.config empty", Kind::Toml, "[gauge]\nconfig = \"\"\n", "gauge.config"},
    {"spectrum", "gauge.config a directory", Kind::Toml, "[gauge]\nconfig = \"adir\"\n", "gauge.config"},
    {"spectrum", "dims unlike the file's", Kind::Toml, "[gauge]\nconfig = \"@TESTDATA@/milc_l8888_b6.0.milc\"\n[lattice]\ndims = [8, 8, 8, 16]\n", "lattice.dims"},
    {"spectrum", "4096^4 (terabytes)", Kind::Toml, "[lattice]\ndims = [4096, 4096, 4096, 4096]\n", "lattice.dims"},
    {"spectrum", "multi_rhs with bicgstab", Kind::Toml, "[solver]\nmulti_rhs = true\ntype = \"bicgstab\"\n", "solver.multi_rhs"},
    {"spectrum", "missing input file", Kind::Args, "spectrum --json no-such-file.toml", "no-such-file.toml"},
    {"propagator", "kappa = nan", Kind::Toml, "[fermion]\nkappa = nan\n", "fermion.kappa"},
    {"propagator", "a [spectrum] section", Kind::Toml, "[spectrum]\nmomenta = [[0, 0, 0]]\n", "spectrum"},
    {"spectrum", "negative one-end vectors", Kind::Toml, "[spectrum]\none_end_vectors = -1\n", "spectrum.one_end_vectors"},
    {"spectrum", "unknown one-end noise", Kind::Toml, "[spectrum]\none_end_vectors = 2\none_end_noise = \"z3\"\n", "spectrum.one_end_noise"},
    {"loops", "unknown noise", Kind::Toml, "[loops]\nnoise = \"gaussian\"\n", "loops.noise"},
    {"loops", "open boundaries", Kind::Toml, "[fermion]\nboundary = [\"periodic\", \"periodic\", \"periodic\", \"open\"]\n[source]\nposition = [0, 0, 0, 2]\n", "fermion.boundary"},
    {"loops", "no noise vectors", Kind::Toml, "[loops]\nvectors = 0\n", "loops.vectors"},
    {"loops", "unknown dilution", Kind::Toml, "[loops]\ndilution = [\"space\"]\n", "loops.dilution"},
    {"loops", "dilution listed twice", Kind::Toml, "[loops]\ndilution = [\"spin\", \"spin\"]\n", "loops.dilution"},
    {"loops", "space stride 0", Kind::Toml, "[loops]\nspace_stride = 0\n", "loops.space_stride"},
    {"loops", "space stride beyond the lattice", Kind::Toml, "[lattice]\ndims = [4, 4, 4, 4]\n[loops]\nspace_stride = 5\n", "loops.space_stride"},
    {"loops", "unknown Gamma", Kind::Toml, "[loops]\ngammas = [\"g6\"]\n", "loops.gammas"},
    {"loops", "no Gammas", Kind::Toml, "[loops]\ngammas = []\n", "loops.gammas"},
    {"loops", "hopping expansion of order 3", Kind::Toml, "[loops]\nhopping_expansion = 3\n", "loops.hopping_expansion"},
    {"loops", "smeared sources", Kind::Toml, "[source]\nsmearing = \"gaussian\"\nsmearing_iterations = 3\n", "source.smearing"},
    {"propagator", "4096^4 (terabytes)", Kind::Toml, "[lattice]\ndims = [4096, 4096, 4096, 4096]\n", "lattice.dims"},
    {"propagator", "gauge.config missing", Kind::Toml, "[gauge]\nconfig = \"missing.ildg\"\n", "gauge.config"},
    {"bench", "unknown benchmark", Kind::Args, "bench warp", "warp"},
    {"bench", "three extents", Kind::Args, "bench dslash --dims 8,8,8", "--dims"},
    {"bench", "five extents", Kind::Args, "bench dslash --dims 8,8,8,8,8", "--dims"},
    {"bench", "zero extent", Kind::Args, "bench dslash --dims 0,8,8,8", "--dims"},
    {"bench", "negative extent", Kind::Args, "bench dslash --dims -8,8,8,8", "--dims"},
    {"bench", "non-integer extent", Kind::Args, "bench dslash --dims 8.5,8,8,8", "--dims"},
    {"bench", "odd extent", Kind::Args, "bench dslash --dims 7,8,8,8", "--dims"},
    {"bench", "extent beyond int", Kind::Args, "bench dslash --dims 99999999999,8,8,8", "--dims"},
    {"bench", "4096^4 (terabytes)", Kind::Args, "bench dslash --dims 4096,4096,4096,4096", "--dims"},
    {"bench", "heatbath 4096^4", Kind::Args, "bench heatbath --dims 4096,4096,4096,4096", "--dims"},
    {"bench", "heatbath, rectangle action on 6^4", Kind::Args, "bench heatbath --dims 6,6,6,6 --action iwasaki", "--dims"},
    {"bench", "--kappa nan", Kind::Args, "bench dslash --kappa nan", "--kappa"},
    {"bench", "--kappa not a number", Kind::Args, "bench dslash --kappa abc", "--kappa"},
    {"bench", "--mu inf", Kind::Args, "bench dslash --action twisted_mass --mu inf", "--mu"},
    {"bench", "--csw nan", Kind::Args, "bench dslash --action clover --csw nan", "--csw"},
    {"bench", "--tolerance 0", Kind::Args, "bench solver --tolerance 0", "--tolerance"},
    {"bench", "--tolerance nan", Kind::Args, "bench solver --tolerance nan", "--tolerance"},
    {"bench", "unknown precision", Kind::Args, "bench dslash --precision quad", "--precision"},
    {"bench", "--reconstruct 10", Kind::Args, "bench dslash --reconstruct 10", "--reconstruct"},
    {"bench", "--rhs 0", Kind::Args, "bench dslash --rhs 0", "--rhs"},
    {"bench", "--rhs 2^40", Kind::Args, "bench dslash --rhs 1099511627776", "--rhs"},
    {"bench", "--repetitions 0", Kind::Args, "bench dslash --repetitions 0", "--repetitions"},
    {"bench", "--rotation-sets 65", Kind::Args, "bench dslash --rotation-sets 65", "--rotation-sets"},
    {"bench", "unknown timing", Kind::Args, "bench dslash --timing guess", "--timing"},
    {"bench", "--config missing", Kind::Args, "bench dslash --config no-such.ildg", "no-such.ildg"},
    {"convert", "unknown format", Kind::Args, "convert @TESTDATA@/milc_l4444.ildg out.ildg --format hdf5", "--format"},
    {"convert", "precision 16", Kind::Args, "convert @TESTDATA@/milc_l4444.ildg out.ildg --precision 16", "--precision"},
    {"convert", "no output named", Kind::Args, "convert @TESTDATA@/milc_l4444.ildg", "output"},
    {"convert", "zero tile", Kind::Args, "convert @TESTDATA@/milc_l4444.ildg out.ildg --tile 0,1,1,1", "--tile"},
    {"convert", "three tiles", Kind::Args, "convert @TESTDATA@/milc_l4444.ildg out.ildg --tile 2,2,2", "--tile"},
    {"convert", "input missing", Kind::Args, "convert no-such.ildg out.ildg", "no-such.ildg"},
    {"convert", "output exists", Kind::Args, "convert @TESTDATA@/milc_l4444.ildg lqcd-heatbath.log", "lqcd-heatbath.log"},
    {"convert", "output is the input", Kind::Args, "convert lqcd-heatbath.log lqcd-heatbath.log", "lqcd-heatbath.log"},
    {"measure", "no file", Kind::Args, "measure", "files"},
    {"measure", "missing file", Kind::Args, "measure no-such.ildg", "no-such.ildg"},
    {"measure", "a directory", Kind::Args, "measure adir", "adir"},
    {"measure", "unknown device", Kind::Args, "measure --device tpu @TESTDATA@/milc_l4444.ildg", "--device"},
};

std::string substitute(std::string s) {
  const std::string tag = "@TESTDATA@", dir = test::testdata("").string();
  for (std::size_t p; (p = s.find(tag)) != std::string::npos;) s.replace(p, tag.size(), dir.substr(0, dir.size() - 1));
  return s;
}

// Every file under `dir` (but the captured stdout and stderr) with its contents.
std::map<std::string, std::string> snapshot(const std::filesystem::path& dir) {
  std::map<std::string, std::string> files;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir)) {
    const std::string name = std::filesystem::relative(e.path(), dir).string();
    if (name == ".stdout" || name == ".stderr") continue;
    files[name] = e.is_regular_file() ? test::read_text(e.path()) : "<directory>";
  }
  return files;
}

// "a\nb" as `a` `b` for a table cell.
std::string cell(const BadInput& c) {
  std::string text = c.kind == Kind::Toml ? (c.text == "BINARY" ? "(binary bytes)" : c.text) : "lqcd " + c.text;
  std::string out = std::string(c.what) + ": `";
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\n') out += i + 1 < text.size() ? "` `" : "";
    else if (text[i] == '|') out += "\\|";
    else out += text[i];
  }
  return out + "`";
}

TEST(BadInputs, EachGivesOneLineNamingTheKeyAndWritesNothing) {
  test::TempDir dir;
  std::filesystem::create_directory(dir / "adir");
  // Outputs of earlier runs under the default prefixes: a bad input must leave them as they are.
  for (const char* f : {"lqcd-heatbath.log", "lqcd-heatbath.jsonl", "lqcd-hmc.log", "lqcd-hmc.jsonl",
                        "lqcd-spectrum.log", "lqcd-spectrum.jsonl", "lqcd-spectrum.h5", "lqcd-propagator.log",
                        "lqcd-propagator.prop.lime"})
    test::write_text(dir / f, "an earlier run's output\n");
  const char* table_file = std::getenv("LQCD_BAD_INPUTS_TABLE");
  std::ofstream table;
  if (table_file) table.open(table_file);
  int n = 0;
  for (const BadInput& c : kCases) {
    const std::string text = substitute(c.text);
    std::string args = text;
    if (c.kind == Kind::Toml) {
      test::write_text(dir / "bad.toml",
                       text == "BINARY" ? "\x89PNG\r\n\x1a\n\x00\x01\xfe\xff garbage\x00"s : text);
      args = std::string(c.command) + " bad.toml";
    }
    const auto before = snapshot(dir.path());
    const auto r = test::run_lqcd(args, dir.path());
    const auto lines = test::program_lines(r.err);
    SCOPED_TRACE(std::string(c.command) + ", " + c.what + ": " + text);
    EXPECT_NE(r.exit_code, 0);
    ASSERT_EQ(lines.size(), 1u) << r.err;
    EXPECT_NE(lines[0].find(substitute(c.expect)), std::string::npos) << "expected \"" << c.expect << "\" in: " << lines[0];
    if (c.kind == Kind::Toml) {
      EXPECT_NE(lines[0].find("bad.toml"), std::string::npos) << lines[0];
    }
    EXPECT_EQ(snapshot(dir.path()), before) << "a bad input created or changed a file";
    if (table) {
      std::string message;
      for (const char ch : lines[0]) message += ch == '|' ? "\\|"s : std::string(1, ch);
      table << fmt::format("| {} | {} | {} | {} |\n", c.command, cell(c), r.exit_code, message);
    }
    ++n;
    if (c.kind == Kind::Toml) std::filesystem::remove(dir / "bad.toml");
  }
  EXPECT_EQ(n, int(std::size(kCases)));
}

// The inputs with which the toml fuzzer found undefined behaviour in toml++ 3.3 (fuzz/regressions/toml/,
// issue 47): each is one syntax error naming the file, line and column, and the run writes nothing.
TEST(BadInputs, TomlFuzzerFindingsAreSyntaxErrors) {
  const std::filesystem::path dir = std::filesystem::path(LQCD_SOURCE_DIR) / "fuzz" / "regressions" / "toml";
  int n = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    test::TempDir work;
    const auto r = test::run_lqcd("heatbath " + e.path().string(), work.path());
    const auto lines = test::program_lines(r.err);
    EXPECT_NE(r.exit_code, 0) << e.path();
    ASSERT_EQ(lines.size(), 1u) << r.err;
    EXPECT_NE(lines[0].find(e.path().filename().string() + ":"), std::string::npos) << lines[0];
    EXPECT_NE(lines[0].find("TOML syntax error"), std::string::npos) << lines[0];
    EXPECT_TRUE(snapshot(work.path()).empty()) << "a refused input wrote a file";
    ++n;
  }
  EXPECT_GE(n, 5);
}

// The characters that toml++ 3.3 mishandles outside strings are ordinary text in comments and strings:
// Greek and accented letters there are accepted (src/app/config.cpp refuses them only where TOML has none).
TEST(BadInputs, GreekLettersInCommentsAndStringsAreAccepted) {
  test::TempDir dir;
  test::write_text(dir / "in.toml",
                   "# \xce\xb2 = 6.0, \xce\xba = 0.157 (\xc3\xa9t\xc3\xa9) \xe2\x9a\xa0\xef\xb8\x8f \xef\xad\x90\n[lattice]\ndims = [4, 4, 4, 4]  # L\xe2\xb2\x90\n"
                   "[heatbath]\nsweeps = 1\nthermalization = 0\n[output]\nprefix = \"\xce\xb2run\"\n");
  const auto r = test::run_lqcd("heatbath in.toml --quiet", dir.path());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(std::filesystem::exists(dir / "\xce\xb2run.log")) << r.err;
}

}  // namespace
}  // namespace lqcd
