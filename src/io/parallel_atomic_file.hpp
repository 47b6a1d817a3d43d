#pragma once
// AtomicFile's guarantee for files written by several processes at once (parallel I/O, issue 6): every
// process writes into one temporary file beside the target (`<dir>/.<name>.tmp.<pid of rank 0>`,
// through comm::ParallelFile), and only after every process has flushed and closed it does rank 0
// rename it onto the final name. A reader (or a crash) sees the old file or the complete new one; a
// failure on any rank leaves an existing file of the final name untouched and removes the temporary.
//
// Collective over the processes of `grid` (all ranks of the run when it has several; this process
// alone for a one-process grid, which makes it a plain AtomicFile on the POSIX path).

#include <filesystem>
#include <optional>

#include "comm/parallel_file.hpp"
#include "core/geometry.hpp"

namespace lqcd::io {

class ParallelAtomicFile {
 public:
  // Creates the temporary (collective); throws lqcd::Error naming final_path on every rank if it cannot.
  ParallelAtomicFile(std::filesystem::path final_path, const Dims& grid);
  // Without commit(): the temporary is closed and removed (see ParallelFile's destructor for the
  // error path).
  ~ParallelAtomicFile();
  ParallelAtomicFile(const ParallelAtomicFile&) = delete;
  ParallelAtomicFile& operator=(const ParallelAtomicFile&) = delete;

  // The temporary file, for read_sites / write_sites (collective) and write_at (one process).
  comm::ParallelFile& file() { return *file_; }
  // Whether this process writes what one process writes (headers): rank 0, or the only process.
  bool is_root() const { return root_; }

  // Collective: flush and close on every process, then rank 0 renames the temporary onto the final
  // name; errors (also of the rename) throw on every rank, naming the final path.
  void commit();

  const std::filesystem::path& final_path() const { return final_path_; }
  const std::filesystem::path& temporary_path() const { return temp_path_; }

 private:
  std::filesystem::path final_path_;
  std::filesystem::path temp_path_;
  Dims grid_;
  bool root_;
  std::optional<comm::ParallelFile> file_;
  bool committed_ = false;
  int uncaught_ = 0;  // std::uncaught_exceptions() at construction
};

}  // namespace lqcd::io
