#pragma once
/// \file run_params.hpp
/// The run-control parameters a fit cannot choose for itself: where it runs and on how many host
/// threads are fixed before it starts, so values naming anything else are refused, never ignored.
#include <Kokkos_Core.hpp>

#include <stdexcept>
#include <string>
#include <type_traits>

#include <kboost/engine/params.hpp>

namespace kboost::detail {

/// Refuses `device` when it names another kind of device than the one ExecutionSpace runs on
/// (cpu: a host space; cuda/gpu: a device space; an ordinal: the GPU `space` uses, CUDA builds),
/// and `nthread` > 0 when it differs from the host threads Kokkos was initialised with (upstream
/// sizes its thread pool from nthread; Kokkos fixes it at Kokkos::initialize).
/// \throws std::runtime_error naming the parameter, the value and what this run has.
template <class ExecutionSpace>
void check_device_and_threads(TrainParams const& p, ExecutionSpace const& space) {
  bool const on_host =
      Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename ExecutionSpace::memory_space>::accessible;
  auto const colon = p.device.find(':');
  std::string const type = p.device.substr(0, colon);
  if (!p.device.empty() && (type == "cpu") != on_host)
    throw std::runtime_error("parameter device = " + p.device + ": this fit runs on Kokkos' " +
                             ExecutionSpace::name() + " execution space (" +
                             (on_host ? "the CPU: device = cpu" : "a GPU: device = cuda or gpu") +
                             "); the program chooses it (the kboost CLI: the Kokkos backend it was built with)");
#if defined(KOKKOS_ENABLE_CUDA)
  if constexpr (std::is_same_v<ExecutionSpace, Kokkos::Cuda>) {
    if (colon != std::string::npos && std::stoi(p.device.substr(colon + 1)) != space.cuda_device())
      throw std::runtime_error("parameter device = " + p.device + ": this fit runs on GPU " +
                               std::to_string(space.cuda_device()) +
                               " (chosen when Kokkos was initialised: CUDA_VISIBLE_DEVICES, or the MPI local rank)");
  }
#endif
  (void)space;
  if (p.nthread > 0) {
    int const host_threads = Kokkos::DefaultHostExecutionSpace().concurrency();
    if (p.nthread != host_threads)
      throw std::runtime_error("parameter nthread = " + std::to_string(p.nthread) + ": Kokkos runs " +
                               std::to_string(host_threads) +
                               " host threads, fixed when it was initialised (the CLI: kboost train --nthread N, "
                               "or OMP_NUM_THREADS; a library: Kokkos::initialize's num_threads)");
  }
}

}  // namespace kboost::detail
