#pragma once
// Small, tolerant text parsers for the ASCII parts of configuration files: the NERSC header
// (`KEY = VALUE` lines), tmLQCD/CL2QCD `xlf-info` records (`key = value`, sometimes several
// comma-separated on one line) and the XML records of ILDG/SciDAC files. The XML records are read by
// extracting the text between `<tag>` and `</tag>` rather than by a validating parser, because real
// files are not always well-formed (one of the reference files has an unterminated attribute) and
// the few values needed are simple tag contents.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace lqcd::io {

std::string_view trim(std::string_view s);

// The trimmed text between the first <tag ...> and the following </tag>, or nullopt.
std::optional<std::string> xml_tag_text(std::string_view xml, std::string_view tag);

// "KEY = VALUE" split at the first '=' (both sides trimmed); nullopt for lines without '=' or with
// an empty key.
std::optional<std::pair<std::string, std::string>> split_key_value(std::string_view line);

// The key/value pairs of an xlf-info record: one or more per line (tmLQCD writes
// "beta = 5.690000, kappa = 0.125000, ..."). A comma separates pairs only where "name =" follows
// it, so values may contain commas; a value containing ", name = " cannot be told apart.
std::vector<std::pair<std::string, std::string>> parse_xlf_info(std::string_view text);

// Whole-string numeric conversions (surrounding whitespace allowed, nothing else).
std::optional<std::int64_t> parse_integer(std::string_view s);
std::optional<double> parse_real(std::string_view s);
// Hexadecimal, with or without a 0x prefix, at most 32 bits (checksums).
std::optional<std::uint32_t> parse_hex32(std::string_view s);

}  // namespace lqcd::io
