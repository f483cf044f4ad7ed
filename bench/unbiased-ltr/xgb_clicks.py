"""XGBoost reference for bench/unbiased-ltr: pointwise binary:logistic on the same clicks and features.

Invoked by xgb.ts with Debian's /usr/bin/python3 (xgboost 1.7.4, numpy).
Usage: xgb_clicks.py <dir> <num_rows> <num_features> <rounds> <eta> <max_depth> <seed>
Reads <dir>/features.f32 (num_rows x num_features, the sample's rows), <dir>/rows.i32 (doc row, position per
collapsed (query, doc, position) triple), <dir>/counts.f64 (impressions, clicks per triple) and <dir>/weights.json
({"name": [weight of a click at position 1, 2, ...]} per model to train). Each triple becomes a positive example
weighted clicks x weight(position) and a negative one weighted impressions - clicks. Writes <dir>/<name>.f32,
one prediction per sample row, and prints {"name": seconds} as JSON.
"""
import json
import os
import sys
import time

import numpy as np
import xgboost as xgb


def main():
    d, n, f, rounds, eta, depth, seed = sys.argv[1:8]
    n, f = int(n), int(f)
    x = np.fromfile(os.path.join(d, "features.f32"), dtype=np.float32).reshape(n, f)
    rows = np.fromfile(os.path.join(d, "rows.i32"), dtype=np.int32).reshape(-1, 2)
    counts = np.fromfile(os.path.join(d, "counts.f64"), dtype=np.float64).reshape(-1, 2)
    with open(os.path.join(d, "weights.json")) as fh:
        models = json.load(fh)
    doc, pos = rows[:, 0], rows[:, 1]
    imp, clk = counts[:, 0], counts[:, 1]
    xs = np.concatenate([x[doc], x[doc]])
    ys = np.concatenate([np.ones(len(doc)), np.zeros(len(doc))]).astype(np.float32)
    params = {
        "objective": "binary:logistic",
        "tree_method": "hist",
        "eta": float(eta),
        "max_depth": int(depth),
        "seed": int(seed),
        "nthread": int(os.environ.get("XGB_NTHREAD", "1")),  # OpenMP threads only cost time on rows this few
        "verbosity": 0,
    }
    out = {}
    for name, w in models.items():
        w = np.asarray(w, dtype=np.float64)
        ws = np.concatenate([clk * w[pos - 1], imp - clk])
        keep = ws > 0
        t = time.perf_counter()
        dtrain = xgb.DMatrix(xs[keep], label=ys[keep], weight=ws[keep])
        booster = xgb.train(params, dtrain, num_boost_round=int(rounds))
        out[name] = time.perf_counter() - t
        booster.predict(xgb.DMatrix(x), output_margin=True).astype(np.float32).tofile(os.path.join(d, name + ".f32"))
    print(json.dumps(out))


if __name__ == "__main__":
    main()
