#include "comm/parallel_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>
#include <exception>
#include <string>

#if LQCD_HAVE_MPI
#include <mpi.h>
#endif

#include "comm/communicator.hpp"
#include "core/error.hpp"

namespace lqcd::comm {

struct ParallelFile::Handle {
#if LQCD_HAVE_MPI
  MPI_File file = MPI_FILE_NULL;
#endif
  int fd = -1;
};

namespace {

bool collective(const Dims& grid) { return process_count(grid) > 1; }

#if LQCD_HAVE_MPI
std::string mpi_error_text(int code) {
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(code, text, &length);
  return std::string(text, std::size_t(length));
}

// The first failing call of a sequence of collective calls. Every call of the sequence is still made on
// every rank (a rank that skipped one would leave the others waiting), and the ranks agree at the end.
struct FirstError {
  int code = MPI_SUCCESS;
  const char* what = nullptr;
  void note(int c, const char* call) {
    if (code == MPI_SUCCESS && c != MPI_SUCCESS) {
      code = c;
      what = call;
    }
  }
  // Throws on every rank when any rank saw an error.
  void agree(const Dims& grid, const std::filesystem::path& path, const char* action) const {
    const bool mine = code != MPI_SUCCESS;
    if (!any(grid, mine)) return;
    if (mine) fail("{}: {}: MPI {} failed ({})", path.string(), action, what, mpi_error_text(code));
    fail("{}: {}: MPI-IO failed on another rank", path.string(), action);
  }
};

// RAII for derived datatypes.
struct Datatype {
  MPI_Datatype type = MPI_DATATYPE_NULL;
  Datatype() = default;
  Datatype(const Datatype&) = delete;
  Datatype& operator=(const Datatype&) = delete;
  ~Datatype() {
    if (type != MPI_DATATYPE_NULL) MPI_Type_free(&type);
  }
};

// One site's bytes as the element type, and this rank's box of the global site array as the file type.
void box_types(const Geometry& g, std::size_t site_bytes, Datatype& site, Datatype& box, FirstError& e) {
  e.note(MPI_Type_contiguous(int(site_bytes), MPI_BYTE, &site.type), "Type_contiguous");
  e.note(MPI_Type_commit(&site.type), "Type_commit");
  int sizes[4], subsizes[4], starts[4];
  for (int mu = 0; mu < 4; ++mu) {
    sizes[mu] = g.global[mu];
    subsizes[mu] = g.local[mu];
    starts[mu] = g.offset[mu];
  }
  // Fortran order: the first dimension (x) varies fastest, as in the files.
  e.note(MPI_Type_create_subarray(4, sizes, subsizes, starts, MPI_ORDER_FORTRAN, site.type, &box.type),
         "Type_create_subarray");
  e.note(MPI_Type_commit(&box.type), "Type_commit");
}
#endif

[[noreturn]] void fail_errno(const std::filesystem::path& path, const char* action, int err) {
  fail("{}: {} failed ({})", path.string(), action, std::strerror(err));
}

void pread_all(int fd, std::uint8_t* p, std::size_t n, std::uint64_t offset, const std::filesystem::path& path) {
  while (n > 0) {
    const ssize_t got = ::pread(fd, p, n, off_t(offset));
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) fail_errno(path, "reading", errno);
    if (got == 0) fail("{}: read error: expected {} more bytes at offset {}, the file ends", path.string(), n, offset);
    p += got;
    n -= std::size_t(got);
    offset += std::uint64_t(got);
  }
}

void pwrite_all(int fd, const std::uint8_t* p, std::size_t n, std::uint64_t offset, const std::filesystem::path& path) {
  while (n > 0) {
    const ssize_t put = ::pwrite(fd, p, n, off_t(offset));
    if (put < 0 && errno == EINTR) continue;
    if (put < 0) fail_errno(path, "writing", errno);
    p += put;
    n -= std::size_t(put);
    offset += std::uint64_t(put);
  }
}

// MPI counts are ints: larger independent accesses go in pieces.
constexpr std::size_t kMaxChunk = std::size_t(1) << 30;

// f(done, n) for the pieces [done, done + n) of [0, size), each at most kMaxChunk bytes.
template <typename F>
void for_each_chunk(std::size_t size, F&& f) {
  for (std::size_t done = 0; done < size; done += kMaxChunk) f(done, int(std::min(kMaxChunk, size - done)));
}

}  // namespace

ParallelFile::ParallelFile(const std::filesystem::path& path, Access access, const Dims& grid)
    : path_(path), access_(access), grid_(grid), handle_(std::make_unique<Handle>()),
      uncaught_(std::uncaught_exceptions()) {
  if (collective(grid_)) {
#if LQCD_HAVE_MPI
    if (process_count(grid_) != comm::size())
      fail("{}: internal: file opened on a grid of {} processes in a run of {}", path_.string(), process_count(grid_),
           comm::size());
    FirstError e;
    const int mode = access == Access::read ? MPI_MODE_RDONLY : (MPI_MODE_CREATE | MPI_MODE_WRONLY);
    MPI_File f = MPI_FILE_NULL;
    e.note(MPI_File_open(MPI_COMM_WORLD, path_.c_str(), mode, MPI_INFO_NULL, &f), "File_open");
    // A failed open leaves no handle; the other ranks' handles must still be closed (collectively).
    if (!any(grid_, e.code != MPI_SUCCESS)) {
      handle_->file = f;
      if (access == Access::create) e.note(MPI_File_set_size(f, 0), "File_set_size");
      MPI_Offset bytes = 0;
      e.note(MPI_File_get_size(f, &bytes), "File_get_size");
      size_ = std::uint64_t(bytes);
    } else if (f != MPI_FILE_NULL) {
      MPI_File_close(&f);
    }
    e.agree(grid_, path_, access == Access::read ? "cannot open" : "cannot create");
    return;
#endif
  }
  const int fd = access == Access::read ? ::open(path_.c_str(), O_RDONLY | O_CLOEXEC)
                                        : ::open(path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd < 0) fail_errno(path_, access == Access::read ? "opening" : "creating", errno);
  handle_->fd = fd;
  struct stat st {};
  if (::fstat(fd, &st) != 0) fail_errno(path_, "fstat", errno);
  size_ = std::uint64_t(st.st_size);
}

ParallelFile::~ParallelFile() {
  if (!handle_) return;
  if (std::uncaught_exceptions() > uncaught_) {
    // Local only (see the header); an MPI handle is left to MPI_Abort.
    if (handle_->fd >= 0) ::close(handle_->fd);
    handle_->fd = -1;
    return;
  }
  try {
    close();
  } catch (const std::exception&) {
    // A destructor cannot report; callers that care call close() themselves.
  }
}

void ParallelFile::check_box(const Geometry& g, std::size_t site_bytes, std::size_t local_bytes) const {
  if (!handle_) fail("{}: internal: access after close", path_.string());
  if (g.grid != grid_) fail("{}: internal: geometry of grid {} on a file of grid {}", path_.string(), dims_string(g.grid),
                            dims_string(grid_));
  if (local_bytes != std::size_t(g.volume()) * site_bytes)
    fail("{}: internal: {} bytes for {} sites of {} bytes", path_.string(), local_bytes, g.volume(), site_bytes);
  if (!collective(grid_) && g.local != g.global)
    fail("{}: internal: a box {} of {} on one process", path_.string(), dims_string(g.local), dims_string(g.global));
  if (g.volume() > INT_MAX || site_bytes > std::size_t(INT_MAX))
    fail("{}: {} local sites of {} bytes exceed MPI's int counts", path_.string(), g.volume(), site_bytes);
}

#if LQCD_HAVE_MPI
// The collective part of read_sites and write_sites: a subarray view of this rank's box at `offset`,
// one collective transfer, the plain byte view back (set_view is collective: here, not in read_at /
// write_at). Errors are agreed between the ranks; returns the sites transferred.
int ParallelFile::transfer_box(std::uint64_t offset, const Geometry& g, std::size_t site_bytes, void* data,
                               bool write) {
  FirstError e;
  Datatype site, box;
  box_types(g, site_bytes, site, box, e);
  e.note(MPI_File_set_view(handle_->file, MPI_Offset(offset), site.type, box.type, "native", MPI_INFO_NULL),
         "File_set_view");
  MPI_Status status;
  if (write) e.note(MPI_File_write_all(handle_->file, data, int(g.volume()), site.type, &status), "File_write_all");
  else e.note(MPI_File_read_all(handle_->file, data, int(g.volume()), site.type, &status), "File_read_all");
  int done = 0;
  if (e.code == MPI_SUCCESS) MPI_Get_count(&status, site.type, &done);
  e.note(MPI_File_set_view(handle_->file, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL), "File_set_view");
  e.agree(grid_, path_, write ? "writing the sites" : "reading the sites");
  return done;
}
#endif

void ParallelFile::read_sites(std::uint64_t offset, const Geometry& g, std::size_t site_bytes,
                              std::span<std::uint8_t> local) {
  check_box(g, site_bytes, local.size());
#if LQCD_HAVE_MPI
  if (collective(grid_)) {
    const int got = transfer_box(offset, g, site_bytes, local.data(), false);
    if (any(grid_, got != int(g.volume())))
      fail("{}: read error: the file ends before the last site (offset {}, {} sites of {} bytes)", path_.string(),
           offset, g.global_volume(), site_bytes);
    return;
  }
#endif
  pread_all(handle_->fd, local.data(), local.size(), offset, path_);
}

void ParallelFile::write_sites(std::uint64_t offset, const Geometry& g, std::size_t site_bytes,
                               std::span<const std::uint8_t> local) {
  check_box(g, site_bytes, local.size());
#if LQCD_HAVE_MPI
  if (collective(grid_)) {
    // MPI's write takes a non-const pointer; it only reads.
    transfer_box(offset, g, site_bytes, const_cast<std::uint8_t*>(local.data()), true);
    return;
  }
#endif
  pwrite_all(handle_->fd, local.data(), local.size(), offset, path_);
}

void ParallelFile::read_at(std::uint64_t offset, std::span<std::uint8_t> data) {
  if (!handle_) fail("{}: internal: access after close", path_.string());
#if LQCD_HAVE_MPI
  if (collective(grid_)) {
    for_each_chunk(data.size(), [&](std::size_t done, int n) {
      MPI_Status status;
      const int code =
          MPI_File_read_at(handle_->file, MPI_Offset(offset + done), data.data() + done, n, MPI_BYTE, &status);
      if (code != MPI_SUCCESS) fail("{}: reading at offset {} failed ({})", path_.string(), offset, mpi_error_text(code));
      int got = 0;
      MPI_Get_count(&status, MPI_BYTE, &got);
      if (got != n) fail("{}: read error: expected {} bytes at offset {}, the file ends", path_.string(), n, offset + done);
    });
    return;
  }
#endif
  pread_all(handle_->fd, data.data(), data.size(), offset, path_);
}

void ParallelFile::write_at(std::uint64_t offset, std::span<const std::uint8_t> data) {
  if (!handle_) fail("{}: internal: access after close", path_.string());
#if LQCD_HAVE_MPI
  if (collective(grid_)) {
    for_each_chunk(data.size(), [&](std::size_t done, int n) {
      MPI_Status status;
      const int code =
          MPI_File_write_at(handle_->file, MPI_Offset(offset + done), data.data() + done, n, MPI_BYTE, &status);
      if (code != MPI_SUCCESS) fail("{}: writing at offset {} failed ({})", path_.string(), offset, mpi_error_text(code));
    });
    return;
  }
#endif
  pwrite_all(handle_->fd, data.data(), data.size(), offset, path_);
}

void ParallelFile::close() {
  if (!handle_) return;
  const std::unique_ptr<Handle> h = std::move(handle_);
#if LQCD_HAVE_MPI
  if (collective(grid_)) {
    FirstError e;
    // Written data reach the disk before the file may be renamed onto its final name (AtomicFile's rule).
    if (access_ == Access::create) e.note(MPI_File_sync(h->file), "File_sync");
    e.note(MPI_File_close(&h->file), "File_close");
    e.agree(grid_, path_, "closing");
    return;
  }
#endif
  const int fd = h->fd;
  if (access_ == Access::create && ::fsync(fd) != 0) {
    const int err = errno;
    ::close(fd);
    fail_errno(path_, "flushing to disk", err);
  }
  if (::close(fd) != 0) fail_errno(path_, "closing", errno);
}

}  // namespace lqcd::comm
