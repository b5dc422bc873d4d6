/// \file float_text.cpp
/// Float-to-text conversions (core/float_text.hpp).
#include <kboost/core/float_text.hpp>

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <locale>
#include <sstream>

namespace kboost {
namespace {

/// The shortest digits that read back as `v` (finite), in scientific form: mantissa "d.ddd"
/// (with its sign) and the decimal exponent.
struct ShortestDigits {
  std::string mantissa;
  int exponent = 0;
};

template <class T>
ShortestDigits shortest_digits(T v) {
  char buf[64];
  auto const res = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific);
  std::string const s(buf, res.ptr);  // e.g. "1.985e+00"
  auto const e = s.find('e');
  return ShortestDigits{s.substr(0, e), std::atoi(s.c_str() + e + 1)};
}

}  // namespace

std::string upstream_float_string(float v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "Infinity" : "-Infinity";
  if (v == 0) return std::signbit(v) ? "-0E0" : "0E0";
  ShortestDigits const d = shortest_digits(v);  // e.g. "1.985", 0
  return d.mantissa + "E" + std::to_string(d.exponent);
}

std::string ostream_float_string(double v, int precision) {
  std::ostringstream os;
  os.imbue(std::locale::classic());
  os.precision(precision);
  os << v;
  return os.str();
}

std::string python_float_repr(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  if (v == 0) return std::signbit(v) ? "-0.0" : "0.0";
  // Shortest round-trip digits, then Python's repr layout: fixed for 1e-4 <= |v| < 1e16, else d.ddde±XX.
  ShortestDigits d = shortest_digits(v);
  bool const neg = d.mantissa[0] == '-';
  if (neg) d.mantissa.erase(0, 1);
  std::string const& mant = d.mantissa;
  int const exp = d.exponent;
  std::string digits;
  for (char c : mant)
    if (c != '.') digits += c;
  std::string out;
  if (exp >= -5 && exp < 16) {  // Python repr: scientific when exp < -4 or exp >= 16
    if (exp < -4) {
      // falls through to scientific below
    } else if (exp < 0) {
      out = "0." + std::string(static_cast<std::size_t>(-exp - 1), '0') + digits;
    } else if (static_cast<int>(digits.size()) <= exp + 1) {
      out = digits + std::string(static_cast<std::size_t>(exp + 1 - static_cast<int>(digits.size())), '0') + ".0";
    } else {
      out = digits.substr(0, exp + 1) + "." + digits.substr(exp + 1);
    }
  }
  if (out.empty()) {
    out = digits.substr(0, 1);
    if (digits.size() > 1) out += "." + digits.substr(1);
    char e[16];
    std::snprintf(e, sizeof e, "e%c%02d", exp < 0 ? '-' : '+', exp < 0 ? -exp : exp);
    out += e;
  }
  return neg ? "-" + out : out;
}

}  // namespace kboost
