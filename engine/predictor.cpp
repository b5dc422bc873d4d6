/// Host-side parts of the predictor: iteration range -> tree range, the host launch lock.
#include <kboost/engine/predictor.hpp>

#include <stdexcept>
#include <string>

namespace kboost {

std::mutex& detail::host_launch_mutex() {
  static std::mutex m;
  return m;
}

std::pair<int, int> tree_range(Model const& m, int begin, int end) {
  int const rounds = m.num_rounds();
  if (end == 0) end = rounds;
  std::string const range = "iteration_range [" + std::to_string(begin) + ", " + std::to_string(end) + ")";
  if (end < begin && begin >= 0)
    throw std::runtime_error(range + " is reversed: its end comes before its begin (rounds [a, b) need a <= b)");
  if (begin < 0 || end > rounds)
    throw std::runtime_error(range + " outside the model's " + std::to_string(rounds) + " rounds");
  return {m.iteration_indptr[begin], m.iteration_indptr[end]};
}

}  // namespace kboost
