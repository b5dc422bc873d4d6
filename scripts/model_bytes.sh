#!/usr/bin/env bash
# usage: scripts/model_bytes.sh <kboost binary> <outdir> [<data dir>]
# Trains the five fidelity datasets (20 rounds, depth 6, eta 0.3, 256 bins) and predicts two of them,
# printing the md5 of every model and prediction file: run it with a CUDA and a host build (any thread
# count) and compare the lists. <data dir> holds agaricus.txt.train, binary.train, multiclass.train,
# housing.csv and adult.data (copies of ../shared/data files; default: a folder beside this script).
set -e
K=$1; O=$2; D=${3:-$(dirname "$0")/data}; mkdir -p "$O"
P="--num-round 20 --max_depth 6 --eta 0.3 --max_bin 256 --quiet"
$K train --data $D/agaricus.txt.train --objective binary:logistic $P --model-out $O/agaricus.json
$K train --data $D/binary.train --label-column 0 --objective binary:logistic $P --model-out $O/lgbm_binary.json
$K train --data $D/multiclass.train --label-column 0 --objective multi:softprob --num_class 5 $P --model-out $O/lgbm_multiclass.json
$K train --data $D/housing.csv --label-column median_house_value --objective reg:squarederror $P --model-out $O/california.json
$K train --data $D/adult.data --label-column -1 --objective binary:logistic $P --model-out $O/adult.json
(cd $O && md5sum *.json)
$K predict --model $O/adult.json --data $D/adult.data --label-column -1 --reference-data $D/adult.data --out $O/adult_pred.csv >/dev/null
$K predict --model $O/lgbm_multiclass.json --data $D/multiclass.train --label-column 0 --out $O/mc_pred.csv >/dev/null
(cd $O && md5sum *.csv)
