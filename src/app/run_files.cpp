#include "app/run_files.hpp"

#include <fstream>

#include <nlohmann/json.hpp>

#include "core/error.hpp"
#include "measure/configuration.hpp"

namespace lqcd::app {

void save_configuration(const std::filesystem::path& file, const std::string& format, const LexicographicGauge& lex,
                        const io::WriteOptions& w) {
  if (format == "nersc") io::write_nersc(file, lex, w);
  else if (format == "openqcd") io::write_openqcd(file, lex, w);
  else io::write_ildg(file, lex, w);
}

std::map<std::string, std::string> read_checkpoint(const std::filesystem::path& file, GaugeField<double>& U,
                                                   const std::vector<std::pair<std::string, std::string>>& expected,
                                                   const std::string& command) {
  if (!std::filesystem::exists(file))
    fail("{}: no checkpoint to resume from (set output.checkpoint_every and run without --resume first)",
         file.string());
  LoadPolicy policy;
  policy.location = U.location();
  policy.expected_dims = U.geometry().global;
  LoadedConfiguration c = load_configuration(file, policy);
  for (const auto& [key, value] : expected) {
    const auto it = c.info.metadata.find(key);
    if (it == c.info.metadata.end()) fail("{}: not an lqcd {} checkpoint (no {} record)", file.string(), command, key);
    if (it->second != value)
      fail("{}: checkpoint was written with {} = {}, but the input has {}; resuming would not continue the same "
           "Markov chain",
           file.string(), key, it->second, value);
  }
  U.copy_from(c.field);
  return c.info.metadata;
}

void truncate_jsonl(const std::filesystem::path& file, const std::string& key, long last) {
  std::ifstream in(file);
  if (!in) return;
  std::string kept, line;
  while (std::getline(in, line)) {
    const auto j = nlohmann::json::parse(line, nullptr, false);
    if (!j.is_discarded() && (!j.contains(key) || j[key].get<long>() <= last)) kept += line + "\n";
  }
  in.close();
  std::ofstream(file, std::ios::trunc) << kept;
}

}  // namespace lqcd::app
