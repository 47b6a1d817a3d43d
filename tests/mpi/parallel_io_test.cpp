// Parallel configuration I/O (issue 6: "each rank reads and writes its part of an ILDG or NERSC file with
// MPI-IO; checksums computed in parallel and combined"; acceptance: I/O on the decomposed lattice equals
// the single-process results bit for bit). Run by ctest under mpiexec -np 2 and -np 4 (mpi_np2,
// mpi_np4). Every rank compares with what the serial readers and writers give on the whole lattice, for
// every process grid of the run's size that splits the lattice into even local extents.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <string>
#include <vector>

#include "comm/communicator.hpp"
#include "comm/process_grid.hpp"
#include "core/error.hpp"
#include "fields/gauge_field.hpp"
#include "fields/global_order.hpp"
#include "gauge/observables.hpp"
#include "io/byte_order.hpp"
#include "io/gauge_file.hpp"
#include "io/link_codec.hpp"
#include "io/nersc.hpp"
#include "measure/configuration.hpp"
#include "test_support.hpp"

namespace lqcd {
namespace {

namespace fs = std::filesystem;
// Every process grid of the run's size whose local extents on `global` are even and >= 2 (each splits
// at least one direction; several directions at once with 4 ranks).
std::vector<Dims> grids_for(const Dims& global) {
  std::vector<Dims> candidates;
  switch (comm::size()) {
    case 2: candidates = {{1, 1, 1, 2}, {2, 1, 1, 1}, {1, 2, 1, 1}, {1, 1, 2, 1}}; break;
    case 4: candidates = {{1, 1, 2, 2}, {2, 1, 1, 2}, {2, 2, 1, 1}, {1, 2, 2, 1}, {1, 1, 1, 4}, {4, 1, 1, 1}}; break;
    default: break;
  }
  std::vector<Dims> fit;
  for (const Dims& g : candidates) {
    bool ok = true;
    for (int mu = 0; mu < 4; ++mu) ok = ok && global[mu] % g[mu] == 0 && (global[mu] / g[mu]) % 2 == 0;
    if (ok) fit.push_back(g);
  }
  return fit;
}

// The run's grid for collectives that are not about a decomposition (all ranks along t).
Dims run_grid() { return {1, 1, 1, comm::size()}; }

std::vector<std::uint8_t> file_bytes(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  EXPECT_TRUE(in.good()) << "cannot open " << p;
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Random SU(3) links, the same on every rank.
LexicographicGauge random_field(const Dims& dims, std::uint64_t seed) {
  LexicographicGauge g(dims);
  for (std::size_t i = 0; i < g.links.size(); ++i) {
    SiteRandom rng(seed, i, RngPurpose::Test, 3, 0);
    g.links[i] = reunitarize(test::random_matrix(rng));
  }
  return g;
}

// This rank's box of a whole lattice (the serial read + take-my-part).
LexicographicGauge box_of(const LexicographicGauge& whole, const Geometry& g) {
  LexicographicGauge box;
  box.dims = g.local;
  box.links = local_part(whole.links, g, 4);
  return box;
}

bool bit_identical(const LexicographicGauge& a, const LexicographicGauge& b) {
  return a.dims == b.dims && a.links.size() == b.links.size() &&
         std::memcmp(a.links.data(), b.links.data(), a.links.size() * sizeof(SU3<double>)) == 0;
}

// A directory shared by the ranks (rank 0's process id), created by rank 0, removed at the end.
class ParallelIo : public ::testing::Test {
 protected:
  void SetUp() override {
    if (comm::size() < 2) GTEST_SKIP() << "run under mpirun -np 2 or 4";
    long id = long(::getpid());
    comm::broadcast(run_grid(), &id, sizeof id);
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() / ("lqcd_pio_" + std::string(info->name()) + "_" + std::to_string(id));
    if (comm::rank() == 0) {
      fs::remove_all(dir_);
      fs::create_directories(dir_);
    }
    comm::barrier(run_grid());
  }
  void TearDown() override {
    if (comm::size() < 2) return;
    comm::barrier(run_grid());
    std::error_code ec;
    if (comm::rank() == 0) fs::remove_all(dir_, ec);
  }
  fs::path tmp(const std::string& name) const { return dir_ / name; }
  // Rank 0 writes a file with fn (the serial writers), the others wait for it.
  template <typename F>
  void on_root(F&& fn) {
    if (comm::rank() == 0) fn();
    comm::barrier(run_grid());
  }

  fs::path dir_;
};

// (a) The reference configurations written by other codes (ILDG and SciDAC; ../shared/testdata):
// each rank's part read with MPI-IO equals its part of the serial read, bit for bit, with the same
// (combined) checksum verdict and text, header values and metadata.
TEST_F(ParallelIo, ReferenceFilesReadInPartsEqualTheSerialRead) {
  const char* files[] = {"cl2qcd_conf.00200.ildg",    "tmlqcd_4x4x4x4.ildg",
                         "milc_l4444.ildg",           "milc_l4444.scidac",
                         "milc_l4448.scidac",         "milc_l4448_foreign_records.lime",
                         "chroma_weak_field_4x4x4x8.lime"};
  int cases = 0;
  for (const char* name : files) {
    const fs::path path = test::testdata(name);
    const io::GaugeFile serial = io::read_gauge_file(path);
    const LoadedConfiguration whole = load_configuration(path);
    for (const Dims& grid : grids_for(serial.info.dims)) {
      SCOPED_TRACE(std::string(name) + " on grid " + dims_string(grid));
      const Geometry g = ProcessGrid::of_run(grid).decompose(serial.info.dims);
      const io::GaugeFilePart part = io::read_gauge_file_part(path, g);
      EXPECT_TRUE(bit_identical(part.box, box_of(serial.field, g)));
      EXPECT_EQ(part.info.format, serial.info.format);
      EXPECT_EQ(part.info.dims, serial.info.dims);
      EXPECT_EQ(part.info.precision_bits, serial.info.precision_bits);
      EXPECT_EQ(part.info.checksum_ok, serial.info.checksum_ok);
      EXPECT_EQ(part.info.checksum_detail, serial.info.checksum_detail);
      EXPECT_EQ(part.info.header_plaquette, serial.info.header_plaquette);
      EXPECT_EQ(part.info.metadata, serial.info.metadata);

      // The loader on the decomposed lattice: same links (gathered back), observables to rounding.
      for (Location loc : test::locations()) {
        LoadPolicy policy;
        policy.geometry = g;
        policy.location = loc;
        const LoadedConfiguration c = load_configuration(path, policy);
        EXPECT_TRUE(bit_identical(to_lexicographic(c.field), serial.field));
        EXPECT_NEAR(c.observables.plaquette, whole.observables.plaquette, 1e-14);
        EXPECT_NEAR(c.observables.link_trace, whole.observables.link_trace, 1e-14);
      }
      ++cases;
    }
  }
  EXPECT_GE(cases, 7 * 2) << "every file on at least two grids";
}

// (a) for NERSC (no reference file of another code is at hand): files written by the serial writer,
// 64 and 32 bits, and a two-row (4D_SU3_GAUGE) little-endian file assembled here as MILC and QCDLoop
// write them.
TEST_F(ParallelIo, NerscFilesReadInPartsEqualTheSerialRead) {
  const Dims dims{4, 4, 4, 8};
  const LexicographicGauge field = random_field(dims, 41);
  io::WriteOptions opt;
  opt.plaquette = 0.5;
  const fs::path p64 = tmp("f64.nersc"), p32 = tmp("f32.nersc"), two_rows = tmp("two_rows.nersc");
  on_root([&] {
    io::write_nersc(p64, field, opt);
    opt.precision_bits = 32;
    io::write_nersc(p32, field, opt);
    const io::RealFormat little{4, io::ByteOrder::little};
    const io::Bytes data = io::encode_site_major(field, little, 2);
    std::string header = "BEGIN_HEADER\nHDR_VERSION = 1.0\nDATATYPE = 4D_SU3_GAUGE\n";
    for (int mu = 0; mu < 4; ++mu) header += "DIMENSION_" + std::to_string(mu + 1) + " = " + std::to_string(dims[mu]) + "\n";
    header += fmt::format("CHECKSUM = {:x}\nFLOATING_POINT = IEEE32LITTLE\nEND_HEADER\n", io::nersc_checksum(data, little));
    std::ofstream out(two_rows, std::ios::binary);
    out << header;
    out.write(reinterpret_cast<const char*>(data.data()), std::streamsize(data.size()));
  });
  int cases = 0;
  for (const fs::path& path : {p64, p32, two_rows}) {
    const io::GaugeFile serial = io::read_gauge_file(path);
    ASSERT_EQ(serial.info.checksum_ok, std::optional<bool>(true)) << path;
    for (const Dims& grid : grids_for(dims)) {
      SCOPED_TRACE(path.filename().string() + " on grid " + dims_string(grid));
      const Geometry g = ProcessGrid::of_run(grid).decompose(dims);
      const io::GaugeFilePart part = io::read_gauge_file_part(path, g);
      EXPECT_TRUE(bit_identical(part.box, box_of(serial.field, g)));
      EXPECT_EQ(part.info.checksum_ok, std::optional<bool>(true));
      EXPECT_EQ(part.info.checksum_detail, serial.info.checksum_detail);
      EXPECT_EQ(part.info.precision_bits, serial.info.precision_bits);
      EXPECT_EQ(part.info.header_plaquette, serial.info.header_plaquette);
      EXPECT_EQ(part.info.header_link_trace, serial.info.header_link_trace);
      EXPECT_EQ(part.info.metadata, serial.info.metadata);
      ++cases;
    }
  }
  EXPECT_GE(cases, 3 * 3);
}

// (b) A parallel write is byte-identical to the serial write of the same field: ILDG and NERSC, 64 and
// 32 bits, with and without a link trace given (the NERSC writer then sums it exactly, grid-free).
TEST_F(ParallelIo, ParallelWritesAreByteIdenticalToTheSerialWrite) {
  const Dims dims{4, 4, 4, 8};
  const LexicographicGauge field = random_field(dims, 7);
  int cases = 0;
  for (const std::string format : {"ildg", "nersc"})
    for (int bits : {64, 32})
      for (bool given_trace : {true, false}) {
        io::WriteOptions opt;
        opt.precision_bits = bits;
        opt.plaquette = 0.59318;
        if (given_trace) opt.link_trace = 0.0123;
        opt.date = "Mon Jan  1 00:00:00 2024 UTC";  // the headers carry a date: the same for both writes
        opt.metadata = {{"lqcd.sweep", "12"}, {"lqcd.beta", "5.8"}};
        // The same file name in two folders: ILDG records it (ildg-data-lfn).
        const fs::path serial = tmp("serial/conf." + format), parallel = tmp("parallel/conf." + format);
        on_root([&] {
          fs::create_directories(serial.parent_path());
          fs::create_directories(parallel.parent_path());
          if (format == "ildg") io::write_ildg(serial, field, opt);
          else io::write_nersc(serial, field, opt);
        });
        const std::vector<std::uint8_t> expected = file_bytes(serial);
        ASSERT_GT(expected.size(), std::size_t(field.volume()) * 4 * 18 * (bits / 8));
        for (const Dims& grid : grids_for(dims)) {
          SCOPED_TRACE(format + " " + std::to_string(bits) + " bits, trace given " + std::to_string(given_trace) +
                       ", grid " + dims_string(grid));
          const Geometry g = ProcessGrid::of_run(grid).decompose(dims);
          if (format == "ildg") io::write_ildg_part(parallel, box_of(field, g), g, opt);
          else io::write_nersc_part(parallel, box_of(field, g), g, opt);
          const std::vector<std::uint8_t> written = file_bytes(parallel);
          ASSERT_EQ(written.size(), expected.size());
          EXPECT_TRUE(written == expected) << "first difference at byte "
                                           << (std::mismatch(written.begin(), written.end(), expected.begin()).first -
                                               written.begin());
          // And back, in parts: the links as written (rounded for 32 bits), checksum verified.
          const io::GaugeFilePart back = io::read_gauge_file_part(parallel, g);
          EXPECT_EQ(back.info.checksum_ok, std::optional<bool>(true));
          if (bits == 64) {
            EXPECT_TRUE(bit_identical(back.box, box_of(field, g)));
          }
          ++cases;
          comm::barrier(g.grid);  // nobody rewrites the file while another rank still reads it
        }
      }
  EXPECT_GE(cases, 8 * 3);
}

// The writers' atomicity holds for all ranks: a decomposed write replaces an existing file completely;
// a failure on one rank only (a non-finite link in its box) throws on every rank, naming the file and
// the global site, and leaves the existing file and no temporary behind.
TEST_F(ParallelIo, FailedParallelWritesLeaveTheExistingFile) {
  const Dims dims{4, 4, 4, 8};
  const Dims grid = grids_for(dims).front();
  const Geometry g = ProcessGrid::of_run(grid).decompose(dims);
  const fs::path path = tmp("conf.ildg");
  io::WriteOptions opt;
  opt.date = "then";
  io::write_ildg_part(path, box_of(random_field(dims, 1), g), g, opt);
  const std::vector<std::uint8_t> before = file_bytes(path);

  const LexicographicGauge field = random_field(dims, 2);
  LexicographicGauge box = box_of(field, g);
  const bool last = comm::rank() == comm::size() - 1;
  if (last) box.links.back().m[1][2].im = std::numeric_limits<double>::quiet_NaN();
  for (const std::string format : {"ildg", "nersc"}) {
    try {
      if (format == "ildg") io::write_ildg_part(path, box, g, opt);
      else io::write_nersc_part(path, box, g, opt);
      ADD_FAILURE() << format << ": no error on rank " << comm::rank();
    } catch (const Error& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find(path.string()), std::string::npos) << what;
      EXPECT_NE(what.find("non-finite"), std::string::npos) << what;
      EXPECT_NE(what.find("mu = 3"), std::string::npos) << what;  // the last site's t link
    }
  }
  comm::barrier(g.grid);
  EXPECT_TRUE(file_bytes(path) == before);
  for (const auto& entry : fs::directory_iterator(dir_))
    EXPECT_EQ(entry.path().filename(), "conf.ildg") << "left behind: " << entry.path();
  // A missing directory: every rank throws, naming the file.
  const fs::path nowhere = tmp("missing/conf.ildg");
  EXPECT_THROW(io::write_ildg_part(nowhere, box_of(field, g), g, opt), Error);
}

// (c) A corrupted file is detected on every rank: one flipped bit in the part of the last rank
// changes the combined checksum seen by all ranks, and the loader refuses the file on all of them.
TEST_F(ParallelIo, CorruptedChecksumsAreDetectedOnEveryRank) {
  const Dims dims{4, 4, 4, 8};
  const LexicographicGauge field = random_field(dims, 5);
  for (const std::string format : {"ildg", "nersc"}) {
    const fs::path path = tmp("corrupt." + format);
    on_root([&] {
      io::WriteOptions opt;
      if (format == "ildg") io::write_ildg(path, field, opt);
      else io::write_nersc(path, field, opt);
      // The lowest bit of the last real of the last site (in the data of the last rank on every
      // grid: the site x = y = z = t = max): the links stay finite, only the checksum can tell.
      std::vector<std::uint8_t> bytes = file_bytes(path);
      std::size_t at = bytes.size() - 1;  // NERSC: the data run to the end of the file
      if (format == "ildg") {
        // The binary record's data start 144 bytes after its header, whose type field starts at byte 16.
        const std::string text(bytes.begin(), bytes.end());
        const std::size_t type = text.find("ildg-binary-data");
        ASSERT_NE(type, std::string::npos);
        at = type - 16 + 144 + std::size_t(field.volume()) * 4 * 18 * 8 - 1;
      }
      bytes[at] ^= 1;
      std::ofstream out(path, std::ios::binary | std::ios::trunc);
      out.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
    });
    for (const Dims& grid : grids_for(dims)) {
      SCOPED_TRACE(format + " on grid " + dims_string(grid));
      const Geometry g = ProcessGrid::of_run(grid).decompose(dims);
      const io::GaugeFilePart part = io::read_gauge_file_part(path, g);
      EXPECT_EQ(part.info.checksum_ok, std::optional<bool>(false)) << "rank " << comm::rank();
      EXPECT_EQ(part.info.checksum_detail, io::read_gauge_file(path).info.checksum_detail);
      LoadPolicy policy;
      policy.geometry = g;
      try {
        (void)load_configuration(path, policy);
        ADD_FAILURE() << "no error on rank " << comm::rank();
      } catch (const Error& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find(path.string()), std::string::npos) << what;
        EXPECT_NE(what.find("checksum mismatch"), std::string::npos) << what;
        EXPECT_EQ(what.find('\n'), std::string::npos) << what;
      }
    }
  }
}

}  // namespace
}  // namespace lqcd
