/// \file mpi_collective.cpp
/// MPI implementation of kboost::Collective (core/mpi_collective.hpp).
#include <kboost/core/mpi_collective.hpp>

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

namespace kboost {
namespace {

void check(int rc, char const* what) {
  if (rc == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  MPI_Error_string(rc, text, &len);
  throw std::runtime_error(std::string("MPI: ") + what + " failed: " + std::string(text, static_cast<std::size_t>(len)));
}

/// Largest piece of one message: MPI counts are int.
constexpr std::size_t kPiece = std::size_t(1) << 30;

class MpiCollective final : public Collective {
 public:
  explicit MpiCollective(MPI_Comm comm) {
    int init = 0;
    MPI_Initialized(&init);
    if (!init) throw std::runtime_error("make_mpi_collective: MPI is not initialised");
    check(MPI_Comm_dup(comm, &comm_), "MPI_Comm_dup");
    check(MPI_Comm_rank(comm_, &rank_), "MPI_Comm_rank");
    check(MPI_Comm_size(comm_, &size_), "MPI_Comm_size");
    MPI_Comm node;
    check(MPI_Comm_split_type(comm_, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &node), "MPI_Comm_split_type");
    check(MPI_Comm_rank(node, &local_rank_), "MPI_Comm_rank (node)");
    MPI_Comm_free(&node);
  }
  ~MpiCollective() override {
    int fin = 0;
    MPI_Finalized(&fin);
    if (!fin) MPI_Comm_free(&comm_);
  }
  int rank() const override { return rank_; }
  int size() const override { return size_; }
  int local_rank() const override { return local_rank_; }

  void allreduce_sum(std::int64_t* data, std::size_t n) override {
    for (std::size_t o = 0; o < n; o += kPiece / 8) {
      int const c = static_cast<int>(std::min(kPiece / 8, n - o));
      check(MPI_Allreduce(MPI_IN_PLACE, data + o, c, MPI_INT64_T, MPI_SUM, comm_), "MPI_Allreduce (sum)");
    }
  }
  void allreduce_max(std::uint64_t* data, std::size_t n) override {
    for (std::size_t o = 0; o < n; o += kPiece / 8) {
      int const c = static_cast<int>(std::min(kPiece / 8, n - o));
      check(MPI_Allreduce(MPI_IN_PLACE, data + o, c, MPI_UINT64_T, MPI_MAX, comm_), "MPI_Allreduce (max)");
    }
  }
  void broadcast(std::vector<char>& bytes, int root) override {
    std::uint64_t n = bytes.size();
    check(MPI_Bcast(&n, 1, MPI_UINT64_T, root, comm_), "MPI_Bcast (size)");
    bytes.resize(n);
    for (std::size_t o = 0; o < n; o += kPiece)
      check(MPI_Bcast(bytes.data() + o, static_cast<int>(std::min<std::size_t>(kPiece, n - o)), MPI_BYTE, root, comm_),
            "MPI_Bcast");
  }
  std::vector<std::vector<char>> gather(std::vector<char> const& mine, int root) override {
    std::vector<std::vector<char>> send(static_cast<std::size_t>(size_));
    send[static_cast<std::size_t>(root)] = mine;
    auto got = alltoall(send);
    if (rank_ != root) got.clear();
    return got;
  }
  std::vector<std::vector<char>> alltoall(std::vector<std::vector<char>> const& send) override {
    if (send.size() != static_cast<std::size_t>(size_))
      throw std::runtime_error("alltoall: " + std::to_string(send.size()) + " payloads for " + std::to_string(size_) + " ranks");
    std::vector<std::uint64_t> out_n(send.size()), in_n(send.size());
    for (std::size_t r = 0; r < send.size(); ++r) out_n[r] = send[r].size();
    check(MPI_Alltoall(out_n.data(), 1, MPI_UINT64_T, in_n.data(), 1, MPI_UINT64_T, comm_), "MPI_Alltoall (sizes)");
    std::vector<std::vector<char>> recv(send.size());
    std::vector<MPI_Request> req;
    for (std::size_t r = 0; r < send.size(); ++r) {
      recv[r].resize(in_n[r]);
      for (std::size_t o = 0; o < in_n[r]; o += kPiece) {
        req.emplace_back();
        check(MPI_Irecv(recv[r].data() + o, static_cast<int>(std::min<std::size_t>(kPiece, in_n[r] - o)), MPI_BYTE,
                        static_cast<int>(r), kTag, comm_, &req.back()),
              "MPI_Irecv");
      }
    }
    for (std::size_t r = 0; r < send.size(); ++r) {
      for (std::size_t o = 0; o < out_n[r]; o += kPiece) {
        req.emplace_back();
        check(MPI_Isend(send[r].data() + o, static_cast<int>(std::min<std::size_t>(kPiece, out_n[r] - o)), MPI_BYTE,
                        static_cast<int>(r), kTag, comm_, &req.back()),
              "MPI_Isend");
      }
    }
    check(MPI_Waitall(static_cast<int>(req.size()), req.data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
    return recv;
  }
  void abort(std::string const& message, int code) override {
    std::cerr << message << std::flush;
    MPI_Abort(comm_, code);
  }

 private:
  static constexpr int kTag = 7461;  // pieces between two ranks arrive in posting order (MPI's ordering rule)
  MPI_Comm comm_ = MPI_COMM_NULL;
  int rank_ = 0, size_ = 1, local_rank_ = 0;
};

bool started_by_mpi_launcher() {
  for (char const* v : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE"})
    if (std::getenv(v) != nullptr) return true;
  return false;
}

}  // namespace

std::unique_ptr<Collective> make_mpi_collective(MPI_Comm comm) { return std::make_unique<MpiCollective>(comm); }

MpiSession::MpiSession(int* argc, char*** argv) {
  if (!started_by_mpi_launcher()) return;
  int provided = 0;
  check(MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided), "MPI_Init_thread");
  initialised_ = true;
  comm_ = make_mpi_collective(MPI_COMM_WORLD);
}

MpiSession::~MpiSession() {
  comm_.reset();
  if (initialised_) MPI_Finalize();
}

}  // namespace kboost
