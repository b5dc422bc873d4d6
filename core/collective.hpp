#pragma once
/// \file collective.hpp
/// kboost::Collective: what a training job spread over several processes (MPI ranks) asks of its
/// communicator, and the one-process implementation. The booster reduces only integers (quantised
/// histogram and gradient sums, row counts) and moves bytes (sketch columns, labels, failures), so
/// every result is exact and does not depend on the number of ranks or the order of arrival: the
/// same model bytes on 1 or N ranks. Plays the role of upstream's collective::Comm
/// (src/collective/comm.h: Allreduce, Allgather, Broadcast) without float reductions.
/// The MPI implementation: core/mpi_collective.hpp (built when MPI is found).
// Kokkos first: under HIP, <cstring>'s std::memcpy sees the device overload of ::memcpy only when
// the HIP runtime headers came before it, and kboost's device code calls std::memcpy.
#include <Kokkos_Core.hpp>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <exception>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace kboost {

/// One process's view of a job of size() processes. Every call is collective: all ranks make the
/// same calls in the same order (the booster guarantees this; a rank that fails throws out of its
/// calls and the job is stopped by run_on_all_ranks or by the caller's MPI_Abort, never left waiting).
class Collective {
 public:
  virtual ~Collective() = default;
  /// This process's rank in [0, size()).
  virtual int rank() const = 0;
  /// Number of processes in the job (1: no communication at all).
  virtual int size() const = 0;
  /// Rank among the processes of this node (for the GPU a rank uses); rank() by default.
  virtual int local_rank() const { return rank(); }
  /// data[i] = Σ over ranks of data[i] (n values; integer, so exact in any order).
  virtual void allreduce_sum(std::int64_t* data, std::size_t n) = 0;
  /// data[i] = max over ranks of data[i] (n values).
  virtual void allreduce_max(std::uint64_t* data, std::size_t n) = 0;
  /// root's `bytes` on every rank (resized on the others).
  virtual void broadcast(std::vector<char>& bytes, int root) = 0;
  /// Every rank's `mine`, indexed by rank, on rank `root` (empty on the others).
  virtual std::vector<std::vector<char>> gather(std::vector<char> const& mine, int root) = 0;
  /// send[r] goes to rank r (send.size() == size()); returns what each rank sent here, by rank.
  virtual std::vector<std::vector<char>> alltoall(std::vector<std::vector<char>> const& send) = 0;
  /// Stops every process of the job at once with `code` after `message` went to stderr (MPI_Abort);
  /// the one-process version throws nothing and returns, leaving the error to the caller.
  virtual void abort(std::string const& message, int code) = 0;

  /// The exclusive prefix sum of `v` over ranks (0 on rank 0): a shard's first global row.
  std::int64_t exclusive_prefix_sum(std::int64_t v) {
    std::vector<std::int64_t> all(static_cast<std::size_t>(size()), 0);
    all[static_cast<std::size_t>(rank())] = v;
    allreduce_sum(all.data(), all.size());
    std::int64_t s = 0;
    for (int r = 0; r < rank(); ++r) s += all[static_cast<std::size_t>(r)];
    return s;
  }
  /// Σ over ranks of v.
  std::int64_t sum(std::int64_t v) {
    allreduce_sum(&v, 1);
    return v;
  }
};

/// The job of one process: every reduction is the identity.
class LocalCollective final : public Collective {
 public:
  int rank() const override { return 0; }
  int size() const override { return 1; }
  void allreduce_sum(std::int64_t*, std::size_t) override {}
  void allreduce_max(std::uint64_t*, std::size_t) override {}
  void broadcast(std::vector<char>&, int) override {}
  std::vector<std::vector<char>> gather(std::vector<char> const& mine, int) override { return {mine}; }
  std::vector<std::vector<char>> alltoall(std::vector<std::vector<char>> const& send) override { return send; }
  void abort(std::string const&, int) override {}
};

/// An error every rank of the job raised together (run_on_all_ranks): reported once, no abort needed.
class AgreedError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// A process-wide LocalCollective (the default of every API that takes a Collective).
inline Collective& local_collective() {
  static LocalCollective c;
  return c;
}

/// Runs `step` on every rank and agrees on the outcome: when it throws on one or more ranks, every
/// rank throws AgreedError("rank R of N: <what>") for the lowest failing rank R, so a bad
/// shard or an unreadable file on one rank stops all of them with the cause instead of leaving the
/// others waiting in the next collective call. One rank: `step`'s own exception passes unchanged.
inline void run_on_all_ranks(Collective& comm, std::function<void()> const& step) {
  if (comm.size() == 1) {
    step();
    return;
  }
  std::string what;
  bool failed = false;
  try {
    step();
  } catch (std::exception const& e) {
    failed = true;
    what = e.what();
  } catch (...) {
    failed = true;
    what = "unknown exception";
  }
  // The lowest failing rank: max over ranks of (size - rank) for the failed ones.
  std::uint64_t key = failed ? static_cast<std::uint64_t>(comm.size() - comm.rank()) : 0;
  comm.allreduce_max(&key, 1);
  if (key == 0) return;
  int const first = comm.size() - static_cast<int>(key);
  std::vector<char> msg(what.begin(), what.end());
  comm.broadcast(msg, first);
  throw AgreedError("rank " + std::to_string(first) + " of " + std::to_string(comm.size()) + ": " +
                    std::string(msg.begin(), msg.end()));
}

/// Bytes of a trivially copyable vector, and back (for gather/alltoall payloads).
template <class T>
std::vector<char> to_bytes(std::vector<T> const& v) {
  std::vector<char> b(v.size() * sizeof(T));
  if (!v.empty()) std::memcpy(b.data(), v.data(), b.size());
  return b;
}
template <class T>
std::vector<T> from_bytes(std::vector<char> const& b) {
  std::vector<T> v(b.size() / sizeof(T));
  if (!v.empty()) std::memcpy(v.data(), b.data(), v.size() * sizeof(T));
  return v;
}

}  // namespace kboost
