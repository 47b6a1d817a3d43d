#include "comm/device_messages.hpp"

#include <array>
#include <cstdlib>
#include <string>
#include <vector>

#include "comm/communicator.hpp"
#include "core/error.hpp"

#if LQCD_HAVE_NCCL
#include <cuda_runtime.h>
#include <nccl.h>
#endif

namespace lqcd::comm {

namespace {

std::string transport_setting() {
  const char* env = std::getenv("LQCD_FACE_TRANSPORT");
  return env ? std::string(env) : std::string("auto");
}

#if LQCD_HAVE_NCCL
struct NcclState {
  bool decided = false;
  bool available = false;
  ncclComm_t comm = nullptr;
};
NcclState& state() {
  static NcclState s;
  return s;
}
void check(ncclResult_t r, const char* what) {
  if (r != ncclSuccess) fail("NCCL {} failed: {}", what, ncclGetErrorString(r));
}
#endif

}  // namespace

bool built_with_nccl() { return LQCD_HAVE_NCCL != 0; }

bool device_messages_available() {
  const std::string setting = transport_setting();
  if (setting != "auto" && setting != "host" && setting != "nccl")
    fail("LQCD_FACE_TRANSPORT: expected auto, host or nccl (got \"{}\")", setting);
#if LQCD_HAVE_NCCL
  NcclState& s = state();
  if (s.decided) return s.available;
  s.decided = true;
  if (setting == "host" || size() < 2) return s.available = false;
  // Rank 0's unique id reaches every rank through an all-gather (the only collective at hand).
  ncclUniqueId id{};
  if (rank() == 0) check(ncclGetUniqueId(&id), "GetUniqueId");
  std::vector<ncclUniqueId> all(static_cast<std::size_t>(size()));
  all_gather(&id, all.data(), sizeof(id));
  const ncclResult_t r = ncclCommInitRank(&s.comm, size(), all[0], rank());
  // Agree: NCCL reports some failures (two ranks on one GPU) on every rank, but not necessarily all.
  const Dims everyone{size(), 1, 1, 1};
  const double failed = max(everyone, r == ncclSuccess ? 0.0 : 1.0);
  if (failed > 0) {
    if (r == ncclSuccess) ncclCommDestroy(s.comm);
    s.comm = nullptr;
    if (setting == "nccl")
      fail("LQCD_FACE_TRANSPORT=nccl: no NCCL communicator over the {} ranks ({}); NCCL needs one GPU per rank",
           size(), r == ncclSuccess ? "failed on another rank" : ncclGetErrorString(r));
    return s.available = false;
  }
  return s.available = true;
#else
  if (setting == "nccl") fail("LQCD_FACE_TRANSPORT=nccl: this build has no NCCL (configure with -DLQCD_NCCL=ON)");
  return false;
#endif
}

void exchange_on_device(std::span<const Transfer> transfers, void* stream) {
#if LQCD_HAVE_NCCL
  NcclState& s = state();
  if (!s.available) fail("internal: NCCL messages without a communicator");
  auto st = static_cast<cudaStream_t>(stream);
  check(ncclGroupStart(), "GroupStart");
  for (const Transfer& t : transfers) {
    check(ncclSend(t.send, t.bytes, ncclChar, t.to, s.comm, st), "Send");
    check(ncclRecv(t.receive, t.bytes, ncclChar, t.from, s.comm, st), "Recv");
  }
  check(ncclGroupEnd(), "GroupEnd");
#else
  (void)transfers;
  (void)stream;
  fail("internal: NCCL messages in a build without NCCL");
#endif
}

void sum_on_device(double* values, int count, void* stream) {
#if LQCD_HAVE_NCCL
  NcclState& s = state();
  if (!s.available) fail("internal: an NCCL all-reduce without a communicator");
  check(ncclAllReduce(values, values, std::size_t(count), ncclDouble, ncclSum, s.comm, static_cast<cudaStream_t>(stream)),
        "AllReduce");
#else
  (void)values;
  (void)count;
  (void)stream;
  fail("internal: an NCCL all-reduce in a build without NCCL");
#endif
}

void release_device_messages() {
#if LQCD_HAVE_NCCL
  NcclState& s = state();
  if (s.comm) ncclCommDestroy(s.comm);
  s.comm = nullptr;
  s.available = false;
  s.decided = false;
#endif
}

}  // namespace lqcd::comm
