#pragma once
// Atomic replacement of a file: everything is written to a temporary file in the destination's
// directory (`<dir>/.<name>.tmp.<pid>`) and only commit() renames it onto the final name, after
// flushing it to disk. rename(2) within one file system is atomic, so a reader (or a crash) sees
// either the old file or the complete new one, never a half-written configuration under the final
// name. An AtomicFile destroyed without commit() removes its temporary and leaves any existing file
// of the final name untouched.

#include <cstddef>
#include <cstdio>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace lqcd::io {

// The temporary beside `final_path` that a writer with this id (the process id) uses:
// `<dir>/.<name>.tmp.<id>`, in the same directory because rename(2) is atomic only within one file
// system. ParallelAtomicFile's ranks agree on rank 0's id.
std::filesystem::path atomic_temporary_path(const std::filesystem::path& final_path, long id);
// Removes the temporaries `<dir>/.<name>.tmp.<id>` whose <name> starts with `name_start` and whose
// writer, the process <id>, no longer exists on this machine: what a writer killed before commit() (or
// before its destructor ran: kill -9, power loss) leaves behind. The caller must know that no writer on
// another machine uses these names (lqcd holds the output prefix's lock). Returns the removed paths;
// failures to remove are ignored (the files are harmless, only clutter).
std::vector<std::filesystem::path> remove_stale_temporaries(const std::filesystem::path& dir,
                                                            const std::string& name_start);
// Best effort: makes the directory entry of a completed rename durable (failure is not reported: it
// does not invalidate the written file).
void sync_directory(const std::filesystem::path& dir);

class AtomicFile {
 public:
  // Creates the temporary; throws lqcd::Error naming final_path if it cannot (directory missing,
  // no permission).
  explicit AtomicFile(std::filesystem::path final_path);
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  // Appends n bytes; throws lqcd::Error naming the final path on a write failure (e.g. disk full).
  void write(const void* data, std::size_t n);
  void write(std::string_view text) { write(text.data(), text.size()); }

  // fflush + fsync, then rename onto the final path (and fsync the directory so that the rename
  // itself survives a crash). Throws lqcd::Error naming the final path on failure, in which case the
  // temporary is removed and the final path is untouched.
  void commit();

  const std::filesystem::path& final_path() const { return final_path_; }
  const std::filesystem::path& temporary_path() const { return temp_path_; }

 private:
  void discard() noexcept;

  std::filesystem::path final_path_;
  std::filesystem::path temp_path_;
  std::FILE* file_ = nullptr;
  bool committed_ = false;
};

}  // namespace lqcd::io
