/// \file cuda_ex2_table.cpp
/// Embeds core/data/cuda_ex2_sm90.tar.xz's table (extracted into the build tree at configure time,
/// path in KBOOST_CUDA_EX2_TABLE_FILE) into the library's read-only data: the table is part of the
/// arithmetic, so a program linking kboost needs no data file at run time.
#include <kboost/core/cuda_ex2_table.hpp>

#if !defined(__CUDA_ARCH__) && !defined(__HIP_DEVICE_COMPILE__)
asm(".section .rodata\n"
    ".balign 64\n"
    ".globl kboost_cuda_ex2_sm90\n"
    ".type kboost_cuda_ex2_sm90, @object\n"
    "kboost_cuda_ex2_sm90:\n"
    ".incbin \"" KBOOST_CUDA_EX2_TABLE_FILE "\"\n"
    ".size kboost_cuda_ex2_sm90, . - kboost_cuda_ex2_sm90\n"
    ".previous\n");
#endif

extern "C" unsigned char const kboost_cuda_ex2_sm90[];

namespace kboost::pmath::cuda {

std::uint8_t const* ex2_table_host() { return kboost_cuda_ex2_sm90; }

std::uint64_t ex2_table_fnv1a() {
  std::uint64_t h = 0xCBF29CE484222325ull;
  for (std::size_t i = 0; i < kEx2TableBytes; ++i) h = (h ^ kboost_cuda_ex2_sm90[i]) * 0x100000001B3ull;
  return h;
}

}  // namespace kboost::pmath::cuda
