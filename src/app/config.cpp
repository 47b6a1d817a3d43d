#include "app/config.hpp"

#include <cmath>
#include <fstream>
#include <sstream>

#include "core/error.hpp"

namespace lqcd::app {

namespace {

std::string type_name(toml::node_type t) {
  switch (t) {
    case toml::node_type::integer: return "an integer";
    case toml::node_type::floating_point: return "a number";
    case toml::node_type::string: return "a string";
    case toml::node_type::boolean: return "true or false";
    case toml::node_type::array: return "an array";
    case toml::node_type::table: return "a table";
    default: return "a date or time";
  }
}

std::string section_of(const std::string& path) { return path.substr(0, path.find('.')); }
std::string key_of(const std::string& path) { return path.substr(path.find('.') + 1); }

toml::table parse_text(const std::string& text, const std::string& source) {
  try {
    return toml::parse(text, source);
  } catch (const toml::parse_error& e) {
    const auto& where = e.source().begin;
    fail("{}:{}:{}: TOML syntax error: {}", source, where.line, where.column, e.description());
  }
}

}  // namespace

Config::Config(std::vector<KeySpec> schema, std::string command, std::vector<RepeatedSection> repeated)
    : schema_(std::move(schema)), repeated_(std::move(repeated)), command_(std::move(command)) {
  for (const RepeatedSection& r : repeated_) {
    const toml::table d = parse_text(r.default_entries, "built-in defaults of " + command_);
    entries_[r.name] = {};
    if (const toml::array* a = d[r.name].as_array())
      for (const toml::node& e : *a) entries_[r.name].push_back(*e.as_table());
  }
  std::string text;
  for (const KeySpec& k : schema_) {
    // Every key lives in a [section]; build one small document per key so they merge in any order.
    const toml::table t = parse_text(fmt::format("[{}]\n{} = {}\n", section_of(k.path), key_of(k.path), k.default_value),
                                     "built-in defaults of " + command_);
    const std::string sec = section_of(k.path);
    if (!values_.contains(sec)) values_.insert(sec, toml::table{});
    values_[sec].as_table()->insert_or_assign(key_of(k.path), *t[sec][key_of(k.path)].node());
  }
}

void Config::merge_file(const std::filesystem::path& file) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(file, ec)) fail("{}: input file not found (or not a regular file)", file.string());
  std::ifstream in(file);
  std::stringstream ss;
  ss << in.rdbuf();
  if (!in.good() && !in.eof()) fail("{}: cannot read the input file", file.string());
  merge_text(ss.str(), file.string());
}

void Config::merge_text(const std::string& text, const std::string& source) {
  merge_table(parse_text(text, source), source);
}

const RepeatedSection* Config::repeated(const std::string& name) const {
  for (const RepeatedSection& r : repeated_)
    if (r.name == name) return &r;
  return nullptr;
}

void Config::merge_table(const toml::table& user, const std::string& source) {
  for (const auto& [sec_key, sec_node] : user) {
    const std::string sec(sec_key.str());
    if (const RepeatedSection* r = repeated(sec)) {
      const toml::array* a = sec_node.as_array();
      if (!a || !a->is_array_of_tables())
        fail("{}: {}: expected [[{}]] tables (an array of tables)", source, sec, sec);
      std::vector<toml::table> given;
      for (std::size_t k = 0; k < a->size(); ++k) {
        // Each entry is checked against the section's keys by a Config of its own.
        Config entry(r->schema, command_);
        toml::table wrapped;
        wrapped.insert(sec, *a->get(k)->as_table());
        entry.merge_table(wrapped, fmt::format("{} [[{}]] {}", source, sec, k + 1));
        given.push_back(*entry.values_[sec].as_table());
      }
      entries_[sec] = std::move(given);
      continue;
    }
    const toml::table* sec_table = sec_node.as_table();
    const toml::table* defaults = values_[sec].as_table();
    if (!sec_table || !defaults) {
      std::string sections;
      for (const auto& [k, v] : values_) sections += (sections.empty() ? "[" : ", [") + std::string(k.str()) + "]";
      fail("{}: unknown section or top-level key \"{}\" for lqcd {} (expected the sections {}; see lqcd {} "
           "--print-config)",
           source, sec, command_, sections, command_);
    }
    for (const auto& [key, value] : *sec_table) {
      const std::string path = sec + "." + std::string(key.str());
      const toml::node* def = defaults->get(key.str());
      if (!def)
        fail("{}: unknown key \"{}\" (see lqcd {} --print-config for every key and its default)", source, path,
             command_);
      const bool int_for_float = def->is_floating_point() && value.is_integer();
      if (def->type() != value.type() && !int_for_float)
        fail("{}: {}: expected {}, got {}", source, path, type_name(def->type()), type_name(value.type()));
      // No key takes nan: where the default is nan it means "not set", and a nan from the file would
      // silently leave the key unset (fermion.mass = nan would run at the default kappa).
      if (value.is_floating_point() && std::isnan(value.as_floating_point()->get()))
        fail("{}: {}: expected a number, got nan{}", source, path,
             std::isnan(def->as_floating_point()->get()) ? " (leave the key out to leave it unset)" : "");
      if (int_for_float)
        values_[sec].as_table()->insert_or_assign(key.str(), double(value.as_integer()->get()));
      else
        values_[sec].as_table()->insert_or_assign(key.str(), value);
    }
  }
  source_ = source;
}

const toml::node& Config::node(const std::string& path) const {
  const toml::node* n = values_.at_path(path).node();
  if (!n) fail("internal: lqcd {} reads the undeclared key {}", command_, path);
  return *n;
}

void Config::fail_key(const std::string& path, const std::string& what) const {
  fail("{}: {}: {}", source_, path, what);
}

std::int64_t Config::integer(const std::string& path) const { return node(path).as_integer()->get(); }
double Config::real(const std::string& path) const { return node(path).as_floating_point()->get(); }
std::string Config::string(const std::string& path) const { return node(path).as_string()->get(); }
bool Config::boolean(const std::string& path) const { return node(path).as_boolean()->get(); }

std::vector<std::int64_t> Config::integers(const std::string& path) const {
  std::vector<std::int64_t> out;
  for (const toml::node& e : *node(path).as_array()) {
    if (!e.is_integer()) fail_key(path, "expected an array of integers");
    out.push_back(e.as_integer()->get());
  }
  return out;
}

std::vector<std::string> Config::strings(const std::string& path) const {
  std::vector<std::string> out;
  for (const toml::node& e : *node(path).as_array()) {
    if (!e.is_string()) fail_key(path, "expected an array of strings");
    out.push_back(e.as_string()->get());
  }
  return out;
}

std::vector<std::vector<std::int64_t>> Config::integer_arrays(const std::string& path, std::size_t inner) const {
  std::vector<std::vector<std::int64_t>> out;
  const std::string what = fmt::format("expected an array of arrays of {} integers", inner);
  for (const toml::node& e : *node(path).as_array()) {
    const toml::array* a = e.as_array();
    if (!a || a->size() != inner) fail_key(path, what);
    std::vector<std::int64_t> v;
    for (const toml::node& x : *a) {
      if (!x.is_integer()) fail_key(path, what);
      v.push_back(x.as_integer()->get());
    }
    out.push_back(std::move(v));
  }
  return out;
}

bool Config::is_set(const std::string& path) const {
  for (const KeySpec& k : schema_)
    if (k.path == path) {
      const toml::table def = parse_text(fmt::format("v = {}", k.default_value), "defaults");
      std::ostringstream a, b;
      def["v"].node()->visit([&](const auto& n) { a << n; });
      node(path).visit([&](const auto& n) { b << n; });
      return a.str() != b.str();
    }
  return false;
}

std::vector<Config> Config::entries(const std::string& name) const {
  const RepeatedSection* r = repeated(name);
  if (!r) fail("internal: lqcd {} reads the undeclared repeated section {}", command_, name);
  std::vector<Config> out;
  const auto& given = entries_.at(name);
  for (std::size_t k = 0; k < given.size(); ++k) {
    Config entry(r->schema, command_);
    toml::table wrapped;
    wrapped.insert(name, given[k]);
    entry.merge_table(wrapped, fmt::format("{} [[{}]] {}", source_, name, k + 1));
    out.push_back(std::move(entry));
  }
  return out;
}

std::string Config::to_toml(bool with_help) const {
  std::ostringstream out;
  std::string current;
  auto write_key = [&](const KeySpec& k, const toml::node& n) {
    std::ostringstream value;
    n.visit([&](const auto& v) { value << v; });
    std::string line = fmt::format("{} = {}", key_of(k.path), value.str());
    // A key whose default is nan ("not set") is written as a comment while unset: read back, the
    // printed input means the same, and nan is no value a file may give.
    if (n.is_floating_point() && std::isnan(n.as_floating_point()->get())) line = "# " + key_of(k.path) + " (not set)";
    if (with_help) line = fmt::format("{:<34} # {}", line, k.help);
    out << line << "\n";
  };
  for (const KeySpec& k : schema_) {
    const std::string sec = section_of(k.path);
    if (sec != current) {
      out << (current.empty() ? "" : "\n") << "[" << sec << "]\n";
      current = sec;
    }
    write_key(k, node(k.path));
  }
  for (const RepeatedSection& r : repeated_)
    for (const Config& e : entries(r.name)) {
      out << "\n[[" << r.name << "]]\n";
      for (const KeySpec& k : r.schema) write_key(k, e.node(k.path));
    }
  return out.str();
}

}  // namespace lqcd::app
