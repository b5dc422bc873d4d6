#pragma once
/// \file compat.hpp
/// The few Kokkos API differences between 3.4.01 and 4.x that kboost touches, in one place.
/// Everything else in kboost uses Kokkos API that is identical in both.
#include <Kokkos_Core.hpp>
#if defined(KOKKOS_ENABLE_OPENMP)
#include <omp.h>
#endif

#include <cstdlib>
#include <stdexcept>
#include <string>
#include <type_traits>

/// Unrolls the loop that follows: device compilers' `#pragma unroll`, GCC's `#pragma GCC unroll`
/// on the host (a plain `#pragma unroll` is an unknown pragma to GCC, a warning under -Wall);
/// nothing in the host pass of nvcc or hipcc, whose front ends reject GCC's spelling.
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
#define KBOOST_UNROLL _Pragma("unroll")
#elif defined(__CUDACC__) || defined(__HIPCC__)
#define KBOOST_UNROLL
#elif defined(__clang__)
#define KBOOST_UNROLL _Pragma("unroll")
#elif defined(__GNUC__)
#define KBOOST_UNROLL _Pragma("GCC unroll 32")
#else
#define KBOOST_UNROLL
#endif

/// KBOOST_HOST_PASS: defined when the code is compiled for the host (every pass of a host compiler,
/// the host pass of nvcc or hipcc), so that code only host backends run (large stack arrays, host
/// intrinsics) stays out of device kernels.
#if !defined(__CUDA_ARCH__) && !defined(__HIP_DEVICE_COMPILE__)
#define KBOOST_HOST_PASS 1
#endif

/// KBOOST_HOST_FMA: defined where host loops can be built a second time for x86-64 cores with
/// FMA (`__attribute__((target("fma")))`), so pmath's std::fma calls become single instructions
/// instead of calls into libm: the same correctly rounded results, so the same bits. Not in the
/// host pass of nvcc or hipcc, whose device functions cannot carry a target attribute.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__CUDACC__) && !defined(__HIPCC__)
#define KBOOST_HOST_FMA 1
#endif

namespace kboost::compat {

/// Whether the running host core has FMA, so the KBOOST_HOST_FMA builds of host loops may run.
/// False where KBOOST_HOST_FMA is not defined.
inline bool host_has_fma() {
#ifdef KBOOST_HOST_FMA
  return __builtin_cpu_supports("fma");
#else
  return false;
#endif
}

/// Whether the running host core has FMA and AVX2 (the host split search's KBOOST_HOST_FMA build
/// also takes 64-bit integer lanes). False where KBOOST_HOST_FMA is not defined.
inline bool host_has_avx2_fma() {
#ifdef KBOOST_HOST_FMA
  return __builtin_cpu_supports("fma") && __builtin_cpu_supports("avx2");
#else
  return false;
#endif
}

/// Most host threads kboost lets Kokkos start: Kokkos 3.4's OpenMP backend holds per-thread state
/// in fixed arrays of OpenMPExec::MAX_THREAD_COUNT = 512 entries (Kokkos_OpenMP_Exec.hpp) and
/// crashes beyond them; 4.x has no such array.
inline int max_host_threads() {
#if KOKKOS_VERSION < 40000 && defined(KOKKOS_ENABLE_OPENMP)
  return 512;
#else
  return 1 << 20;
#endif
}

/// Initialise Kokkos with an explicit OpenMP/Threads thread count (`num_threads` <= 0: the
/// backend's default, i.e. OMP_NUM_THREADS); `local_rank` >= 0 (a rank of a job on several
/// processes): the GPU is local_rank modulo the node's GPUs. 3.4 takes InitArguments, 4.x InitializationSettings.
/// \throws std::runtime_error when the count asked for (or OMP_NUM_THREADS' first value) is above
/// max_host_threads(), before Kokkos starts.
inline void initialize(int num_threads, int local_rank = -1) {
  char const* env = std::getenv("OMP_NUM_THREADS");
  long const asked = num_threads > 0 ? num_threads : (env ? std::strtol(env, nullptr, 10) : 0);
  if (asked > max_host_threads())
    throw std::runtime_error((num_threads > 0 ? "--threads " : "OMP_NUM_THREADS=") + std::to_string(asked) +
                             ": at most " + std::to_string(max_host_threads()) + " host threads with this Kokkos");
#if KOKKOS_VERSION >= 40000
  Kokkos::InitializationSettings s;
  if (num_threads > 0) s.set_num_threads(num_threads);
  // local_rank >= 0: Kokkos 4 maps a rank to a device by its node-local rank itself (map_device_id_by
  // = mpi_rank, from the launcher's environment), which is the same mapping.
  (void)local_rank;
  s.set_disable_warnings(true);
  Kokkos::initialize(s);
#else
  Kokkos::InitArguments args;
  args.num_threads = num_threads > 0 ? num_threads : -1;
  args.disable_warnings = true;
#if defined(KOKKOS_ENABLE_CUDA)
  if (local_rank >= 0) {
    int const devices = Kokkos::Cuda::detect_device_count();
    if (devices > 0) args.device_id = local_rank % devices;
  }
#else
  (void)local_rank;
#endif
  Kokkos::initialize(args);
#endif
}

/// Whether Kokkos is initialised (and not yet finalised) in this process.
inline bool is_initialized() {
  return Kokkos::is_initialized();
}

/// Whether Kokkos has been finalised in this process (4.x cannot start it again then; 3.4 has no
/// such query and may start again: false).
inline bool is_finalized() {
#if KOKKOS_VERSION >= 40000
  return Kokkos::is_finalized();
#else
  return false;
#endif
}

/// Whether the calling thread may launch a kernel on `space`. The OpenMP backend: not from inside
/// the caller's own OpenMP parallel region (Kokkos 4.x runs such a launch serially with the thread
/// data of the caller's OpenMP thread number, which a pool smaller than the caller's team does not
/// have; Kokkos 5 deprecates such launches); Kokkos 3.4 also accepts launches only from the thread
/// that initialised it (OpenMP::in_parallel, deprecated in 4.x). Other spaces: always.
template <class ExecutionSpace>
bool can_launch_here(ExecutionSpace const& space) {
  (void)space;
#if defined(KOKKOS_ENABLE_OPENMP)
  if constexpr (std::is_same<ExecutionSpace, Kokkos::OpenMP>::value) {
#if KOKKOS_VERSION < 40000
    return !Kokkos::OpenMP::in_parallel();
#else
    return omp_in_parallel() == 0;
#endif
  }
#endif
  return true;
}

/// Concurrency of an execution-space instance (member function in 4.x, static in 3.4).
template <class ExecutionSpace>
int concurrency(ExecutionSpace const& space) {
#if KOKKOS_VERSION >= 40000
  return space.concurrency();
#else
  (void)space;
  return ExecutionSpace::concurrency();
#endif
}

/// What tells an execution-space instance's queue apart from another's: its stream on CUDA and HIP
/// (kernels on one stream run in order), null on host spaces (whose launches kboost serialises).
template <class ExecutionSpace>
void const* instance_key(ExecutionSpace const& space) {
  (void)space;
#if defined(KOKKOS_ENABLE_CUDA)
  if constexpr (std::is_same<ExecutionSpace, Kokkos::Cuda>::value) return space.cuda_stream();
#endif
#if defined(KOKKOS_ENABLE_HIP) && KOKKOS_VERSION >= 40000
  if constexpr (std::is_same<ExecutionSpace, Kokkos::HIP>::value) return space.hip_stream();
#elif defined(KOKKOS_ENABLE_HIP)
  if constexpr (std::is_same<ExecutionSpace, Kokkos::Experimental::HIP>::value) return space.hip_stream();
#endif
  return nullptr;
}

/// Name of an execution space ("Serial", "OpenMP", "Cuda", "HIP").
template <class ExecutionSpace>
std::string space_name() {
  return ExecutionSpace::name();
}


/// RAII profiling region (Kokkos 4.x has Kokkos::Profiling::ScopedRegion; 3.4 only push/popRegion).
/// Use hierarchical labels, e.g. "kboost::predict::forest".
class ScopedRegion {
 public:
  explicit ScopedRegion(std::string const& name) { Kokkos::Profiling::pushRegion(name); }
  ~ScopedRegion() { Kokkos::Profiling::popRegion(); }
  ScopedRegion(ScopedRegion const&) = delete;
  ScopedRegion& operator=(ScopedRegion const&) = delete;
};

/// Math functions usable in device code: Kokkos::Experimental:: in 3.4, Kokkos:: from 3.7 on (the
/// Experimental names are gone in 4.x). Write `compat::math::sqrt(x)`, never the Experimental name.
namespace math {
#if KOKKOS_VERSION >= 30700
using Kokkos::ceil;
using Kokkos::fabs;
using Kokkos::floor;
using Kokkos::fmax;
using Kokkos::fmin;
using Kokkos::isfinite;
using Kokkos::isinf;
using Kokkos::isnan;
using Kokkos::pow;
using Kokkos::sqrt;
#else
using Kokkos::Experimental::ceil;
using Kokkos::Experimental::fabs;
using Kokkos::Experimental::floor;
using Kokkos::Experimental::fmax;
using Kokkos::Experimental::fmin;
using Kokkos::Experimental::isfinite;
using Kokkos::Experimental::isinf;
using Kokkos::Experimental::isnan;
using Kokkos::Experimental::pow;
using Kokkos::Experimental::sqrt;
#endif
}  // namespace math

/// Hint that `p` will be read soon (host compilers only; a no-op in device code). Host histogram and
/// partition loops walk a node's rows in increasing but irregular order, which the hardware
/// prefetchers do not follow.
KOKKOS_INLINE_FUNCTION void prefetch(void const* p) {
#if defined(__GNUC__) && !defined(__CUDA_ARCH__) && !defined(__HIP_DEVICE_COMPILE__)
  __builtin_prefetch(p);
#else
  (void)p;
#endif
}

#ifdef KOKKOS_ENABLE_HIP
/// HIP spaces: Kokkos::Experimental:: in 3.4, Kokkos:: from 4.0 on (the old names are deprecated).
#if KOKKOS_VERSION >= 40000
using HIP = Kokkos::HIP;
using HIPSpace = Kokkos::HIPSpace;
#else
using HIP = Kokkos::Experimental::HIP;
using HIPSpace = Kokkos::Experimental::HIPSpace;
#endif
#endif

}  // namespace kboost::compat
