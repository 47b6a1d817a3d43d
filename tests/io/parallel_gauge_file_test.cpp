// The parallel-I/O entry points (read_gauge_file_part, write_ildg_part, write_nersc_part) on one
// process equal the serial readers and writers: the same links bit for bit, the same file info, the
// same file bytes. (On several ranks: tests/mpi/parallel_io_test.cpp.) Also the one-process path of
// comm::ParallelFile and the exact link-trace sum.

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "comm/parallel_file.hpp"
#include "io/gauge_file.hpp"
#include "io/gauge_part.hpp"
#include "io/parallel_atomic_file.hpp"
#include "io_test_support.hpp"
#include "reference_observables.hpp"

namespace lqcd::test {
namespace {

Geometry whole(const Dims& dims) { return Geometry::single_process(dims); }

TEST(ParallelGaugeFile, EveryReferenceFileReadsAsTheSerialReader) {
  for (const char* name : {"cl2qcd_conf.00200.ildg", "tmlqcd_4x4x4x4.ildg", "milc_l4444.ildg", "milc_l4444.scidac",
                           "milc_l4448.scidac", "milc_l4448_foreign_records.lime", "chroma_weak_field_4x4x4x8.lime",
                           "milc_l8888_b6.0.milc"}) {
    SCOPED_TRACE(name);
    const io::GaugeFile serial = io::read_gauge_file(testdata(name));
    const io::GaugeFilePart part = io::read_gauge_file_part(testdata(name), whole(serial.info.dims));
    EXPECT_TRUE(bit_identical(part.box, serial.field));
    EXPECT_EQ(part.info.format, serial.info.format);
    EXPECT_EQ(part.info.precision_bits, serial.info.precision_bits);
    EXPECT_EQ(part.info.checksum_ok, serial.info.checksum_ok);
    EXPECT_EQ(part.info.checksum_detail, serial.info.checksum_detail);
    EXPECT_EQ(part.info.header_plaquette, serial.info.header_plaquette);
    EXPECT_EQ(part.info.metadata, serial.info.metadata);
  }
}

TEST(ParallelGaugeFile, OtherDimsAreRefusedNamingTheFile) {
  const auto path = testdata("tmlqcd_4x4x4x4.ildg");
  expect_error_naming([&] { io::read_gauge_file_part(path, whole({4, 4, 4, 8})); }, path, {"4x4x4x4", "4x4x4x8"});
}

class ParallelGaugeFileWrite : public IoTest {};

TEST_F(ParallelGaugeFileWrite, WritersGiveTheSerialBytes) {
  const Dims dims{4, 2, 2, 6};
  const LexicographicGauge field = random_gauge(dims, 11);
  for (int bits : {64, 32})
    for (bool given_trace : {true, false}) {
      io::WriteOptions opt;
      opt.precision_bits = bits;
      opt.plaquette = 0.25;
      if (given_trace) opt.link_trace = -0.5;
      opt.date = "Tue Feb  2 10:00:00 2021 UTC";
      opt.metadata = {{"lqcd.trajectory", "3"}};
      fs::create_directories(tmp("a"));
      fs::create_directories(tmp("b"));
      io::write_ildg(tmp("a/c.ildg"), field, opt);
      io::write_ildg_part(tmp("b/c.ildg"), field, whole(dims), opt);
      EXPECT_EQ(read_bytes(tmp("a/c.ildg")), read_bytes(tmp("b/c.ildg"))) << bits << " bits";
      io::write_nersc(tmp("a/c.nersc"), field, opt);
      io::write_nersc_part(tmp("b/c.nersc"), field, whole(dims), opt);
      EXPECT_EQ(read_bytes(tmp("a/c.nersc")), read_bytes(tmp("b/c.nersc"))) << bits << " bits";
      // Nothing but the two files in each folder (no temporaries left).
      EXPECT_EQ(std::distance(fs::directory_iterator(tmp("b")), fs::directory_iterator()), 2);
    }
}

TEST_F(ParallelGaugeFileWrite, TheExactLinkTraceIsTheMeanToRounding) {
  const LexicographicGauge field = random_gauge({4, 4, 2, 2}, 5);
  const double exact = io::mean_link_trace(field, whole(field.dims));
  EXPECT_NEAR(exact, reference_link_trace(field), 1e-15);
  EXPECT_NE(exact, 0.0);
  // The header carries it when no trace is given.
  io::write_nersc_part(tmp("t.nersc"), field, whole(field.dims), io::WriteOptions{});
  const io::GaugeFile g = io::read_gauge_file(tmp("t.nersc"));
  EXPECT_EQ(g.info.header_link_trace, std::optional<double>(exact));
}

TEST_F(ParallelGaugeFileWrite, NonFiniteLinksAreRefusedAndNothingIsWritten) {
  LexicographicGauge field = random_gauge({2, 2, 2, 2}, 3);
  field(13, 2).m[0][1].re = std::numeric_limits<double>::infinity();
  const auto path = tmp("bad.nersc");
  expect_error_naming([&] { io::write_nersc_part(path, field, whole(field.dims), io::WriteOptions{}); }, path,
                      {"site 13", "mu = 2"});
  EXPECT_TRUE(fs::is_empty(dir()));
}

TEST_F(ParallelGaugeFileWrite, ACorruptedFileFailsItsChecksum) {
  const LexicographicGauge field = random_gauge({2, 2, 2, 4}, 9);
  io::write_nersc(tmp("c.nersc"), field, io::WriteOptions{});
  auto bytes = read_bytes(tmp("c.nersc"));
  bytes[bytes.size() - 9] ^= 0x01;  // the lowest byte of the second-to-last real
  write_bytes(tmp("c.nersc"), bytes);
  const io::GaugeFilePart part = io::read_gauge_file_part(tmp("c.nersc"), whole(field.dims));
  EXPECT_EQ(part.info.checksum_ok, std::optional<bool>(false));
  EXPECT_EQ(part.info.checksum_detail, io::read_gauge_file(tmp("c.nersc")).info.checksum_detail);
}

TEST_F(ParallelGaugeFileWrite, AnUncommittedFileLeavesTheOldOne) {
  write_bytes(tmp("x"), {1, 2, 3});
  {
    io::ParallelAtomicFile out(tmp("x"), {1, 1, 1, 1});
    const std::uint8_t data[] = {9, 9};
    out.file().write_at(0, data);
    EXPECT_TRUE(fs::exists(out.temporary_path()));
  }
  EXPECT_EQ(read_bytes(tmp("x")), (std::vector<std::uint8_t>{1, 2, 3}));
  EXPECT_EQ(std::distance(fs::directory_iterator(dir()), fs::directory_iterator()), 1);
}

TEST_F(ParallelGaugeFileWrite, OneProcessFilesReadAndWriteTheirBytes) {
  const Geometry g = whole({2, 2, 2, 2});
  std::vector<std::uint8_t> sites(std::size_t(g.volume()) * 3);
  for (std::size_t i = 0; i < sites.size(); ++i) sites[i] = std::uint8_t(i * 7);
  {
    comm::ParallelFile f(tmp("s"), comm::ParallelFile::Access::create, g.grid);
    const std::uint8_t head[] = {'h', 'd'};
    f.write_at(0, head);
    f.write_sites(2, g, 3, sites);
    f.close();
  }
  comm::ParallelFile f(tmp("s"), comm::ParallelFile::Access::read, g.grid);
  EXPECT_EQ(f.size(), 2 + sites.size());
  std::vector<std::uint8_t> back(sites.size());
  f.read_sites(2, g, 3, back);
  EXPECT_EQ(back, sites);
  std::vector<std::uint8_t> beyond(4);
  expect_error_naming([&] { f.read_at(f.size() - 2, beyond); }, tmp("s"), {"the file ends"});
  expect_error_naming([&] { comm::ParallelFile(tmp("none"), comm::ParallelFile::Access::read, g.grid); }, tmp("none"));
}

}  // namespace
}  // namespace lqcd::test
