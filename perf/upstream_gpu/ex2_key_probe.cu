// ex2_key_probe: how many fraction bits of its argument does the GPU's ex2.approx.ftz.f32 read?
// For B = 23 ... 30 and every float t in [0, 1) (then in [-1, 0), keyed on t - floor(t)), the
// results r(t) = ex2.approx.ftz(t) * 2^-floor(t) are grouped by key floor(frac * 2^B) and by key
// rint(frac * 2^B); a key whose t give different r refutes "r is a table of B bits".
//   nvcc -O3 -arch=sm_90 ex2_key_probe.cu -o ex2_key_probe && ./ex2_key_probe
#include <cstdint>
#include <cstdio>

__device__ __noinline__ float hw_ex2(float t) {
  float y;
  asm volatile("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(t));
  return y;
}

__global__ void group(int bits, bool nearest, bool negative, unsigned* lo, unsigned* hi) {
  std::uint64_t const n = std::uint64_t(1) << 31;
  for (std::uint64_t i = blockIdx.x * std::uint64_t(blockDim.x) + threadIdx.x; i < n;
       i += std::uint64_t(gridDim.x) * blockDim.x) {
    std::uint32_t const b = (negative ? 0x80000000u : 0u) | static_cast<std::uint32_t>(i);
    float const t = __uint_as_float(b);
    if (!(t >= -1.0f && t < 1.0f)) continue;
    float const fl = floorf(t);
    double const frac = double(t) - double(fl);
    float const r = fl < 0 ? hw_ex2(t) * 2.0f : hw_ex2(t);
    double const s = frac * double(std::uint64_t(1) << bits);
    auto key = static_cast<std::uint64_t>(nearest ? rint(s) : floor(s));
    if (key >= (std::uint64_t(1) << bits)) key = (std::uint64_t(1) << bits) - 1;
    atomicMin(lo + key, __float_as_uint(r));
    atomicMax(hi + key, __float_as_uint(r));
  }
}

int main() {
  for (int neg = 0; neg < 2; ++neg)
    for (int bits = 23; bits <= 30; ++bits)
      for (int nearest = 0; nearest < 2; ++nearest) {
        std::size_t const keys = std::size_t(1) << bits;
        unsigned *lo, *hi;
        cudaMalloc(&lo, keys * 4);
        cudaMalloc(&hi, keys * 4);
        cudaMemset(lo, 0xff, keys * 4);
        cudaMemset(hi, 0, keys * 4);
        group<<<8192, 256>>>(bits, nearest, neg, lo, hi);
        unsigned* h_lo = new unsigned[keys];
        unsigned* h_hi = new unsigned[keys];
        cudaMemcpy(h_lo, lo, keys * 4, cudaMemcpyDeviceToHost);
        cudaMemcpy(h_hi, hi, keys * 4, cudaMemcpyDeviceToHost);
        std::size_t used = 0, disagree = 0;
        for (std::size_t k = 0; k < keys; ++k) {
          if (h_lo[k] == 0xffffffffu) continue;
          ++used;
          disagree += h_lo[k] != h_hi[k];
        }
        std::printf("%s t, %d bits, %s: %zu keys used, %zu disagree\n", neg ? "negative" : "positive", bits,
                    nearest ? "nearest" : "floor", used, disagree);
        delete[] h_lo;
        delete[] h_hi;
        cudaFree(lo);
        cudaFree(hi);
      }
  return 0;
}
