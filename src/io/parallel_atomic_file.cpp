#include "io/parallel_atomic_file.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>

#include "comm/communicator.hpp"
#include "core/error.hpp"
#include "io/atomic_file.hpp"

namespace lqcd::io {

namespace {

bool is_root_of(const Dims& grid) { return process_count(grid) == 1 || comm::rank() == 0; }

// Rank 0's process id: every rank must name the same temporary.
long shared_id(const Dims& grid) {
  long id = long(::getpid());
  comm::broadcast(grid, &id, sizeof id);
  return id;
}

}  // namespace

ParallelAtomicFile::ParallelAtomicFile(std::filesystem::path final_path, const Dims& grid)
    : final_path_(std::move(final_path)), grid_(grid), root_(is_root_of(grid)), uncaught_(std::uncaught_exceptions()) {
  if (final_path_.filename().empty()) fail("{}: not a file name", final_path_.string());
  temp_path_ = atomic_temporary_path(final_path_, shared_id(grid_));
  try {
    file_.emplace(temp_path_, comm::ParallelFile::Access::create, grid_);
  } catch (const Error& e) {
    fail("{}: cannot create the temporary file ({})", final_path_.string(), e.what());
  }
}

ParallelAtomicFile::~ParallelAtomicFile() {
  if (committed_) return;
  const bool unwinding = std::uncaught_exceptions() > uncaught_;
  file_.reset();  // collective close on the normal path, local on the error path (ParallelFile)
  // On the error path every rank tries (another may be the one that failed); removal is idempotent.
  if (root_ || unwinding) {
    std::error_code ec;
    std::filesystem::remove(temp_path_, ec);
  }
}

void ParallelAtomicFile::commit() {
  if (committed_ || !file_) fail("{}: commit after commit", final_path_.string());
  try {
    file_->close();  // every process's data flushed to disk (collective, errors on every rank)
  } catch (const Error& e) {
    file_.reset();
    if (root_) {
      std::error_code ec;
      std::filesystem::remove(temp_path_, ec);
    }
    committed_ = true;  // nothing left to clean up
    fail("{}: {}", final_path_.string(), e.what());
  }
  file_.reset();
  comm::barrier(grid_);  // no rename before every rank's close has returned
  int err = 0;
  if (root_) {
    if (std::rename(temp_path_.c_str(), final_path_.c_str()) != 0) {
      err = errno;
      std::error_code ec;
      std::filesystem::remove(temp_path_, ec);
    } else {
      sync_directory(final_path_.parent_path());
    }
  }
  comm::broadcast(grid_, &err, sizeof err);
  committed_ = true;
  if (err != 0)
    fail("{}: cannot rename {} onto it ({})", final_path_.string(), temp_path_.string(), std::strerror(err));
}

}  // namespace lqcd::io
