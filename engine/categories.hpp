#pragma once
/// \file categories.hpp
/// Categorical features of a training matrix: which features split on category sets, the check of
/// their values, and the category encoder the trained model stores (upstream's feature type "c",
/// src/common/categorical.h InvalidCat, src/data/cat_container.cc).
#include <cstdint>
#include <vector>

#include <kboost/core/dmatrix.hpp>
#include <kboost/core/model.hpp>
#include <kboost/engine/params.hpp>

namespace kboost {

/// Largest category kboost trains on: a categorical feature has one bin per category 0 … max, and
/// bin codes hold 65,535 bins (upstream allows categories below 2^24).
constexpr std::int32_t kMaxTrainCategory = 65534;

/// Flags (one per feature, 1 = categorical) of d's categorical features (d.info.feature_types), or
/// an empty vector when none is. Checks every categorical value of d (rows × features, dense or
/// CSR; NaN/absent = missing).
/// \throws std::runtime_error when a feature is categorical and p.enable_categorical is false, or
///         when a categorical value is not an integer in [0, kMaxTrainCategory], naming
///         d.info.source, the 0-based data row (d.info.first_row + i) and the feature.
std::vector<std::uint8_t> categorical_features(TrainParams const& p, HostDMatrix const& d);

/// The category encoder (one entry per feature) of a model trained on d: the text categories the
/// reader coded (d.info.categories: code k = the k-th string) for categorical features, empty
/// entries elsewhere; an empty vector when d had no text categories (its codes are the data).
std::vector<FeatureCategories> training_category_encoder(HostDMatrix const& d);

/// The model's feature_types: "c" for categorical features, "q" otherwise (as many as d has
/// features); empty when d has no feature names and no categorical feature.
std::vector<std::string> model_feature_types(HostDMatrix const& d, std::vector<std::uint8_t> const& categorical);

}  // namespace kboost
