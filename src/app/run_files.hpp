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
#include "measure/configuration.hpp"

namespace lqcd::app {

// Writes U as `format` ("ildg", "nersc" or "openqcd"), atomically. Collective: every rank of a
// decomposed run calls it. ILDG and NERSC are written in parallel (each rank its part with MPI-IO, no
// rank holds the whole lattice); openQCD keeps the gather path (the whole lattice is assembled on every
// rank and rank 0 writes it).
// Links read from 32-bit storage are SU(3) only to ~1e-7, which every 64-bit reader refuses (lqcd's
// check: 1e-10). Before a 64-bit output of them (lqcd convert, lqcd smear) they are projected to SU(3) in
// double, which moves the plaquette by ~1e-8, and c.observables become the projected field's. Returns
// whether it projected (nothing is done for 64-bit input or a 32-bit output).
bool project_for_wider_output(LoadedConfiguration& c, int output_bits);

void save_configuration(const std::filesystem::path& file, const std::string& format, const GaugeField<double>& U,
                        const io::WriteOptions& w);

// The load policy of a configuration read into U: U's location and geometry (each rank reads its part);
// with open boundaries (b) the frozen links are not checked.
LoadPolicy load_policy_for(const GaugeField<double>& U, const TimeBoundary& b = {});

// Loads the checkpoint into U (dims checked; each rank reads its part) and returns its metadata, after checking that each
// (key, value) of `expected` is what the checkpoint was written with: resuming with other physics
// would not continue the same chain. `command` names the program for the error messages. With open
// boundaries (b) the frozen links are not checked, and are zero in U.
std::map<std::string, std::string> read_checkpoint(const std::filesystem::path& file, GaugeField<double>& U,
                                                   const std::vector<std::pair<std::string, std::string>>& expected,
                                                   const std::string& command, const TimeBoundary& b = {});

// The chain position a checkpoint's metadata records under `key` ("lqcd.sweep", "lqcd.trajectory"),
// checked to be a non-negative integer (errors name the file).
long checkpoint_counter(const std::map<std::string, std::string>& meta, const std::string& key,
                        const std::filesystem::path& file);

// Drops the records whose `key` is above `last` (written after the checkpoint by a run that then
// stopped); lines without the key are kept. The file is rewritten atomically.
void truncate_jsonl(const std::filesystem::path& file, const std::string& key, long last);

}  // namespace lqcd::app
