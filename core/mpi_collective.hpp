#pragma once
/// \file mpi_collective.hpp
/// kboost::Collective over MPI (built when CMake finds MPI: KBOOST_HAVE_MPI), and the CLI's MPI
/// session. Integer reductions only (MPI_INT64_T sums, MPI_UINT64_T maxima), so results do not
/// depend on the MPI implementation's reduction order; payloads larger than MPI's int counts are
/// sent in pieces.
// MPI's C API only: Open MPI's and MPICH's mpi.h pull in their deprecated C++ bindings (and their
// library) in C++ translation units otherwise.
#ifndef OMPI_SKIP_MPICXX
#define OMPI_SKIP_MPICXX 1
#endif
#ifndef MPICH_SKIP_MPICXX
#define MPICH_SKIP_MPICXX 1
#endif
#include <mpi.h>

#include <memory>

#include <kboost/core/collective.hpp>

namespace kboost {

/// A Collective on `comm` (duplicated, so kboost's messages never meet the caller's; freed with
/// the object). The node-local rank comes from MPI_Comm_split_type(MPI_COMM_TYPE_SHARED).
/// Requires MPI to be initialised (the caller's MPI_Init, or MpiSession).
/// \throws std::runtime_error when MPI is not initialised or an MPI call fails.
std::unique_ptr<Collective> make_mpi_collective(MPI_Comm comm);

/// The CLI's MPI lifetime: when the process was started by an MPI launcher (mpirun/mpiexec or
/// srun: OMPI_COMM_WORLD_SIZE, PMIX_RANK, PMI_RANK or PMI_SIZE set), MPI_Init_thread on
/// construction (MPI_THREAD_FUNNELED: only the main thread calls MPI) and MPI_Finalize on
/// destruction; otherwise nothing, and collective() is the one-process LocalCollective.
class MpiSession {
 public:
  MpiSession(int* argc, char*** argv);
  ~MpiSession();
  MpiSession(MpiSession const&) = delete;
  MpiSession& operator=(MpiSession const&) = delete;
  Collective& collective() { return comm_ ? *comm_ : local_collective(); }

 private:
  bool initialised_ = false;
  std::unique_ptr<Collective> comm_;
};

}  // namespace kboost
