#pragma once
// Parallel file access for the configuration formats (issue 6: "each rank reads and writes its part of
// an ILDG or NERSC file with MPI-IO"). The formats store a global array of sites in lexicographic order
// (x fastest, then y, z, t; DESIGN.md) at some byte offset, each site a fixed number of bytes; a
// process of a decomposed run reads and writes only the sites of its box (Geometry local/offset) with
// one collective call: the box is an MPI subarray of the global array (MPI_Type_create_subarray in
// Fortran order, which makes the first index fastest), set as the file view, and MPI_File_read_all /
// write_all let the MPI library merge the processes' requests into large contiguous accesses.
//
// With a one-process grid (and in a build without MPI) the same calls are plain POSIX reads and writes
// of the same bytes by this process alone; the box is then the whole lattice, one contiguous range.
// Everything else (headers, small records) goes through read_at / write_at, which any process may
// call on its own.
//
// Errors throw lqcd::Error naming the file. Errors of the collective calls are agreed between the
// processes before they are thrown, so that every rank throws (none waits in a later collective).

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>

#include "core/geometry.hpp"

namespace lqcd::comm {

class ParallelFile {
 public:
  enum class Access {
    read,   // an existing file, read only
    create  // created, or truncated to zero length, write only
  };

  // Opens `path` on the processes of `grid`: collectively (all ranks of the run call it) where the grid
  // has several processes, by this process alone otherwise.
  ParallelFile(const std::filesystem::path& path, Access access, const Dims& grid);
  // Without close(): on the normal path closes (collectively); while an exception unwinds it only lets
  // go of the handle, since another rank may not be unwinding too and would never join a collective
  // close (the program ends anyway: main aborts every rank after an error).
  ~ParallelFile();
  ParallelFile(const ParallelFile&) = delete;
  ParallelFile& operator=(const ParallelFile&) = delete;

  const std::filesystem::path& path() const { return path_; }
  // Bytes in the file (as it was opened).
  std::uint64_t size() const { return size_; }

  // Collective: the sites of this process's box of `geom` (local extents at offset, in the global
  // lattice geom.global) of an array of `site_bytes` per site that starts at byte `offset`, in local
  // lexicographic order (x fastest). local.size() must be geom.volume() * site_bytes.
  void read_sites(std::uint64_t offset, const Geometry& geom, std::size_t site_bytes, std::span<std::uint8_t> local);
  void write_sites(std::uint64_t offset, const Geometry& geom, std::size_t site_bytes,
                   std::span<const std::uint8_t> local);

  // This process alone: bytes at an absolute offset (headers, records).
  void read_at(std::uint64_t offset, std::span<std::uint8_t> data);
  void write_at(std::uint64_t offset, std::span<const std::uint8_t> data);

  // Collective: written data flushed to disk (MPI_File_sync / fsync), then the file closed. Errors
  // (disk full shows up here) throw on every rank.
  void close();

 private:
  struct Handle;  // MPI_File or a POSIX descriptor (parallel_file.cpp)
  void check_box(const Geometry& geom, std::size_t site_bytes, std::size_t local_bytes) const;
  int transfer_box(std::uint64_t offset, const Geometry& geom, std::size_t site_bytes, void* data, bool write);

  std::filesystem::path path_;
  Access access_;
  Dims grid_;
  std::uint64_t size_ = 0;
  std::unique_ptr<Handle> handle_;
  int uncaught_ = 0;  // std::uncaught_exceptions() at construction
};

}  // namespace lqcd::comm
