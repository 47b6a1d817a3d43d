#pragma once
// Files of a Markov-chain run shared by lqcd heatbath and lqcd hmc: saved configurations in the chosen
// format, the checkpoint (an ILDG file whose metadata carries the chain's state and physics
// parameters) and the JSON-lines history trimmed back to the checkpoint on --resume.

#include <filesystem>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "fields/gauge_field.hpp"
#include "io/gauge_file.hpp"

namespace lqcd::app {

// Writes lex as `format` ("ildg", "nersc" or "openqcd"), atomically (rank 0 of a multi-process run).
void save_configuration(const std::filesystem::path& file, const std::string& format, const LexicographicGauge& lex,
                        const io::WriteOptions& w);

// U = the links of `whole` (a configuration as loaded, on the one-process geometry): copied, or this
// rank's part of it with its halos where U is a decomposed field.
void assign_links(GaugeField<double>& U, const GaugeField<double>& whole);

// Loads the checkpoint into U (dims checked) and returns its metadata, after checking that each
// (key, value) of `expected` is what the checkpoint was written with: resuming with other physics
// would not continue the same chain. `command` names the program for the error messages.
std::map<std::string, std::string> read_checkpoint(const std::filesystem::path& file, GaugeField<double>& U,
                                                   const std::vector<std::pair<std::string, std::string>>& expected,
                                                   const std::string& command);

// The chain position a checkpoint's metadata records under `key` ("lqcd.sweep", "lqcd.trajectory"),
// checked to be a non-negative integer (errors name the file).
long checkpoint_counter(const std::map<std::string, std::string>& meta, const std::string& key,
                        const std::filesystem::path& file);

// Drops the records whose `key` is above `last` (written after the checkpoint by a run that then
// stopped); lines without the key are kept. The file is rewritten atomically.
void truncate_jsonl(const std::filesystem::path& file, const std::string& key, long last);

}  // namespace lqcd::app
