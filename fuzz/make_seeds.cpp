// Writes the generated part of the fuzzers' seed corpora (scripts/fuzz.sh adds the reference files of
// ../shared/testdata and examples/*.toml): small files written by lqcd's own writers, so that every
// format has a seed of a few kB that mutations can afford to run through, and the checkpoint fuzzer
// has checkpoints of the run it resumes.
//
//   make_seeds TESTDATA_DIR OUT_DIR     (OUT_DIR/<target>/*)
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>

#include <fmt/format.h>

#include "core/error.hpp"
#include "fields/gauge_field.hpp"
#include "fuzz_seed_run.hpp"
#include "gauge/observables.hpp"
#include "io/byte_order.hpp"
#include "io/gauge_file.hpp"
#include "io/link_codec.hpp"
#include "io/milc.hpp"
#include "io/nersc.hpp"
#include "io/propagator_lime.hpp"

namespace {

using namespace lqcd;
namespace fs = std::filesystem;

// The links of the sites with every coordinate below `dims` (a periodic lattice of its own).
LexicographicGauge corner(const LexicographicGauge& g, const Dims& dims) {
  LexicographicGauge c(dims);
  for (std::int64_t s = 0; s < c.volume(); ++s) {
    std::int64_t r = s, from = 0, stride = 1;
    for (int d = 0; d < 4; ++d) {
      from += (r % dims[d]) * stride;
      r /= dims[d];
      stride *= g.dims[d];
    }
    for (int mu = 0; mu < 4; ++mu) c(s, mu) = g(from, mu);
  }
  return c;
}

GaugeObservables observables_of(const LexicographicGauge& g) {
  return gauge_observables(to_gauge_field(g, Geometry::single_process(g.dims), Location::Host, "seed"));
}

io::WriteOptions options_for(const LexicographicGauge& g, int precision_bits) {
  const GaugeObservables o = observables_of(g);
  io::WriteOptions w;
  w.precision_bits = precision_bits;
  w.plaquette = o.plaquette;
  w.link_trace = o.link_trace;
  w.date = "2026-01-01 00:00:00";  // the same seeds every time
  return w;
}

void write_bytes(const fs::path& path, const io::Bytes& bytes) {
  std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
}

// MILC v5 (io/milc.hpp), which lqcd reads but does not write.
void write_milc(const fs::path& path, const LexicographicGauge& g, io::ByteOrder order) {
  const io::Bytes data = io::encode_site_major(g, io::RealFormat{4, order});
  io::Bytes file(io::kMilcHeaderBytes, 0);
  io::store_uint(file.data(), std::uint32_t(io::kMilcMagic), order);
  for (int mu = 0; mu < 4; ++mu) io::store_uint(file.data() + 4 + 4 * mu, std::uint32_t(g.dims[mu]), order);
  const std::string stamp = "Thu Jan  1 00:00:00 2026";
  std::copy(stamp.begin(), stamp.end(), file.begin() + 20);
  const io::MilcChecksum sum = io::milc_checksum(data, order);
  io::store_uint(file.data() + 88, sum.sum29, order);
  io::store_uint(file.data() + 92, sum.sum31, order);
  file.insert(file.end(), data.begin(), data.end());
  write_bytes(path, file);
}

// NERSC with DATATYPE 4D_SU3_GAUGE (two rows stored), which lqcd reads but does not write.
void write_nersc_two_rows(const fs::path& path, const LexicographicGauge& g) {
  const io::RealFormat real{8, io::ByteOrder::little};
  const io::Bytes data = io::encode_site_major(g, real, 2);
  const GaugeObservables o = observables_of(g);
  std::string header = "BEGIN_HEADER\nHDR_VERSION = 1.0\nDATATYPE = 4D_SU3_GAUGE\nSTORAGE_FORMAT = 1.0\n";
  for (int mu = 0; mu < 4; ++mu) header += fmt::format("DIMENSION_{} = {}\n", mu + 1, g.dims[mu]);
  header += fmt::format("LINK_TRACE = {:.10g}\nPLAQUETTE = {:.10g}\nCHECKSUM = {:x}\n", o.link_trace, o.plaquette,
                        io::nersc_checksum(data, real));
  header += "FLOATING_POINT = IEEE64LITTLE\nBOUNDARY_1 = PERIODIC\nENSEMBLE_ID = seed\nEND_HEADER\n";
  io::Bytes file(header.begin(), header.end());
  file.insert(file.end(), data.begin(), data.end());
  write_bytes(path, file);
}

void write_propagator(const fs::path& path, const Dims& dims) {
  io::PropagatorFile prop;
  prop.dims = dims;
  const std::size_t volume = std::size_t(dims[0]) * dims[1] * dims[2] * dims[3];
  for (std::size_t k = 0; k < 12; ++k) {
    prop.columns[k].resize(volume);
    double v = 0.25 + double(k);
    for (auto& site : prop.columns[k])
      for (auto& spin : site.s)
        for (auto& z : spin.c) z = Complex<double>(v, -v / 3), v = std::fmod(v * 1.618 + 0.1, 7.0);
  }
  prop.file_xml = "<propagator><seed/></propagator>";
  io::write_propagator_lime(path, prop);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: make_seeds TESTDATA_DIR OUT_DIR\n";
    return 2;
  }
  try {
    const fs::path testdata = argv[1], out = argv[2];
    for (const char* t : {"lime", "ildg", "nersc", "milc", "openqcd", "propagator", "checkpoint", "toml"})
      fs::create_directories(out / t);
    // A real field (CL2QCD, 4^4, 64-bit) and its 2^4 corner.
    const LexicographicGauge g4 = io::read_gauge_file(testdata / "cl2qcd_conf.00200.ildg").field;
    const LexicographicGauge g2 = corner(g4, {2, 2, 2, 2});

    io::write_ildg(out / "ildg" / "lqcd_2x2x2x2_32bit.ildg", g2, options_for(g2, 32));
    io::write_ildg(out / "ildg" / "lqcd_2x2x2x2_64bit.ildg", g2, options_for(g2, 64));
    fs::copy_file(out / "ildg" / "lqcd_2x2x2x2_32bit.ildg", out / "lime" / "lqcd_2x2x2x2_32bit.ildg",
                  fs::copy_options::overwrite_existing);
    io::write_nersc(out / "nersc" / "lqcd_2x2x2x2_32bit.nersc", g2, options_for(g2, 32));
    io::write_nersc(out / "nersc" / "lqcd_4x4x4x4_64bit.nersc", g4, options_for(g4, 64));
    write_nersc_two_rows(out / "nersc" / "two_rows_2x2x2x2.nersc", g2);
    write_milc(out / "milc" / "little_endian_2x2x2x2.milc", g2, io::ByteOrder::little);
    write_milc(out / "milc" / "big_endian_2x2x2x2.milc", g2, io::ByteOrder::big);
    io::write_openqcd(out / "openqcd" / "lqcd_2x2x2x2.openqcd", g2, options_for(g2, 64));
    io::write_openqcd(out / "openqcd" / "lqcd_4x4x4x4.openqcd", g4, options_for(g4, 64));

    // Checkpoints of the run the checkpoint fuzzer resumes (the metadata lqcd heatbath writes).
    const LexicographicGauge run_field = corner(g4, fuzz::kSeedRunDims);
    for (const int sweep : {0, 10}) {
      io::WriteOptions w = options_for(run_field, 64);
      w.metadata = {{"lqcd.program", "lqcd (fuzz seed)"}, {"lqcd.sweep", std::to_string(sweep)},
                    {"lqcd.dims", dims_string(fuzz::kSeedRunDims)}};
      for (const auto& [key, value] : fuzz::seed_run_parameters()) w.metadata[key] = value;
      io::write_ildg(out / "checkpoint" / fmt::format("heatbath_sweep{}.checkpoint.ildg", sweep), run_field, w);
    }

    write_propagator(out / "propagator" / "lqcd_1x1x1x1.prop.lime", {1, 1, 1, 1});
    write_propagator(out / "propagator" / "lqcd_2x1x1x2.prop.lime", {2, 1, 1, 2});
    fs::copy_file(out / "propagator" / "lqcd_1x1x1x1.prop.lime", out / "lime" / "lqcd_1x1x1x1.prop.lime",
                  fs::copy_options::overwrite_existing);

  } catch (const lqcd::Error& e) {
    std::cerr << "make_seeds: error: " << e.what() << '\n';
    return 1;
  }
  return 0;
}
