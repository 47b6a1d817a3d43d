#pragma once
// Runs the lqcd program as a user would and captures what it prints.

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include <sys/wait.h>

#include "test_support.hpp"

namespace lqcd::test {

struct CommandResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

inline std::string read_text(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline void write_text(const std::filesystem::path& p, const std::string& text) { std::ofstream(p) << text; }

// Runs `lqcd ARGS` in directory `dir` (shell syntax in args is the caller's responsibility). `before`
// goes before the program: environment assignments ("NAME=value ...") or a launcher (e.g. setpriv, to
// run it as another user).
inline CommandResult run_lqcd(const std::string& args, const std::filesystem::path& dir,
                              const std::string& before = "") {
  const std::filesystem::path out = dir / ".stdout", err = dir / ".stderr";
  const std::string cmd = "cd '" + dir.string() + "' && OMP_NUM_THREADS=2 OMP_WAIT_POLICY=passive " + before + " '" +
                          std::string(LQCD_BINARY) + "' " + args + " >'" + out.string() + "' 2>'" + err.string() +
                          "' </dev/null";
  const int status = std::system(cmd.c_str());
  CommandResult r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = read_text(out);
  r.err = read_text(err);
  return r;
}

// One JSON object per line (the JSON-lines outputs).
inline std::vector<nlohmann::json> read_jsonl(const std::filesystem::path& p) {
  std::vector<nlohmann::json> v;
  std::istringstream in(read_text(p));
  for (std::string line; std::getline(in, line);) v.push_back(nlohmann::json::parse(line));
  return v;
}

// The program's own report on stderr: the lines that start with "lqcd:" or "lqcd COMMAND:" ("lqcd:
// error: ...", "lqcd measure: error: ..."). Tests assert on these, not on the whole of stderr, which may
// also hold what the machine printed (an MPI library's or hwloc's start-up warnings, say).
// "lqcd: ..." or "lqcd COMMAND: ..." with a lower-case COMMAND.
inline bool is_program_line(std::string_view line) {
  if (!line.starts_with("lqcd")) return false;
  line.remove_prefix(4);
  if (line.starts_with(" ")) {
    line.remove_prefix(1);
    std::size_t n = 0;
    while (n < line.size() && line[n] >= 'a' && line[n] <= 'z') ++n;
    if (n == 0) return false;
    line.remove_prefix(n);
  }
  return line.starts_with(": ");
}

inline std::vector<std::string> program_lines(const std::string& err) {
  std::vector<std::string> lines;
  std::istringstream in(err);
  for (std::string line; std::getline(in, line);)
    if (is_program_line(line)) lines.push_back(line);
  return lines;
}

// The program line that reports the error ("lqcd: error: ...", "lqcd measure: error: ..."), or "" when
// there is none.
inline std::string error_line(const std::string& err) {
  for (const std::string& line : program_lines(err))
    if (line.find(": error: ") != std::string::npos) return line;
  return "";
}

inline int count_lines(const std::string& s) {
  int n = 0;
  for (char c : s) n += c == '\n';
  return n;
}

}  // namespace lqcd::test
