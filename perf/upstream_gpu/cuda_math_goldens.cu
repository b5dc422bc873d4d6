// cuda_math_goldens: upstream XGBoost's Sigmoid (src/common/math.h) and CUDA's expf / logf as nvcc
// compiles them (CUDA 13, default flags, sm_90), on a fixed set of inputs, for
// tests/golden/cuda_math/functions.txt (core/cuda_math.hpp's goldens). Each line: function,
// input bits, output bits (hex). Inputs: edge cases, then 4096 per function from splitmix64.
//   nvcc -O3 -arch=sm_90 --expt-relaxed-constexpr cuda_math_goldens.cu -o cuda_math_goldens
//   ./cuda_math_goldens > tests/golden/cuda_math/functions.txt
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

__device__ __noinline__ float upstream_sigmoid(float x) {  // common::Sigmoid(float), v3.4.1
  float constexpr kEps = 1e-16;
  x = std::min(-x, 88.7f);
  auto denom = expf(x) + 1.0f + kEps;
  auto y = 1.0f / denom;
  return y;
}

__global__ void run(int fn, float const* in, float* out, int n) {
  int const i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  out[i] = fn == 0 ? upstream_sigmoid(in[i]) : fn == 1 ? expf(in[i]) : logf(in[i]);
}

std::uint64_t splitmix64(std::uint64_t x) {
  std::uint64_t z = x + 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

float from_bits(std::uint32_t b) {
  float f;
  std::memcpy(&f, &b, 4);
  return f;
}

int main() {
  char const* names[3] = {"sigmoid", "expf", "logf"};
  float const edges[] = {0.0f, -0.0f, 1.0f, -1.0f, 88.7f, -88.7f, 88.72f, -87.3f, -87.4f, -100.0f, 100.0f,
                         1e-30f, -1e-30f, from_bits(0x00000001u), from_bits(0x007fffffu), from_bits(0x00800000u),
                         from_bits(0x7f800000u), from_bits(0xff800000u), 0.5f, 2.0f, 1e-7f, 3.4e38f};
  for (int fn = 0; fn < 3; ++fn) {
    std::vector<float> in(std::begin(edges), std::end(edges));
    for (std::uint64_t i = 0; i < 4096; ++i) {
      std::uint64_t const u = splitmix64(i * 3 + fn);
      float const unit = static_cast<float>(u >> 40) * 0x1p-24f;  // [0, 1)
      if (fn == 0) in.push_back(unit * 60.0f - 30.0f);
      else if (fn == 1) in.push_back(unit * 175.0f - 87.0f);
      else in.push_back(from_bits(static_cast<std::uint32_t>(u >> 33) % 0x7f800000u));  // positive, finite
    }
    int const n = static_cast<int>(in.size());
    float *d_in, *d_out;
    cudaMalloc(&d_in, n * 4);
    cudaMalloc(&d_out, n * 4);
    cudaMemcpy(d_in, in.data(), n * 4, cudaMemcpyHostToDevice);
    run<<<(n + 255) / 256, 256>>>(fn, d_in, d_out, n);
    std::vector<float> out(n);
    cudaMemcpy(out.data(), d_out, n * 4, cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; ++i) {
      std::uint32_t a, b;
      std::memcpy(&a, &in[i], 4);
      std::memcpy(&b, &out[i], 4);
      std::printf("%s %08x %08x\n", names[fn], a, b);
    }
    cudaFree(d_in);
    cudaFree(d_out);
  }
  return 0;
}
