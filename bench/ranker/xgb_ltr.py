"""XGBoost reference for bench/ranker: train on a LETOR file, predict on others, print JSON.

Invoked by ltr.ts / scale.ts with Debian's /usr/bin/python3 (xgboost 1.7.4, numpy, scipy).
Usage: [XGB_NTHREAD=n] [XGB_SEED=s] xgb_ltr.py <objective> <train.letor> <rounds> <eta> <max_leaves> [predict.letor ...]
Absent sparse entries are missing values (XGBoost's libsvm reading), as in our parser.
"""
import json
from array import array
import os
import resource
import sys
import time

import numpy as np
import scipy.sparse as sp
import xgboost as xgb


def load_letor(path):
    # Compact typed arrays: keeps the parser from dominating the peak RSS on the 100k-row file.
    labels, qids, rows, cols, vals = array("f"), [], array("i"), array("i"), array("f")
    with open(path) as fh:
        for r, line in enumerate(fh):
            line = line.split("#", 1)[0].split()
            if not line:
                continue
            labels.append(float(line[0]))
            rest = line[1:]
            if rest and rest[0].startswith("qid:"):
                if not qids or qids[-1][0] != rest[0][4:]:
                    qids.append([rest[0][4:], 0])
                qids[-1][1] += 1
                rest = rest[1:]
            for tok in rest:
                i, v = tok.split(":")
                rows.append(len(labels) - 1)
                cols.append(int(i))
                vals.append(float(v))
    n = len(labels)
    x = sp.csr_matrix((np.frombuffer(vals, dtype=np.float32), (np.frombuffer(rows, dtype=np.int32), np.frombuffer(cols, dtype=np.int32))), shape=(n, max(cols) + 1))
    groups = qids
    return x, np.frombuffer(labels, dtype=np.float32).copy(), [g[1] for g in groups]


def main():
    objective, train_path, rounds, eta, leaves = sys.argv[1:6]
    predict_paths = sys.argv[6:]
    x, y, groups = load_letor(train_path)
    dtrain = xgb.DMatrix(x, label=y)
    if objective.startswith("rank:"):
        dtrain.set_group(groups)
    params = {
        "objective": objective,
        "tree_method": "hist",
        "eta": float(eta),
        "max_leaves": int(leaves),
        "grow_policy": "lossguide",
        "max_depth": 0,
        "seed": int(os.environ.get("XGB_SEED", "1")),
        "verbosity": 0,
    }
    if os.environ.get("XGB_NTHREAD"):
        params["nthread"] = int(os.environ["XGB_NTHREAD"])
    rss_loaded_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    t0 = time.perf_counter()
    c0 = time.process_time()
    booster = xgb.train(params, dtrain, num_boost_round=int(rounds))
    seconds = time.perf_counter() - t0
    cpu_seconds = time.process_time() - c0
    peak_train_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    preds = []
    for path in [train_path] + predict_paths:
        px, _, _ = load_letor(path)
        if px.shape[1] < x.shape[1]:
            px = sp.csr_matrix((px.data, px.indices, px.indptr), shape=(px.shape[0], x.shape[1]))
        preds.append(booster.predict(xgb.DMatrix(px[:, : x.shape[1]]), output_margin=True).tolist())
    json.dump({"seconds": seconds, "cpuSeconds": cpu_seconds, "peakRssMb": peak_train_mb, "loadedRssMb": rss_loaded_mb, "predictions": preds, "version": xgb.__version__}, sys.stdout)


if __name__ == "__main__":
    main()
