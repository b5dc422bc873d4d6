// ex2_table_probe: captures the GPU's ex2.approx.ftz.f32 (the special-function step of CUDA's
// expf) on the fixed-point arguments k / 2^23 and -k / 2^23, k in [0, 2^23) (ex2_key_probe.cu:
// for t in [0, 1) the result depends on floor(t * 2^23) alone), and checks the model
//   t in [0, 1): T+[floor(t 2^23)],  t in [1, 2): 2 T+[floor((t - 1) 2^23)],
//   t in (-1, 0): T-[floor(-t 2^23)]
// on every float t in (-1, 2); then a model of upstream's Sigmoid, of CUDA's expf and of Poisson's
// expf(p) - y built on it against nvcc's own compile of them, over every float. Writes
// ex2_pos.bin and ex2_neg.bin: int8 per k, T(k)'s bits minus those of 2^(+-k/2^23) correctly
// rounded.
//   nvcc -O3 -arch=sm_90 --expt-relaxed-constexpr ex2_table_probe.cu -o ex2_table_probe
//   ./ex2_table_probe <out dir>
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

constexpr std::uint32_t kKeys = 1u << 23;

__device__ __noinline__ float hw_ex2(float t) {
  float y;
  asm volatile("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(t));
  return y;
}

// 2^t correctly rounded to float (double polynomial; core/cuda_math.hpp exp2_rounded)
__device__ float cr_exp2(float f) {
  double const fd = f;
  double const n = rint(fd);
  double const r = fd - n;
  double const c[14] = {0x1p+0, 0x1.62e42fefa39efp-1, 0x1.ebfbdff82c58fp-3, 0x1.c6b08d704a0c0p-5,
                        0x1.3b2ab6fba4e77p-7, 0x1.5d87fe78a6731p-10, 0x1.430912f86c787p-13,
                        0x1.ffcbfc588b0c7p-17, 0x1.62c0223a5c824p-20, 0x1.b5253d395e7c4p-24,
                        0x1.e4cf5158b8ecap-28, 0x1.e8cac7351bb25p-32, 0x1.c3bd650fc2986p-36,
                        0x1.816193166d0f9p-40};
  double p = c[13];
  for (int k = 12; k >= 0; --k) p = __fma_rn(p, r, c[k]);
  return __double2float_rn(p * exp2(n));
}

__global__ void capture(std::uint32_t* table, signed char* delta, float sign) {
  for (std::uint32_t k = blockIdx.x * blockDim.x + threadIdx.x; k < kKeys; k += gridDim.x * blockDim.x) {
    float const t = sign * static_cast<float>(k) * 0x1p-23f;
    float const y = hw_ex2(t);
    table[k] = __float_as_uint(y);
    delta[k] = static_cast<signed char>(static_cast<int>(__float_as_uint(y)) - static_cast<int>(__float_as_uint(cr_exp2(t))));
  }
}

__device__ float table_ex2(std::uint32_t const* pos, std::uint32_t const* neg, float t) {
  if (t >= 0.0f && t < 1.0f) return __uint_as_float(pos[static_cast<std::uint32_t>(t * 0x1p23f)]);
  if (t >= 1.0f && t < 2.0f) return 2.0f * __uint_as_float(pos[static_cast<std::uint32_t>((t - 1.0f) * 0x1p23f)]);
  if (t < 0.0f && t > -1.0f) return __uint_as_float(neg[static_cast<std::uint32_t>(-t * 0x1p23f)]);
  return hw_ex2(t);
}

__global__ void check_split(std::uint32_t const* pos, std::uint32_t const* neg, unsigned long long* miss,
                            unsigned long long* count) {
  std::uint64_t const n = std::uint64_t(1) << 32;
  for (std::uint64_t i = blockIdx.x * std::uint64_t(blockDim.x) + threadIdx.x; i < n;
       i += std::uint64_t(gridDim.x) * blockDim.x) {
    float const t = __uint_as_float(static_cast<std::uint32_t>(i));
    if (!(t > -1.0f && t < 2.0f)) continue;
    atomicAdd(count, 1ull);
    if (__float_as_uint(table_ex2(pos, neg, t)) != __float_as_uint(hw_ex2(t))) atomicAdd(miss + (t < 0 ? 0 : t < 1 ? 1 : 2), 1ull);
  }
}

// upstream common::Sigmoid(float), src/common/math.h, compiled as upstream's build compiles it
__device__ __noinline__ float upstream_sigmoid(float x) {
  float constexpr kEps = 1e-16;
  x = std::min(-x, 88.7f);
  auto denom = expf(x) + 1.0f + kEps;
  auto y = 1.0f / denom;
  return y;
}
__device__ __noinline__ float upstream_poisson_grad(float p, float y) { return (expf(p) - y) * 1.0f; }
__device__ __noinline__ float upstream_expf(float p) { return expf(p); }

struct Parts {
  float mantissa, scale;
};
__device__ Parts model_parts(std::uint32_t const* pos, std::uint32_t const* neg, float x) {
  float j = __fmaf_rn(x, __uint_as_float(0x3BBB989Du), 0.5f);
  j = __saturatef(j);
  float const k = __fmaf_rd(j, 252.0f, __uint_as_float(0x4B400001u));
  float const t = __fadd_rn(k, -12583039.0f);
  float f = __fmaf_rn(x, __uint_as_float(0x3FB8AA3Bu), -t);
  f = __fmaf_rn(x, __uint_as_float(0x32A57060u), f);
  float const e = table_ex2(pos, neg, f);
  return {e, __uint_as_float(__float_as_uint(k) << 23)};
}

__global__ void check_functions(std::uint32_t const* pos, std::uint32_t const* neg, unsigned long long* miss) {
  std::uint64_t const n = std::uint64_t(1) << 32;
  for (std::uint64_t i = blockIdx.x * std::uint64_t(blockDim.x) + threadIdx.x; i < n;
       i += std::uint64_t(gridDim.x) * blockDim.x) {
    float const x = __uint_as_float(static_cast<std::uint32_t>(i));
    if (x != x) continue;
    // sigmoid
    float const nx = std::min(-x, 88.7f);
    Parts const s = model_parts(pos, neg, nx);
    float const denom = __fadd_rn(__fmaf_rn(s.mantissa, s.scale, 1.0f), 1e-16f);
    float const sig = __frcp_rn(denom);
    if (__float_as_uint(sig) != __float_as_uint(upstream_sigmoid(x))) atomicAdd(miss + 0, 1ull);
    // expf, unfused
    Parts const e = model_parts(pos, neg, x);
    float const ex = __fmul_rn(e.mantissa, e.scale);
    if (__float_as_uint(ex) != __float_as_uint(upstream_expf(x))) atomicAdd(miss + 1, 1ull);
    // Poisson gradient, unfused and fused, for |x| < 30
    if (x > -30.0f && x < 30.0f) {
      float const ys[3] = {0.0f, 1.0f, 2.7f};
      for (float y : ys) {
        float const up = upstream_poisson_grad(x, y);
        if (__float_as_uint(__fsub_rn(ex, y)) != __float_as_uint(up)) atomicAdd(miss + 2, 1ull);
        if (__float_as_uint(__fmaf_rn(e.mantissa, e.scale, -y)) != __float_as_uint(up)) atomicAdd(miss + 3, 1ull);
      }
    }
  }
}

void save(std::string const& path, signed char const* d_delta) {
  std::vector<signed char> h(kKeys);
  cudaMemcpy(h.data(), d_delta, kKeys, cudaMemcpyDeviceToHost);
  long hist[256] = {};
  for (auto d : h) ++hist[static_cast<unsigned char>(d)];
  std::printf("%s:", path.c_str());
  for (int d = -3; d <= 3; ++d) std::printf(" delta %d: %ld", d, hist[static_cast<unsigned char>(d)]);
  std::printf("\n");
  FILE* f = std::fopen(path.c_str(), "wb");
  std::fwrite(h.data(), 1, kKeys, f);
  std::fclose(f);
}

int main(int argc, char** argv) {
  std::string const out = argc > 1 ? argv[1] : ".";
  std::uint32_t *pos, *neg;
  signed char* delta;
  unsigned long long* counters;
  cudaMalloc(&pos, kKeys * 4);
  cudaMalloc(&neg, kKeys * 4);
  cudaMalloc(&delta, kKeys);
  cudaMalloc(&counters, 16 * 8);
  cudaMemset(counters, 0, 16 * 8);
  capture<<<1024, 256>>>(pos, delta, 1.0f);
  save(out + "/ex2_pos.bin", delta);
  capture<<<1024, 256>>>(neg, delta, -1.0f);
  save(out + "/ex2_neg.bin", delta);
  check_split<<<8192, 256>>>(pos, neg, counters, counters + 3);
  unsigned long long h[16];
  cudaMemcpy(h, counters, 16 * 8, cudaMemcpyDeviceToHost);
  std::printf("model over %llu floats in (-1, 2): mismatches (-1,0) %llu, [0,1) %llu, [1,2) %llu\n", h[3], h[0], h[1],
              h[2]);
  cudaMemset(counters, 0, 16 * 8);
  check_functions<<<8192, 256>>>(pos, neg, counters);
  cudaMemcpy(h, counters, 16 * 8, cudaMemcpyDeviceToHost);
  std::printf("over every non-NaN float: sigmoid %llu, expf %llu mismatches; poisson grad unfused %llu, fused %llu\n",
              h[0], h[1], h[2], h[3]);
  cudaError_t err = cudaDeviceSynchronize();
  std::printf("cuda: %s\n", cudaGetErrorString(err));
  return 0;
}
