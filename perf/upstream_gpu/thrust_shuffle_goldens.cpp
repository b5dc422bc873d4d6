// thrust_shuffle_goldens: thrust::shuffle of 0..m-1 under thrust::default_random_engine seeded
// with s, as upstream's GPU column sampler runs it (src/common/random.cu SampleFeature), for
// tests/golden/thrust/shuffle.txt (kernels/column_sampler.hpp's goldens). thrust's CUDA system
// runs the generic algorithm (thrust/system/detail/generic/shuffle.inl), which the host system
// runs too, so g++ builds this from the CUDA toolkit's headers (CCCL of CUDA 13):
//   g++ -std=c++17 -O1 -DTHRUST_DEVICE_SYSTEM=THRUST_DEVICE_SYSTEM_CPP \
//       -I/usr/local/cuda/include/cccl -I/usr/local/cuda/include thrust_shuffle_goldens.cpp
//   ./a.out > tests/golden/thrust/shuffle.txt
// Each line: seed, m, then the shuffled sequence.
#include <thrust/execution_policy.h>
#include <thrust/host_vector.h>
#include <thrust/random.h>
#include <thrust/sequence.h>
#include <thrust/shuffle.h>

#include <cstdio>

int main() {
  unsigned const seeds[] = {0u, 7u, 2147483647u, 2357136044u, 3499211612u, 4294967295u};
  int const sizes[] = {1, 2, 3, 5, 8, 16, 17, 22, 28, 31, 64, 100, 1000};
  for (unsigned const s : seeds) {
    for (int const m : sizes) {
      thrust::host_vector<unsigned> v(m);
      thrust::sequence(v.begin(), v.end(), 0u);
      thrust::default_random_engine rng;
      rng.seed(s);
      thrust::shuffle(thrust::host, v.begin(), v.end(), rng);
      std::printf("%u %d", s, m);
      for (int i = 0; i < m; ++i) std::printf(" %u", static_cast<unsigned>(v[i]));
      std::printf("\n");
    }
  }
}
