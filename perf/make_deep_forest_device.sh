#!/usr/bin/env bash
# perf/make_deep_forest_device.sh KBOOST_CLI OUT_MODEL [ROUNDS]: the GPU suite's deep and wide forest,
# made on the device machine (its model file is too large to carry there): 200,000 rows x 28
# standard-normal features with 2 % NaN and the noisy non-linear target of
# perf/make_predict_suite_models.py (numpy only: the device machine has no xgboost), trained by the
# kboost CLI given (a CUDA build) as reg:squarederror, lossguide, max_depth 10, max_leaves 512,
# eta 0.05, ROUNDS rounds (default 2,000). Every tool of perf/predict_suite_gpu.sh then reads this
# one file.
set -euo pipefail
cli=$1 model=$2 rounds=${3:-2000}
csv=$(mktemp --suffix=.csv)
trap 'rm -f "$csv"' EXIT
python3 - "$csv" <<'PY'
import sys
import numpy as np
rng = np.random.default_rng(12)
X = rng.standard_normal((200_000, 28), dtype=np.float32)
X[rng.random(X.shape) < 0.02] = np.nan
Z = np.nan_to_num(X)
y = Z[:, 0] * Z[:, 1] + np.sin(2 * Z[:, 2]) + Z[:, 3] ** 2 - Z[:, 4] + 0.5 * Z[:, 5] * Z[:, 6] + \
    rng.normal(scale=1.0, size=len(Z))
np.savetxt(sys.argv[1], np.column_stack([y.astype(np.float32), X]), fmt="%.7g", delimiter=",")
PY
"$cli" train --data "$csv" --format csv --no-header --label-column 0 --objective reg:squarederror \
  --grow-policy lossguide --max-depth 10 --max-leaves 512 --eta 0.05 --num-round "$rounds" --quiet \
  --model-out "$model"
