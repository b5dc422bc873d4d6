#!/usr/bin/env bash
# usage: scripts/bytes_md5.sh <kboost binary> <outdir> [<shared data dir>]
# The md5 of every model, prediction, SHAP and checkpoint file that a broad set of trainings makes
# from the project's real datasets: every objective family, booster and tree method variant kboost
# trains, every prediction mode, TreeSHAP / Saabas / interactions, and checkpoints. A refactor that
# must leave every byte unchanged runs it with the binary before and after (any backend, any thread
# count) and compares the two lists with diff. <shared data dir> defaults to ../shared/data.
set -euo pipefail
K=$(realpath "$1"); O=$2; D=${3:-$(dirname "$0")/../../shared/data}
D=$(realpath "$D"); mkdir -p "$O"; O=$(realpath "$O"); rm -rf "$O"/*.json "$O"/*.csv "$O"/*.txt "$O/ckpt"
P="--num-round 12 --max_depth 6 --eta 0.3 --max_bin 64 --quiet"
tr() { local name=$1; shift; "$K" train "$@" $P --model-out "$O/$name.json" >/dev/null; }
pr() { local name=$1; shift; "$K" predict "$@" --out "$O/$name.csv" >/dev/null; }

# models: one per objective family and training variant
AG=$D/agaricus/agaricus.txt.train
tr agaricus_logistic --data "$AG" --objective binary:logistic
tr agaricus_logitraw --data "$AG" --objective binary:logitraw --subsample 0.7 --colsample_bytree 0.6 --seed 3
BIN=$D/lightgbm_binary/binary.train
tr lgbm_binary_lossguide --data "$BIN" --label-column 0 --objective binary:logistic --grow_policy lossguide --max_leaves 24
tr lgbm_binary_dart --data "$BIN" --label-column 0 --objective binary:logistic --booster dart --rate_drop 0.2 --skip_drop 0.3 --seed 5
tr lgbm_binary_colsample --data "$BIN" --label-column 0 --objective binary:logistic --colsample_bylevel 0.5 --colsample_bynode 0.7 --seed 9
MC=$D/lightgbm_multiclass/multiclass.train
tr lgbm_softprob --data "$MC" --label-column 0 --objective multi:softprob --num_class 5
tr lgbm_softmax --data "$MC" --label-column 0 --objective multi:softmax --num_class 5 --min_child_weight 3 --gamma 0.5
REG=$D/lightgbm_regression/regression.train
for obj in reg:squarederror reg:pseudohubererror reg:absoluteerror; do
  tr "lgbm_regression_${obj/:/_}" --data "$REG" --label-column 0 --objective "$obj"
done
CH=$D/california_housing/housing.csv
for obj in reg:squaredlogerror count:poisson reg:gamma reg:tweedie; do  # positive labels
  tr "california_${obj/:/_}" --data "$CH" --label-column median_house_value --objective "$obj"
done
tr lgbm_regression_quantile --data "$REG" --label-column 0 --objective reg:quantileerror --quantile_alpha 0.1,0.5,0.9
tr lgbm_regression_constraints --data "$REG" --label-column 0 --objective reg:squarederror \
  --monotone_constraints "(1,-1,0,1)" --interaction_constraints "[[0,1],[2,3,4]]" --lambda 2 --alpha 0.5 --max_delta_step 0.7
tr california --data "$CH" --label-column median_house_value --objective reg:squarederror
tr adult --data "$D/adult/adult.data" --label-column -1 --objective binary:logistic
tr diamonds_categorical --data "$D/diamonds/diamonds.csv" --label-column price --objective reg:squarederror --max_cat_to_onehot 4
tr dermatology --data "$D/dermatology/dermatology.data" --label-column -1 --objective multi:softprob --num_class 7
# lossguide: unlimited depth, leaf refit, categorical, constraints, multi-class, a leaf budget with gamma
trl() { local name=$1; shift; "$K" train "$@" --num-round 12 --eta 0.3 --max_bin 64 --quiet --grow_policy lossguide \
  --model-out "$O/$name.json" >/dev/null; }
trl california_lossguide_deep --data "$CH" --label-column median_house_value --max_leaves 255 --max_depth 0
trl lgbm_regression_lossguide_mae --data "$REG" --label-column 0 --objective reg:absoluteerror --max_leaves 63 --max_depth 0
trl diamonds_lossguide --data "$D/diamonds/diamonds.csv" --label-column price --max_leaves 100 --max_depth 8
trl lgbm_regression_lossguide_constraints --data "$REG" --label-column 0 --max_leaves 40 --max_depth 0 \
  --monotone_constraints "(1,-1,0,1)" --interaction_constraints "[[0,1],[2,3,4]]"
trl lgbm_softprob_lossguide --data "$MC" --label-column 0 --objective multi:softprob --num_class 5 --max_leaves 31 --max_depth 0
trl agaricus_lossguide_depth --data "$AG" --objective binary:logistic --max_depth 5 --max_leaves 0
trl adult_lossguide --data "$D/adult/adult.data" --label-column -1 --objective binary:logistic --max_leaves 128 --max_depth 0 --gamma 1
trl lgbm_binary_lossguide_subsample --data "$BIN" --label-column 0 --objective binary:logistic --max_leaves 200 --max_depth 0 \
  --subsample 0.6 --colsample_bytree 0.7 --seed 4
RK=$D/lightgbm_lambdarank/rank.train
for obj in rank:ndcg rank:pairwise; do
  tr "lambdarank_${obj/:/_}" --data "$RK" --format libsvm --group-file "$RK.query" --objective "$obj"
done
VET=$D/veterans_lung_cancer/veterans_lung_cancer.csv
tr veterans_aft --data "$VET" --label-column Survival_label_lower_bound --label-lower-bound-column Survival_label_lower_bound \
  --label-upper-bound-column Survival_label_upper_bound --objective survival:aft
tr veterans_cox --data "$VET" --label-column Survival_label_lower_bound --ignore-columns Survival_label_upper_bound --objective survival:cox
# continued training and checkpoints
"$K" train --data "$BIN" --label-column 0 --objective binary:logistic $P --model-in "$O/lgbm_binary_colsample.json" \
  --model-out "$O/lgbm_binary_continued.json" >/dev/null
rm -rf "$O/ckpt"
"$K" train --data "$MC" --label-column 0 --objective multi:softprob --num_class 5 $P --checkpoint-every 5 \
  --checkpoint-dir "$O/ckpt" --model-out "$O/lgbm_softprob_checkpointed.json" >/dev/null
(cd "$O" && md5sum ./*.json ckpt/* | sed 's#\./##')

# predictions: every mode on one binary, one multiclass and one categorical model
pr adult_pred --model "$O/adult.json" --data "$D/adult/adult.data" --label-column -1
pr mc_pred --model "$O/lgbm_softprob.json" --data "$D/lightgbm_multiclass/multiclass.test" --label-column 0
pr mc_margin --model "$O/lgbm_softprob.json" --data "$D/lightgbm_multiclass/multiclass.test" --label-column 0 --output-margin
pr mc_leaf --model "$O/lgbm_softprob.json" --data "$D/lightgbm_multiclass/multiclass.test" --label-column 0 --pred-leaf
pr dart_pred --model "$O/lgbm_binary_dart.json" --data "$D/lightgbm_binary/binary.test" --label-column 0
pr lossguide_range --model "$O/lgbm_binary_lossguide.json" --data "$D/lightgbm_binary/binary.test" --label-column 0 --iteration-range 2:9
pr diamonds_pred --model "$O/diamonds_categorical.json" --data "$D/diamonds/diamonds.csv" --label-column price
pr quantile_pred --model "$O/lgbm_regression_quantile.json" --data "$D/lightgbm_regression/regression.test" --label-column 0
pr aft_pred --model "$O/veterans_aft.json" --data "$VET" --label-column Survival_label_lower_bound --ignore-columns Survival_label_upper_bound
pr rank_pred --model "$O/lambdarank_rank_ndcg.json" --data "$D/lightgbm_lambdarank/rank.test" --format libsvm
# SHAP
pr binary_contribs --model "$O/lgbm_binary_lossguide.json" --data "$D/lightgbm_binary/binary.test" --label-column 0 --pred-contribs
pr binary_saabas --model "$O/lgbm_binary_lossguide.json" --data "$D/lightgbm_binary/binary.test" --label-column 0 --pred-contribs --approx-contribs
pr mc_contribs --model "$O/lgbm_softprob.json" --data "$D/lightgbm_multiclass/multiclass.test" --label-column 0 --pred-contribs
pr regression_interactions --model "$O/lgbm_regression_constraints.json" --data "$D/lightgbm_regression/regression.test" --label-column 0 --pred-interactions
pr diamonds_contribs --model "$O/diamonds_categorical.json" --data "$D/diamonds/diamonds.csv" --label-column price --pred-contribs
(cd "$O" && md5sum ./*.csv | sed 's#\./##')

# dumps, importance and dataset/model summaries (the text forms of floats)
for m in lgbm_binary_lossguide diamonds_categorical lgbm_softprob; do
  for f in text json dot; do "$K" dump --model "$O/$m.json" --format "$f" --with-stats --out "$O/$m.dump.$f.txt"; done
  "$K" importance --model "$O/$m.json" --type total_gain --out "$O/$m.importance.txt"
done
(cd "$O" && "$K" info --model lgbm_regression_quantile.json > quantile.info.txt)  # relative: the text names the file
"$K" info --data "$D/adult/adult.data" > "$O/adult.info.txt"
(cd "$O" && md5sum ./*.txt | sed 's#\./##')
