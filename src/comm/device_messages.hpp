#pragma once
// Messages between the GPUs of different ranks without host staging: NCCL's point-to-point send and
// receive (peer copies over NVLink or PCIe within a node, the network between nodes), queued on a CUDA
// stream so that the host never waits for them. The communicator spans all ranks of the run and is
// made on first use, collectively (every rank asks at the same point of the program, as halo
// exchanges do); if it cannot be made (no NCCL in this build, one process, two ranks on one GPU,
// which NCCL refuses), every rank gets false and the caller stages through host memory and MPI.
// LQCD_FACE_TRANSPORT=host in the environment turns NCCL off; =nccl makes its absence an error.

#include <cstddef>
#include <span>

namespace lqcd::comm {

// One exchange step of a rank: `bytes` from `send` to rank `to`, and as many from rank `from` into
// `receive`. The tag tells messages between the same two ranks apart for MPI (NCCL pairs them by order).
struct Transfer {
  const void* send;
  int to;
  void* receive;
  int from;
  std::size_t bytes;
  int tag;
};

bool built_with_nccl();
// Collective on first call; the answer is the same on every rank.
bool device_messages_available();
// Queues every transfer (a send and a receive each) on `stream` (a cudaStream_t) as one NCCL group.
// Every rank must list its transfers in the same order of directions and sides, so that the sends
// and receives between two ranks pair up in order.
void exchange_on_device(std::span<const Transfer> transfers, void* stream);
// Sums `count` doubles over every rank, in place in device memory, queued on `stream` (a
// cudaStream_t; nullptr: the default stream) as an NCCL all-reduce: every rank gets the same sums,
// and the host does not wait. Needs device_messages_available().
void sum_on_device(double* values, int count, void* stream);
// Frees the communicator (before MPI is finalised; comm::Session does it).
void release_device_messages();

}  // namespace lqcd::comm
