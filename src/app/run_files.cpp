#include "app/run_files.hpp"

#include <fstream>

#include <nlohmann/json.hpp>

#include "comm/communicator.hpp"
#include "core/error.hpp"
#include "gauge/observables.hpp"
#include "gauge/open_boundary.hpp"
#include "gauge/updates.hpp"
#include "io/atomic_file.hpp"

namespace lqcd::app {

bool project_for_wider_output(LoadedConfiguration& c, int output_bits) {
  if (c.info.precision_bits != 32 || output_bits != 64) return false;
  reunitarize(c.field);
  c.observables = gauge_observables(c.field);
  return true;
}

void save_configuration(const std::filesystem::path& file, const std::string& format, const GaugeField<double>& U,
                        const io::WriteOptions& w) {
  // The writers' errors name the temporary they were writing (disk full, file-size limit, ...); the
  // user needs the file that was not saved first. A file of that name from before stays as it was.
  try {
    if (format == "nersc") {
      io::write_nersc_part(file, to_box(U), U.geometry(), w);
    } else if (format == "openqcd") {
      // openQCD stores sites in its own (t-major, odd-site) order: it keeps the gather path.
      const LexicographicGauge lex = to_lexicographic(U);  // collective
      if (comm::rank() == 0) io::write_openqcd(file, lex, w);
    } else {
      io::write_ildg_part(file, to_box(U), U.geometry(), w);
    }
  } catch (const Error& e) {
    const std::string what = e.what();
    if (what.rfind(file.string() + ":", 0) == 0) throw;  // already names it
    fail("{}: not saved: {}", file.string(), what);
  }
}

LoadPolicy load_policy_for(const GaugeField<double>& U, const TimeBoundary& b) {
  LoadPolicy policy;
  policy.time_boundary = b;
  policy.location = U.location();
  policy.expected_dims = U.geometry().global;
  policy.geometry = U.geometry();
  return policy;
}

std::map<std::string, std::string> read_checkpoint(const std::filesystem::path& file, GaugeField<double>& U,
                                                   const std::vector<std::pair<std::string, std::string>>& expected,
                                                   const std::string& command, const TimeBoundary& b) {
  // Only a missing file is "no checkpoint"; any other failure to reach it (a symbolic link loop, say)
  // is reported by the reader, naming the file.
  std::error_code ec;
  if (std::filesystem::status(file, ec).type() == std::filesystem::file_type::not_found)
    fail("{}: no checkpoint to resume from (set output.checkpoint_every and run without --resume first)",
         file.string());
  LoadedConfiguration c = load_configuration(file, load_policy_for(U, b));
  for (const auto& [key, value] : expected) {
    const auto it = c.info.metadata.find(key);
    if (it == c.info.metadata.end()) fail("{}: not an lqcd {} checkpoint (no {} record)", file.string(), command, key);
    if (it->second != value)
      fail("{}: checkpoint was written with {} = {}, but the input has {}; resuming would not continue the same "
           "Markov chain",
           file.string(), key, it->second, value);
  }
  U.copy_from(c.field);
  apply_time_boundary(U, b);
  return c.info.metadata;
}

void truncate_jsonl(const std::filesystem::path& file, const std::string& key, long last) {
  if (comm::rank() != 0) return;
  std::ifstream in(file);
  if (!in) return;
  std::string kept, line;
  while (std::getline(in, line)) {
    const auto j = nlohmann::json::parse(line, nullptr, false);
    if (j.is_discarded()) continue;
    if (j.contains(key) && !j[key].is_number_integer())
      fail("{}: record {} is not an integer in \"{}\"; cannot trim the history to the checkpoint", file.string(), key,
           line.substr(0, 80));
    if (!j.contains(key) || j[key].get<long>() <= last) kept += line + "\n";
  }
  in.close();
  io::AtomicFile out(file);  // a crash while rewriting leaves the old history, not half of it
  out.write(kept);
  out.commit();
}

long checkpoint_counter(const std::map<std::string, std::string>& meta, const std::string& key,
                        const std::filesystem::path& file) {
  const auto it = meta.find(key);
  if (it == meta.end()) fail("{}: not an lqcd checkpoint (no {} record)", file.string(), key);
  std::size_t used = 0;
  long n = -1;
  try {
    n = std::stol(it->second, &used);
  } catch (const std::exception&) {
  }
  if (n < 0 || used != it->second.size())
    fail("{}: {} record \"{}\" is not a non-negative integer", file.string(), key, it->second);
  return n;
}

}  // namespace lqcd::app
