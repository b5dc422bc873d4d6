#pragma once
/// \file kboost.hpp
/// kboost's C++ API in one header, installed as <kboost/kboost.hpp>: what a program needs to train,
/// save, load, predict and explain XGBoost 3.2-compatible models on any Kokkos backend. The layer
/// headers (<kboost/core/...> ... <kboost/engine/...>) stay includable one by one; their `detail/`
/// folders are not API.
///
/// Training: Booster (BasicBooster<ExecutionSpace>), TrainParams and parse_params, custom objectives
/// (custom_objective, GradientPair, through booster.hpp), checkpoints.
/// Inference: Predictor, DeviceForest (one row inside a user kernel), Explainer (SHAP).
/// Data and models: HostDMatrix / DMatrix (host_dmatrix: from the caller's Views or C arrays) and
/// the CSV / LibSVM / HDF5 readers (read_dataset), Model and the model reader and writer, the
/// prediction writer, tree dumps, feature maps, importance.

// data and models
#include <kboost/core/dmatrix.hpp>
#include <kboost/core/model.hpp>
#include <kboost/io/dataset_reader.hpp>
#include <kboost/io/feature_map.hpp>
#include <kboost/io/model_dump.hpp>
#include <kboost/io/model_reader.hpp>
#include <kboost/io/model_writer.hpp>
#include <kboost/io/prediction_writer.hpp>

// inference
#include <kboost/kernels/device_forest.hpp>
#include <kboost/engine/explainer.hpp>
#include <kboost/engine/predictor.hpp>

// training
#include <kboost/engine/booster.hpp>
#include <kboost/engine/metrics.hpp>
#include <kboost/engine/checkpoint.hpp>
#include <kboost/engine/importance.hpp>
#include <kboost/engine/params.hpp>
