#pragma once
// The message layer: the only code that talks to MPI. Everything above it calls these functions with
// the process grid of the geometry at hand; a grid of one process never communicates, so single-process
// computations (and a build without MPI) take the same paths. Ranks are numbered lexicographically in
// the grid coordinates with x fastest, like sites (ProcessGrid), over all processes of the run.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "core/geometry.hpp"

namespace lqcd::comm {

// Initialises MPI for the lifetime of the object (MPI_Init_thread with MPI_THREAD_FUNNELED) when the
// build has MPI and `initialise` is true; finalises it on destruction. One per program, in main() or
// the test runner. Without initialisation every function here works for one process (size() 1).
class Session {
 public:
  Session(int* argc, char*** argv, bool initialise = true);
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;
};

bool built_with_mpi();

// Whether this process was started by an MPI launcher (mpirun / mpiexec of OpenMPI, MPICH or
// MVAPICH, srun): the variables their process managers set (OMPI_COMM_WORLD_SIZE, PMIX_RANK,
// PMI_SIZE, PMI_RANK, MV2_COMM_WORLD_SIZE). A serial run started from a shell has none of them and
// need not initialise MPI, which costs start-up time and, on some machines, prints warnings.
bool started_by_mpi_launcher();
// Processes of the run and this one's rank (1 and 0 without MPI or before a Session).
int size();
int rank();
// The rank of this node's processes, 0.. (selects the GPU of a rank).
int local_rank();

// Global sums over the grid's processes, identical on every rank and independent of timing: each
// rank's values are gathered and added in rank order. Identity for a one-process grid.
void sum(const Dims& grid, std::span<double> values);
double sum(const Dims& grid, double value);
// Global maxima (exact in any order).
void max(const Dims& grid, std::span<double> values);
double max(const Dims& grid, double value);

// Integer combinations for checksums and agreement (gathered and combined in rank order like sum;
// identity for a one-process grid): the sum modulo 2^32 (NERSC's checksum adds 32-bit words with
// wrap-around), the bitwise XOR (SciDAC's suma/sumb), the minimum, and whether any rank says true
// (so that an error seen by one rank is thrown by all of them).
std::uint32_t wrapping_sum(const Dims& grid, std::uint32_t value);
void bitwise_xor(const Dims& grid, std::span<std::uint32_t> values);
std::int64_t min(const Dims& grid, std::int64_t value);
bool any(const Dims& grid, bool value);
// Exact sum of 128-bit fixed-point partial sums (order-free; see io/gauge_part.cpp's link trace).
__int128 sum(const Dims& grid, __int128 value);

// `bytes` at `data` from rank `root` to every process of the grid; no-op for a one-process grid.
void broadcast(const Dims& grid, void* data, std::size_t bytes, int root = 0);
// A string of any length from rank `root`.
void broadcast(const Dims& grid, std::string& text, int root = 0);
// Waits until every process of the grid has arrived.
void barrier(const Dims& grid);

// The rank of the grid neighbour of `coords` in direction mu (dir = +1 or -1), periodic.
int neighbour_rank(const Dims& grid, const Dims& coords, int mu, int dir);

// Sends `bytes` to rank `to` and receives as many from rank `from` (tagged by `tag`), blocking.
void send_receive(const void* send, int to, void* receive, int from, std::size_t bytes, int tag);

// Non-blocking messages (MPI_Irecv / MPI_Isend), completed together by wait(), so that computation
// can go on while they travel. Receives are best posted before the matching sends. The buffers must
// stay untouched until wait() returns; the destructor waits for what is still pending.
class PendingMessages {
 public:
  PendingMessages();
  ~PendingMessages();
  PendingMessages(const PendingMessages&) = delete;
  PendingMessages& operator=(const PendingMessages&) = delete;

  void receive(void* data, int from, std::size_t bytes, int tag);
  void send(const void* data, int to, std::size_t bytes, int tag);
  void wait();

 private:
  struct Requests;
  std::unique_ptr<Requests> requests_;
};

// True when MPI accepts device pointers (a CUDA-aware MPI: OpenMPI's MPIX_Query_cuda_support), so
// halo messages can go from GPU memory to GPU memory without host staging. LQCD_MPI_CUDA_AWARE=0 in
// the environment turns it off (=1 cannot turn it on where MPI does not support it).
bool cuda_aware();

// Every process contributes `bytes` at `send`; `receive` gets all contributions in rank order
// (size() * bytes).
void all_gather(const void* send, void* receive, std::size_t bytes);
// The same, but only rank 0 receives (`receive` is ignored on the other ranks): for data that only the
// writing rank needs, without every rank holding all of it.
void gather_to_root(const void* send, void* receive, std::size_t bytes);

// Stops every process of the run (after an error on one rank, the others would wait forever).
[[noreturn]] void abort_all(int code);

}  // namespace lqcd::comm
