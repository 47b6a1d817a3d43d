#include "comm/communicator.hpp"

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <string>
#include <vector>

#if LQCD_HAVE_MPI
#include <mpi.h>
#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>  // OpenMPI's MPIX_Query_cuda_support
#endif
#endif

#include "comm/device_messages.hpp"
#include "core/device_pool.hpp"
#include "core/error.hpp"

namespace lqcd::comm {

namespace {

bool active() {
#if LQCD_HAVE_MPI
  int initialised = 0, finalised = 0;
  MPI_Initialized(&initialised);
  MPI_Finalized(&finalised);
  return initialised && !finalised;
#else
  return false;
#endif
}

// A grid of several processes must cover exactly the processes of the run.
void check_grid(const Dims& grid) {
  const int n = process_count(grid);
  if (n != size())
    fail("process grid {} has {} processes, but the run has {} (start it with mpirun -np {})", dims_string(grid),
         n, size(), n);
}

#if LQCD_HAVE_MPI
void check(int code, const char* what) {
  if (code == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(code, text, &length);
  fail("MPI {} failed: {}", what, std::string(text, std::size_t(length)));
}
#endif

// Large messages go out in pieces that fit MPI's int counts.
constexpr std::size_t kMaxChunk = std::size_t(1) << 30;

}  // namespace

Session::Session(int* argc, char*** argv, bool initialise) {
#if LQCD_HAVE_MPI
  if (initialise && !active()) {
    int provided = 0;
    MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided);
  }
  if (size() > 1) disable_device_pool();  // before any field exists (core/device_pool.hpp says why)
#else
  (void)argc;
  (void)argv;
  (void)initialise;
#endif
}

Session::~Session() {
  release_device_messages();
#if LQCD_HAVE_MPI
  if (active()) MPI_Finalize();
#endif
}

bool built_with_mpi() { return LQCD_HAVE_MPI != 0; }

bool started_by_mpi_launcher() {
  for (const char* key : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_SIZE", "PMI_RANK", "MV2_COMM_WORLD_SIZE"})
    if (const char* v = std::getenv(key); v && *v) return true;
  return false;
}

int size() {
#if LQCD_HAVE_MPI
  if (!active()) return 1;
  int n = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  return n;
#else
  return 1;
#endif
}

int rank() {
#if LQCD_HAVE_MPI
  if (!active()) return 0;
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
#else
  return 0;
#endif
}

int local_rank() {
  // Set by OpenMPI, MPICH/Slurm launchers respectively; rank() as a last resort (one node).
  for (const char* key : {"OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID", "SLURM_LOCALID"})
    if (const char* v = std::getenv(key)) return std::atoi(v);
  return rank();
}

void sum(const Dims& grid, std::span<double> values) {
  if (process_count(grid) == 1 || values.empty()) return;
  check_grid(grid);
  const int n = size();
  std::vector<double> all(values.size() * std::size_t(n));
  all_gather(values.data(), all.data(), values.size_bytes());
  for (std::size_t i = 0; i < values.size(); ++i) {
    double s = 0;
    for (int r = 0; r < n; ++r) s += all[std::size_t(r) * values.size() + i];
    values[i] = s;
  }
}

double sum(const Dims& grid, double value) {
  sum(grid, std::span<double>(&value, 1));
  return value;
}

void max(const Dims& grid, std::span<double> values) {
  if (process_count(grid) == 1 || values.empty()) return;
  check_grid(grid);
#if LQCD_HAVE_MPI
  check(MPI_Allreduce(MPI_IN_PLACE, values.data(), int(values.size()), MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD),
        "Allreduce");
#endif
}

double max(const Dims& grid, double value) {
  max(grid, std::span<double>(&value, 1));
  return value;
}

namespace {

// Every rank's value, in rank order (the grid must be the run's).
template <typename T>
std::vector<T> gathered(const Dims& grid, const T& value) {
  check_grid(grid);
  std::vector<T> all(static_cast<std::size_t>(size()));
  all_gather(&value, all.data(), sizeof(T));
  return all;
}

}  // namespace

std::uint32_t wrapping_sum(const Dims& grid, std::uint32_t value) {
  if (process_count(grid) == 1) return value;
  std::uint32_t s = 0;  // unsigned: wraps modulo 2^32
  for (std::uint32_t v : gathered(grid, value)) s += v;
  return s;
}

void bitwise_xor(const Dims& grid, std::span<std::uint32_t> values) {
  if (process_count(grid) == 1 || values.empty()) return;
  check_grid(grid);
  const int n = size();
  std::vector<std::uint32_t> all(values.size() * std::size_t(n));
  all_gather(values.data(), all.data(), values.size_bytes());
  for (std::size_t i = 0; i < values.size(); ++i) {
    std::uint32_t x = 0;
    for (int r = 0; r < n; ++r) x ^= all[std::size_t(r) * values.size() + i];
    values[i] = x;
  }
}

std::int64_t min(const Dims& grid, std::int64_t value) {
  if (process_count(grid) == 1) return value;
  const std::vector<std::int64_t> all = gathered(grid, value);
  return *std::min_element(all.begin(), all.end());
}

bool any(const Dims& grid, bool value) {
  if (process_count(grid) == 1) return value;
  const std::vector<std::uint8_t> all = gathered(grid, std::uint8_t(value ? 1 : 0));
  return std::find(all.begin(), all.end(), std::uint8_t(1)) != all.end();
}

__int128 sum(const Dims& grid, __int128 value) {
  if (process_count(grid) == 1) return value;
  __int128 s = 0;
  for (__int128 v : gathered(grid, value)) s += v;
  return s;
}

void broadcast(const Dims& grid, void* data, std::size_t bytes, int root) {
  if (process_count(grid) == 1 || bytes == 0) return;
  check_grid(grid);
#if LQCD_HAVE_MPI
  auto* p = static_cast<char*>(data);
  for (std::size_t done = 0; done < bytes; done += kMaxChunk)
    check(MPI_Bcast(p + done, int(std::min(kMaxChunk, bytes - done)), MPI_BYTE, root, MPI_COMM_WORLD), "Bcast");
#else
  (void)data;
  (void)root;
#endif
}

void broadcast(const Dims& grid, std::string& text, int root) {
  if (process_count(grid) == 1) return;
  std::uint64_t n = text.size();
  broadcast(grid, &n, sizeof n, root);
  text.resize(std::size_t(n));
  broadcast(grid, text.data(), text.size(), root);
}

void barrier(const Dims& grid) {
  if (process_count(grid) == 1) return;
  check_grid(grid);
#if LQCD_HAVE_MPI
  check(MPI_Barrier(MPI_COMM_WORLD), "Barrier");
#endif
}

int neighbour_rank(const Dims& grid, const Dims& coords, int mu, int dir) {
  Dims c = coords;
  c[mu] = (c[mu] + dir + grid[mu]) % grid[mu];
  return c[0] + grid[0] * (c[1] + grid[1] * (c[2] + grid[2] * c[3]));
}

void send_receive(const void* send, int to, void* receive, int from, std::size_t bytes, int tag) {
#if LQCD_HAVE_MPI
  if (active()) {
    const auto* s = static_cast<const char*>(send);
    auto* r = static_cast<char*>(receive);
    for (std::size_t done = 0; done < bytes; done += kMaxChunk) {
      const int count = int(std::min(kMaxChunk, bytes - done));
      check(MPI_Sendrecv(s + done, count, MPI_BYTE, to, tag, r + done, count, MPI_BYTE, from, tag, MPI_COMM_WORLD,
                         MPI_STATUS_IGNORE),
            "Sendrecv");
    }
    return;
  }
#endif
  if (to != rank() || from != rank()) fail("internal: message to rank {} in a single-process run", to);
  std::copy_n(static_cast<const char*>(send), bytes, static_cast<char*>(receive));
  (void)tag;
}

struct PendingMessages::Requests {
#if LQCD_HAVE_MPI
  std::vector<MPI_Request> list;
#endif
};

PendingMessages::PendingMessages() : requests_(std::make_unique<Requests>()) {}

PendingMessages::~PendingMessages() {
#if LQCD_HAVE_MPI
  // Leaving requests pending would let MPI write into freed buffers later.
  if (!requests_->list.empty())
    MPI_Waitall(int(requests_->list.size()), requests_->list.data(), MPI_STATUSES_IGNORE);
#endif
}

void PendingMessages::receive(void* data, int from, std::size_t bytes, int tag) {
#if LQCD_HAVE_MPI
  if (active()) {
    if (bytes > std::size_t(std::numeric_limits<int>::max())) fail("internal: a message of {} bytes", bytes);
    MPI_Request r{};
    check(MPI_Irecv(data, int(bytes), MPI_BYTE, from, tag, MPI_COMM_WORLD, &r), "Irecv");
    requests_->list.push_back(r);
    return;
  }
#endif
  (void)data, (void)bytes, (void)tag;
  fail("internal: a message from rank {} in a single-process run", from);
}

void PendingMessages::send(const void* data, int to, std::size_t bytes, int tag) {
#if LQCD_HAVE_MPI
  if (active()) {
    if (bytes > std::size_t(std::numeric_limits<int>::max())) fail("internal: a message of {} bytes", bytes);
    MPI_Request r{};
    check(MPI_Isend(data, int(bytes), MPI_BYTE, to, tag, MPI_COMM_WORLD, &r), "Isend");
    requests_->list.push_back(r);
    return;
  }
#endif
  (void)data, (void)bytes, (void)tag;
  fail("internal: a message to rank {} in a single-process run", to);
}

void PendingMessages::wait() {
#if LQCD_HAVE_MPI
  if (requests_->list.empty()) return;
  const int code = MPI_Waitall(int(requests_->list.size()), requests_->list.data(), MPI_STATUSES_IGNORE);
  requests_->list.clear();
  check(code, "Waitall");
#endif
}

bool cuda_aware() {
  static const bool aware = [] {
    const char* env = std::getenv("LQCD_MPI_CUDA_AWARE");
    if (env && std::string(env) == "0") return false;
#if LQCD_HAVE_MPI && defined(MPIX_CUDA_AWARE_SUPPORT) && MPIX_CUDA_AWARE_SUPPORT
    return active() && MPIX_Query_cuda_support() == 1;
#else
    return false;
#endif
  }();
  return aware;
}

void all_gather(const void* send, void* receive, std::size_t bytes) {
#if LQCD_HAVE_MPI
  if (active() && size() > 1) {
    if (bytes > std::size_t(std::numeric_limits<int>::max())) fail("internal: all_gather of {} bytes", bytes);
    check(MPI_Allgather(send, int(bytes), MPI_BYTE, receive, int(bytes), MPI_BYTE, MPI_COMM_WORLD), "Allgather");
    return;
  }
#endif
  std::copy_n(static_cast<const char*>(send), bytes, static_cast<char*>(receive));
}

void gather_to_root(const void* send, void* receive, std::size_t bytes) {
#if LQCD_HAVE_MPI
  if (active() && size() > 1) {
    if (bytes > std::size_t(std::numeric_limits<int>::max())) fail("internal: gather_to_root of {} bytes", bytes);
    check(MPI_Gather(send, int(bytes), MPI_BYTE, receive, int(bytes), MPI_BYTE, 0, MPI_COMM_WORLD), "Gather");
    return;
  }
#endif
  std::copy_n(static_cast<const char*>(send), bytes, static_cast<char*>(receive));
}

void abort_all(int code) {
#if LQCD_HAVE_MPI
  if (active() && size() > 1) MPI_Abort(MPI_COMM_WORLD, code);
#endif
  std::exit(code);
}

}  // namespace lqcd::comm
