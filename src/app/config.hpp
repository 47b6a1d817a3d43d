#pragma once
// Input files. A command declares its keys once (KeySpec: dotted path, default as a TOML literal,
// one line of help); that list is the documentation (--print-config), the defaults, and the
// validation: a key not in the list, or a value of another type than its default's, is an error
// naming the file and the key.

#include <array>
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include <toml++/toml.h>

namespace lqcd::app {

struct KeySpec {
  std::string path;           // "heatbath.sweeps"
  std::string default_value;  // TOML literal: "100", "\"hot\"", "[8, 8, 8, 8]"
  std::string help;
};

// A repeated section ([[name]] arrays of tables, e.g. [[monomial]]): the keys of one entry (paths
// "name.key"), and the entries used when the input gives none (TOML text of [[name]] tables).
struct RepeatedSection {
  std::string name;
  std::vector<KeySpec> schema;
  std::string default_entries;
};

class Config {
 public:
  Config(std::vector<KeySpec> schema, std::string command, std::vector<RepeatedSection> repeated = {});

  // Overrides defaults with a TOML file / text; throws lqcd::Error on syntax errors, unknown keys
  // and type mismatches (naming `source` and the key).
  void merge_file(const std::filesystem::path& file);
  void merge_text(const std::string& text, const std::string& source);

  std::int64_t integer(const std::string& path) const;
  double real(const std::string& path) const;  // integers are accepted
  std::string string(const std::string& path) const;
  bool boolean(const std::string& path) const;
  std::vector<std::int64_t> integers(const std::string& path) const;
  std::vector<std::string> strings(const std::string& path) const;
  // An array of integer arrays, each of length `inner` (e.g. momenta [[0, 0, 0], [1, 0, 0]]).
  std::vector<std::vector<std::int64_t>> integer_arrays(const std::string& path, std::size_t inner) const;
  // An array of non-empty string arrays (e.g. GEVP channels [["g5", "gxgygz"], ["gx", "gxgt"]]).
  std::vector<std::vector<std::string>> string_arrays(const std::string& path) const;
  // True where the value differs from the built-in default (for keys whose default means "not set").
  bool is_set(const std::string& path) const;

  // The entries of a repeated section, each a Config of the entry's keys ("monomial.kappa"), with
  // the entry's defaults filled in and a source naming the entry ("run.toml [[monomial]] 2").
  std::vector<Config> entries(const std::string& name) const;

  // Where the values came from, for error messages: "run.toml" or "defaults".
  const std::string& source() const { return source_; }
  // "run.toml: heatbath.sweeps: <what>" as an lqcd::Error.
  [[noreturn]] void fail_key(const std::string& path, const std::string& what) const;
  // A lower layer's error that begins with the name of the parameter at fault ("test_vectors = 0: ...";
  // those layers name their parameters, not input keys), given its table: "run.toml: multigrid.test_vectors
  // = 0: ..." as an lqcd::Error.
  [[noreturn]] void fail_in_table(const std::string& table, const std::string& parameter_error) const;

  // The full input with every key, its current value and its help, as TOML.
  std::string to_toml(bool with_help = true) const;

 private:
  const toml::node& node(const std::string& path) const;
  void merge_table(const toml::table& user, const std::string& source);
  const RepeatedSection* repeated(const std::string& name) const;
  std::vector<KeySpec> schema_;
  std::vector<RepeatedSection> repeated_;
  std::map<std::string, std::vector<toml::table>> entries_;  // per repeated section, as given
  std::string command_;
  toml::table values_;
  std::string source_ = "defaults";
};

}  // namespace lqcd::app
