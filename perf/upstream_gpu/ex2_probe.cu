// ex2_probe: is the GPU's ex2.approx.ftz.f32 (the special-function step of CUDA's expf, whose
// PTX scales the reduced argument t in [-0.5, 0.5] by it) a function of t's fixed-point fraction
// alone? For every float t in [-1, 1), r(t) = ex2.approx(t) / 2^floor(t) is recorded per key
// floor(frac(t) · 2^B); a key whose t give different r refutes a table of 2^B entries. Prints, for
// B = 20 … 26, how many keys disagree, and how many t have ex2.approx(t) != 2^t correctly
// rounded (to size a table of exceptions).
//   nvcc -O3 -arch=sm_90 ex2_probe.cu -o ex2_probe && ./ex2_probe
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

__device__ float ex2_approx(float t) {
  float y;
  asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(t));
  return y;
}

__global__ void probe(int bits, unsigned* lo, unsigned* hi, unsigned long long* off) {
  std::uint64_t const n = std::uint64_t(1) << 31;  // float bit patterns below 1.0 of each sign
  for (std::uint64_t i = blockIdx.x * std::uint64_t(blockDim.x) + threadIdx.x; i < 2 * n;
       i += std::uint64_t(gridDim.x) * blockDim.x) {
    std::uint32_t const b = i < n ? std::uint32_t(i) : 0x80000000u | std::uint32_t(i - n);
    float const t = __uint_as_float(b);
    if (!(t >= -1.0f && t < 1.0f)) continue;
    float const fl = floorf(t);
    double const frac = double(t) - double(fl);  // exact
    float const y = ex2_approx(t);
    float const r = fl < 0 ? y * 2.0f : y;  // exact scaling by 2^-floor(t)
    auto const key = static_cast<std::uint64_t>(frac * double(std::uint64_t(1) << bits));
    atomicMin(lo + key, __float_as_uint(r));
    atomicMax(hi + key, __float_as_uint(r));
    if (bits == 20 && y != static_cast<float>(exp2(static_cast<double>(t)))) atomicAdd(off, 1ull);
  }
}

int main() {
  for (int bits = 20; bits <= 26; ++bits) {
    std::size_t const keys = std::size_t(1) << bits;
    unsigned *lo, *hi;
    unsigned long long* off;
    cudaMalloc(&lo, keys * 4);
    cudaMalloc(&hi, keys * 4);
    cudaMalloc(&off, 8);
    cudaMemset(lo, 0xff, keys * 4);
    cudaMemset(hi, 0, keys * 4);
    cudaMemset(off, 0, 8);
    probe<<<4096, 256>>>(bits, lo, hi, off);
    std::vector<unsigned> h_lo(keys), h_hi(keys);
    cudaMemcpy(h_lo.data(), lo, keys * 4, cudaMemcpyDeviceToHost);
    cudaMemcpy(h_hi.data(), hi, keys * 4, cudaMemcpyDeviceToHost);
    unsigned long long h_off = 0;
    cudaMemcpy(&h_off, off, 8, cudaMemcpyDeviceToHost);
    std::size_t disagree = 0, used = 0;
    for (std::size_t k = 0; k < keys; ++k) {
      if (h_lo[k] == 0xffffffffu) continue;
      ++used;
      disagree += h_lo[k] != h_hi[k];
    }
    std::printf("bits %d: %zu keys used, %zu disagree", bits, used, disagree);
    if (bits == 20) std::printf("; ex2.approx != 2^t rounded on %llu of the floats in [-1, 1)", h_off);
    std::printf("\n");
    cudaFree(lo);
    cudaFree(hi);
    cudaFree(off);
  }
  return 0;
}
