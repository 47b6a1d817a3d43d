#include "io/text_parsing.hpp"

#include <cctype>
#include <charconv>

#include <fmt/format.h>

namespace lqcd::io {

namespace {
constexpr std::string_view kSpace = " \t\r\n\f\v";
}

std::string_view trim(std::string_view s) {
  const auto b = s.find_first_not_of(kSpace);
  if (b == std::string_view::npos) return {};
  const auto e = s.find_last_not_of(kSpace);
  return s.substr(b, e - b + 1);
}

std::optional<std::string> xml_tag_text(std::string_view xml, std::string_view tag) {
  const std::string open = fmt::format("<{}", tag);
  std::size_t pos = 0;
  while ((pos = xml.find(open, pos)) != std::string_view::npos) {
    const std::size_t after = pos + open.size();
    // "<lx>" or "<lx attr=...>", but not "<lxy>".
    if (after < xml.size() && (xml[after] == '>' || kSpace.find(xml[after]) != std::string_view::npos)) {
      const std::size_t gt = xml.find('>', after);
      if (gt == std::string_view::npos) return std::nullopt;
      const std::size_t close = xml.find(fmt::format("</{}>", tag), gt + 1);
      if (close == std::string_view::npos) return std::nullopt;
      return std::string(trim(xml.substr(gt + 1, close - gt - 1)));
    }
    pos = after;
  }
  return std::nullopt;
}

std::optional<std::pair<std::string, std::string>> split_key_value(std::string_view line) {
  const auto eq = line.find('=');
  if (eq == std::string_view::npos) return std::nullopt;
  const std::string_view key = trim(line.substr(0, eq));
  if (key.empty()) return std::nullopt;
  return std::pair{std::string(key), std::string(trim(line.substr(eq + 1)))};
}

namespace {

// Whether `rest` starts like another tmLQCD pair, "name = ...": a name of letters, digits, blanks
// and _ . - followed by " =". Only then does a comma separate pairs; a comma inside a value
// ("lqcd 0.1 (git abc, CUDA=OFF)", a date) does not.
bool starts_a_pair(std::string_view rest) {
  const auto eq = rest.find('=');
  if (eq == std::string_view::npos || eq < 2 || rest[eq - 1] != ' ') return false;
  const std::string_view name = trim(rest.substr(0, eq));
  if (name.empty()) return false;
  for (const char c : name)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == ' ' || c == '_' || c == '.' || c == '-')) return false;
  return true;
}

}  // namespace

std::vector<std::pair<std::string, std::string>> parse_xlf_info(std::string_view text) {
  std::vector<std::pair<std::string, std::string>> pairs;
  std::size_t start = 0;
  while (start <= text.size()) {
    auto end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = text.substr(start, end - start);
    start = end + 1;
    // tmLQCD puts several pairs on one line: "beta = 5.690000, kappa = 0.125000, mu = 0.006000".
    std::size_t from = 0;
    std::size_t search = 0;
    while (true) {
      auto comma = line.find(',', search);
      if (comma != std::string_view::npos && !starts_a_pair(line.substr(comma + 1))) {
        search = comma + 1;  // a comma inside a value
        continue;
      }
      if (comma == std::string_view::npos) comma = line.size();
      if (auto kv = split_key_value(line.substr(from, comma - from))) pairs.push_back(std::move(*kv));
      if (comma >= line.size()) break;
      from = search = comma + 1;
    }
  }
  return pairs;
}

std::optional<std::int64_t> parse_integer(std::string_view s) {
  s = trim(s);
  if (!s.empty() && s.front() == '+') s.remove_prefix(1);
  std::int64_t v = 0;
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc() || ptr != s.data() + s.size()) return std::nullopt;
  return v;
}

std::optional<double> parse_real(std::string_view s) {
  s = trim(s);
  if (!s.empty() && s.front() == '+') s.remove_prefix(1);
  double v = 0;
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc() || ptr != s.data() + s.size()) return std::nullopt;
  return v;
}

std::optional<std::uint32_t> parse_hex32(std::string_view s) {
  s = trim(s);
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) s.remove_prefix(2);
  std::uint32_t v = 0;
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v, 16);
  if (s.empty() || ec != std::errc() || ptr != s.data() + s.size()) return std::nullopt;
  return v;
}

}  // namespace lqcd::io
