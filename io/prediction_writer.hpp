#pragma once
/// \file prediction_writer.hpp
/// Writing predictions (rows × outputs float32) to CSV or HDF5.
#include <Kokkos_Core.hpp>

#include <string>
#include <vector>

namespace kboost {

/// Write `preds` (rows × columns) to `path`: `.h5`/`.hdf5` -> HDF5 dataset "predictions" (float32,
/// rows × columns, attribute "columns" with the names when given); anything else -> CSV with a header
/// line when `column_names` is given, values printed with max_digits10 (9) so they parse back to the
/// same bits; "-" -> the same CSV on standard output. Atomic: written to a temp file in the same
/// directory, then renamed.
/// Throws std::runtime_error (naming the file) when it cannot be written or names and columns differ.
void write_predictions(std::string const& path,
                       Kokkos::View<const float**, Kokkos::LayoutRight, Kokkos::HostSpace> preds,
                       std::vector<std::string> const& column_names = {});

}  // namespace kboost
