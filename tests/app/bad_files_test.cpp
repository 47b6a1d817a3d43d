// Issue 26, item 4 (files): every bad configuration file given to every command that reads one
// (lqcd measure, lqcd convert, lqcd heatbath / hmc --resume with it as the checkpoint, lqcd spectrum
// with it as gauge.config) ends in a non-zero exit status and an error line that names the file and
// says what is wrong, never a crash, a hang or an internal error. The bad files are made from a good
// 4^4 checkpoint written by lqcd heatbath in the test. docs/validation.md has the table of the
// messages (LQCD_BAD_FILES_TABLE=FILE appends its rows to FILE).
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <functional>

#include "cli_support.hpp"
#include "io/file_bytes.hpp"
#include "io/gauge_file.hpp"
#include "io/lime.hpp"

namespace lqcd {
namespace {

namespace fs = std::filesystem;
using test::run_lqcd;

io::Bytes bytes_of(const fs::path& p) { return io::read_file_bytes(p); }

void write_bytes(const fs::path& p, const io::Bytes& b) {
  std::ofstream(p, std::ios::binary).write(reinterpret_cast<const char*>(b.data()), std::streamsize(b.size()));
}

// The binary-data record of the good checkpoint.
io::LimeRecord binary_record(const io::Bytes& file) {
  const auto records = io::parse_lime_records(file, "good");
  const io::LimeRecord* r = io::find_lime_record(records, "ildg-binary-data");
  if (r == nullptr) throw std::runtime_error("no ildg-binary-data record in the good checkpoint");
  return *r;
}

// The first occurrence of `from` in the file replaced by `to` (same length).
io::Bytes with_text_replaced(io::Bytes file, const std::string& from, const std::string& to) {
  const std::string text(file.begin(), file.end());
  const auto at = text.find(from);
  if (at == std::string::npos || from.size() != to.size()) throw std::runtime_error("no " + from + " in the file");
  std::copy(to.begin(), to.end(), file.begin() + std::ptrdiff_t(at));
  return file;
}

io::Bytes with_real(io::Bytes file, std::size_t offset, std::uint64_t big_endian_bits) {
  for (int k = 0; k < 8; ++k) file[offset + std::size_t(k)] = std::uint8_t(big_endian_bits >> (56 - 8 * k));
  return file;
}

struct BadFile {
  std::string name;         // also the file's stem: NAME.checkpoint.ildg
  std::string description;  // for the table
  std::function<void(const fs::path& file, const io::Bytes& good)> make;
  std::string expected;     // part of the message (after the file name)
  bool run_as_other_user = false;
};

std::vector<BadFile> bad_files() {
  const auto content = [](std::function<io::Bytes(const io::Bytes&)> f) {
    return [f](const fs::path& file, const io::Bytes& good) { write_bytes(file, f(good)); };
  };
  return {
      {"missing", "nonexistent file", [](const fs::path&, const io::Bytes&) {}, "does not exist"},
      {"empty", "empty file", content([](const io::Bytes&) { return io::Bytes{}; }), "empty file"},
      {"directory", "a directory", [](const fs::path& f, const io::Bytes&) { fs::create_directory(f); },
       "not a regular file"},
      {"unreadable", "unreadable file (mode 000; run as nobody when the test runs as root)",
       [](const fs::path& f, const io::Bytes& good) {
         write_bytes(f, good);
         fs::permissions(f, fs::perms::none);
       },
       "Permission denied", true},
      {"loop", "symbolic link loop (NAME -> other -> NAME)",
       [](const fs::path& f, const io::Bytes&) {
         fs::create_symlink(f.filename().string() + ".other", f);
         fs::create_symlink(f.filename(), f.string() + ".other");
       },
       "Too many levels of symbolic links"},
      {"text", "not a configuration (a TOML file)",
       content([](const io::Bytes&) {
         const std::string t = "[lattice]\ndims = [4, 4, 4, 4]\n";
         return io::Bytes(t.begin(), t.end());
       }),
       "not a recognised gauge configuration"},
      {"cut-in-header", "truncated in the first LIME header (100 bytes kept)",
       content([](const io::Bytes& g) { return io::Bytes(g.begin(), g.begin() + 100); }), "truncated LIME record header"},
      {"cut-in-data", "truncated in the link data (binary record + 1000 bytes kept)",
       content([](const io::Bytes& g) {
         return io::Bytes(g.begin(), g.begin() + std::ptrdiff_t(binary_record(g).data_offset + 1000));
       }),
       "declares 147456 data bytes but only 1000 remain"},
      {"cut-last-byte", "last byte of the last record's data missing",
       content([](const io::Bytes& g) {
         const auto records = io::parse_lime_records(g, "good");
         const io::LimeRecord& last = records.back();
         return io::Bytes(g.begin(), g.begin() + std::ptrdiff_t(last.data_offset + last.length - 1));
       }),
       "remain in the file"},
      {"flipped-header", "flipped byte in a header (LIME magic of the binary record)",
       content([](io::Bytes g) {
         g[std::size_t(binary_record(g).header_offset)] ^= 0x01;
         return g;
       }),
       "bad LIME magic number"},
      {"flipped-data", "flipped byte in the link data (lowest mantissa byte of a real)",
       content([](io::Bytes g) {
         g[std::size_t(binary_record(g).data_offset) + 8 * 1000 + 7] ^= 0x01;
         return g;
       }),
       "checksum mismatch"},
      {"wrong-dims", "wrong dims (ildg-format <lx>4</lx> -> <lx>6</lx>)",
       content([](const io::Bytes& g) { return with_text_replaced(g, "<lx>4</lx>", "<lx>6</lx>"); }),
       "expected 221184 for 6x4x4x4"},
      {"nan-link", "NaN in a link (site 0, mu 0)",
       content([](const io::Bytes& g) {
         return with_real(g, std::size_t(binary_record(g).data_offset), 0x7ff8000000000000ull);
       }),
       "non-finite value (NaN or Inf) in the link data at site 0"},
      {"inf-link", "+Inf in a link (site 17, mu 2)",
       content([](const io::Bytes& g) {
         return with_real(g, std::size_t(binary_record(g).data_offset) + (17 * 4 + 2) * 144 + 8, 0x7ff0000000000000ull);
       }),
       "non-finite value (NaN or Inf) in the link data at site 17 (x,y,z,t = 1,0,1,0), mu = 2"},
      {"not-su3", "a link scaled by 2 (not SU(3)), checksum valid",
       [](const fs::path& f, const io::Bytes&) {
         io::GaugeFile g = io::read_gauge_file(f.parent_path() / "good.checkpoint.ildg");
         for (auto& row : g.field(5, 1).m)
           for (auto& z : row) z = z * 2.0;
         io::WriteOptions w;
         w.metadata = g.info.metadata;
         for (const char* key : {"scidac-file-xml", "scidac-record-xml", "ildg-data-lfn"}) w.metadata.erase(key);
         io::write_ildg(f, g.field, w);
       },
       "1 links are not SU(3)"},
  };
}

// The commands that read a configuration, each given the bad file as a user would give it.
struct Command {
  std::string label;  // for the table
  std::function<std::string(const std::string& name, const fs::path& dir)> args;
};

std::vector<Command> commands() {
  return {
      {"lqcd measure FILE", [](const std::string& n, const fs::path&) { return "measure " + n + ".checkpoint.ildg"; }},
      {"lqcd convert FILE OUT --format nersc",
       [](const std::string& n, const fs::path&) { return "convert " + n + ".checkpoint.ildg " + n + ".out --format nersc"; }},
      {"lqcd heatbath INPUT --resume (FILE = PREFIX.checkpoint.ildg)",
       [](const std::string& n, const fs::path& dir) {
         test::write_text(dir / (n + ".heatbath.toml"),
                          "[lattice]\ndims = [4, 4, 4, 4]\n[heatbath]\nthermalization = 0\nsweeps = 1\n"
                          "[output]\ncheckpoint_every = 1\nprefix = \"" + n + "\"\n");
         return "heatbath " + n + ".heatbath.toml --resume -q";
       }},
      {"lqcd hmc INPUT --resume (FILE = PREFIX.checkpoint.ildg)",
       [](const std::string& n, const fs::path& dir) {
         test::write_text(dir / (n + ".hmc.toml"),
                          "[lattice]\ndims = [4, 4, 4, 4]\n[hmc]\nthermalization = 0\ntrajectories = 1\n"
                          "[output]\ncheckpoint_every = 1\nprefix = \"" + n + "\"\n");
         return "hmc " + n + ".hmc.toml --resume -q";
       }},
      {"lqcd spectrum INPUT (gauge.config = FILE)",
       [](const std::string& n, const fs::path& dir) {
         test::write_text(dir / (n + ".spectrum.toml"), "[gauge]\nconfig = \"" + n + ".checkpoint.ildg\"\n"
                                                        "[output]\nprefix = \"" + n + "-spectrum\"\n");
         return "spectrum " + n + ".spectrum.toml -q";
       }},
  };
}

// A good 4^4 checkpoint of lqcd heatbath (after sweep 1 of 1): good.checkpoint.ildg in dir.
void write_good_checkpoint(const fs::path& dir) {
  test::write_text(dir / "good.toml", "[lattice]\ndims = [4, 4, 4, 4]\n[heatbath]\nthermalization = 0\nsweeps = 1\n"
                                      "[output]\ncheckpoint_every = 1\nprefix = \"good\"\n");
  const auto r = run_lqcd("heatbath good.toml -q", dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ASSERT_TRUE(fs::is_regular_file(dir / "good.checkpoint.ildg"));
}

// How to run a command as a user who cannot read a mode-000 file: root reads it anyway.
std::optional<std::string> other_user_launcher() {
  if (::geteuid() != 0) return "";
  if (std::system("setpriv --reuid=nobody --regid=nogroup --clear-groups true >/dev/null 2>&1") == 0)
    return "setpriv --reuid=nobody --regid=nogroup --clear-groups";
  return std::nullopt;
}

TEST(BadFiles, TheGoodCheckpointReadsInEveryCommand) {
  // The control: the file the bad ones are made from is accepted by every command.
  test::TempDir dir;
  write_good_checkpoint(dir.path());
  fs::copy_file(dir / "good.checkpoint.ildg", dir / "copy.checkpoint.ildg");
  for (const Command& c : commands()) {
    if (c.label.find("hmc") != std::string::npos) continue;  // a heatbath checkpoint is not an hmc chain's
    const auto r = run_lqcd(c.args("copy", dir.path()), dir.path());
    EXPECT_EQ(r.exit_code, 0) << c.label << ": " << r.err;
    fs::remove(dir / "copy.out");
  }
}

TEST(BadFiles, EveryCommandRefusesEveryBadFileWithOneLineNamingIt) {
  test::TempDir dir;
  write_good_checkpoint(dir.path());
  const io::Bytes good = bytes_of(dir / "good.checkpoint.ildg");
  const auto launcher = other_user_launcher();
  fs::permissions(dir.path(), fs::perms::all);  // the other user works in it too
  std::ofstream table;
  if (const char* t = std::getenv("LQCD_BAD_FILES_TABLE")) table.open(t, std::ios::app);

  for (const BadFile& bad : bad_files()) {
    SCOPED_TRACE(bad.name);
    const std::string file = bad.name + ".checkpoint.ildg";
    bad.make(dir / file, good);
    if (bad.run_as_other_user && !launcher) {
      ADD_FAILURE() << "running as root and setpriv cannot switch to nobody: the unreadable case is not tested";
      continue;
    }
    for (const Command& c : commands()) {
      SCOPED_TRACE(c.label);
      const auto r = run_lqcd(c.args(bad.name, dir.path()), dir.path(), bad.run_as_other_user ? *launcher : "");
      const std::string line = test::error_line(r.err);
      EXPECT_EQ(r.exit_code, 1) << r.err;  // 1: a user error; 2 would be an internal error
      EXPECT_NE(line.find(file), std::string::npos) << r.err;
      if (c.label.find("--resume") != std::string::npos && bad.name == "missing")
        EXPECT_NE(line.find("no checkpoint to resume from"), std::string::npos) << r.err;
      else
        EXPECT_NE(line.find(bad.expected), std::string::npos) << r.err;
      if (c.label.find("convert") != std::string::npos) {
        EXPECT_FALSE(fs::exists(dir / (bad.name + ".out")));
      }
      if (table.is_open()) table << "| " << bad.description << " | `" << c.label << "` | " << r.exit_code << " | `" << line << "` |\n";
    }
  }
}

}  // namespace
}  // namespace lqcd
