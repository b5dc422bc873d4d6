#pragma once
/// \file float_text.hpp
/// Every way kboost writes a float as text, each as the upstream code it must match byte for byte:
/// model files (upstream's ToChars), parameter strings and text dumps (dmlc::ToString, std::ostream
/// at max_digits10), and the attributes upstream's Python callbacks write (Python's float repr).
#include <string>

namespace kboost {

/// Upstream's float text in model files (src/common/charconv.cc ToChars, ryu-based): shortest
/// round-trip digits in scientific form "d[.ddd]E<exp>", e.g. 0.5f -> "5E-1", 1.985f -> "1.985E0",
/// 0 -> "0E0"; "NaN", "Infinity", "-Infinity".
std::string upstream_float_string(float v);

/// `v` as std::ostream writes it in the classic locale with `precision` significant digits in the
/// default float format (%g-like: 0.699999988, 1e-05). With the default 9 (max_digits10 of float)
/// this is dmlc::ToString, which upstream uses for parameter strings, and the number format of its
/// text dumps (src/tree/tree_model.cc ToStr).
std::string ostream_float_string(double v, int precision = 9);

/// Upstream's parameter-string formatting of a float (dmlc ToString: "0.699999988").
inline std::string param_float_string(float v) { return ostream_float_string(v); }

/// Shortest round-trip text of a double as Python's repr (e.g. "1.0", "0.0123", "1e-05", "nan",
/// "inf"): the form upstream's EarlyStopping callback stores in best_score.
std::string python_float_repr(double v);

}  // namespace kboost
