// Regression tests of the fuzzing campaign (issue 26, fuzz/README.md): each input that made a reader
// crash, throw something other than lqcd::Error or misread a file, rebuilt here from a valid file
// that lqcd writes, and the one-line lqcd::Error it must give now.
#include <algorithm>
#include <string>

#include "io/file_bytes.hpp"
#include "io/gauge_file.hpp"
#include "io/lime.hpp"
#include "io/propagator_lime.hpp"
#include "io_test_support.hpp"

namespace lqcd {
namespace {

namespace fs = std::filesystem;
using test::expect_error_naming;
using test::IoTest;

class MalformedFiles : public IoTest {
 protected:
  // A valid propagator file of a 1^4 lattice (12 components of one site).
  std::vector<std::uint8_t> propagator_bytes() {
    io::PropagatorFile prop;
    prop.dims = {1, 1, 1, 1};
    for (auto& column : prop.columns) column.resize(1);
    prop.columns[4][0].s[2].c[1] = Complex<double>(0.5, -0.25);
    io::write_propagator_lime(tmp("good.prop.lime"), prop);
    return test::read_bytes(tmp("good.prop.lime"));
  }
};

// The text between the first `open` tag and the following `close` tag replaced by `value`, padded
// with blanks to the old length (so that no LIME record length changes).
std::vector<std::uint8_t> with_tag_text(std::vector<std::uint8_t> b, const std::string& open, const std::string& close,
                                        std::string value) {
  const std::string text(b.begin(), b.end());
  const auto start = text.find(open) + open.size();
  const auto end = text.find(close, start);
  if (value.size() > end - start) throw std::runtime_error("replacement too long");
  value.resize(end - start, ' ');
  std::copy(value.begin(), value.end(), b.begin() + std::ptrdiff_t(start));
  return b;
}

TEST_F(MalformedFiles, PropagatorChecksumThatIsNotHexadecimal) {
  // Was std::invalid_argument from std::stoul (lqcd: internal error, exit 2).
  const auto bad = with_tag_text(propagator_bytes(), "<suma>", "</suma>", "zz");
  test::write_bytes(tmp("bad.prop.lime"), bad);
  expect_error_naming([&] { io::read_propagator_lime(tmp("bad.prop.lime")); }, tmp("bad.prop.lime"),
                      {"component 0", "malformed scidac-checksum record"});
  // An empty value was std::invalid_argument too.
  test::write_bytes(tmp("empty.prop.lime"), with_tag_text(propagator_bytes(), "<sumb>", "</sumb>", ""));
  expect_error_naming([&] { io::read_propagator_lime(tmp("empty.prop.lime")); }, tmp("empty.prop.lime"),
                      {"malformed scidac-checksum record"});
}

TEST_F(MalformedFiles, PropagatorDimsThatAreNotFourPositiveExtents) {
  // "-1 -1 1 1" multiplied to a volume of 1 in size_t and was accepted as a propagator of dims -1.
  for (const char* text : {"-1 -1 1 1", "0 1 1 1", "1 1 1", "1 1 1 1 1", "1 x 1 1", "99999999999 1 1 1"}) {
    const std::string dims = text;
    SCOPED_TRACE(dims);
    auto bytes = propagator_bytes();
    // The writer's "1 1 1 1 " has 8 characters: a longer text needs a longer record.
    if (dims.size() > 8) {
      // Longer text than the record holds: grow the record instead (its length field too).
      const auto records = io::parse_lime_records(bytes, "good");
      const io::LimeRecord* r = io::find_lime_record(records, "scidac-private-file-xml");
      ASSERT_NE(r, nullptr);
      std::string xml = io::lime_record_text(bytes, *r);
      xml.replace(xml.find("<dims>") + 6, xml.find("</dims>") - xml.find("<dims>") - 6, dims);
      std::vector<std::uint8_t> rebuilt;
      io::append_lime_text_record(rebuilt, "scidac-private-file-xml", xml, true, false);
      const auto rest = std::size_t(r->data_offset + r->length + io::lime_padding(r->length));
      rebuilt.insert(rebuilt.end(), bytes.begin() + std::ptrdiff_t(rest), bytes.end());
      bytes = rebuilt;
    } else {
      bytes = with_tag_text(bytes, "<dims>", "</dims>", dims);
    }
    test::write_bytes(tmp("dims.prop.lime"), bytes);
    expect_error_naming([&] { io::read_propagator_lime(tmp("dims.prop.lime")); }, tmp("dims.prop.lime"),
                        {"dims"});
  }
}

TEST_F(MalformedFiles, SymbolicLinkLoopIsNamedAsSuch) {
  // Was reported as "file does not exist"; lqcd heatbath --resume threw std::filesystem_error
  // (lqcd: internal error, exit 2) from std::filesystem::exists.
  fs::create_symlink("b.ildg", tmp("a.ildg"));
  fs::create_symlink("a.ildg", tmp("b.ildg"));
  expect_error_naming([&] { io::read_file_bytes(tmp("a.ildg")); }, tmp("a.ildg"), {"symbolic links"});
  expect_error_naming([&] { io::read_gauge_file(tmp("a.ildg")); }, tmp("a.ildg"), {"symbolic links"});
  expect_error_naming([&] { io::detect_gauge_format(tmp("a.ildg")); }, tmp("a.ildg"), {"symbolic links"});
  expect_error_naming([&] { io::read_file_bytes(tmp("none.ildg")); }, tmp("none.ildg"), {"does not exist"});
}

}  // namespace
}  // namespace lqcd
