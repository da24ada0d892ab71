#!/usr/bin/env python3
"""Fit scikit-learn's DecisionTreeClassifier to the rows that model/tree's
BenchmarkFit fits, and print fit time, test accuracy, nodes and depth.

    go test ./model/tree/ -run TestWriteCompareCSV -compare-csv /tmp/cmp
    python3 model/tree/testdata/sklearn_compare.py /tmp/cmp [rows ...]

The CSVs hold the 27 features, then class and weight (the level's run time,
used as sample weight as BenchmarkFit does). Without row counts it fits the
first 20000 rows and all of them. It fits twice per setting, the default
(full) tree and max_depth=20, as BenchmarkFit does, and reports the faster
fit. Note: scikit-learn converts X to float32, so its thresholds (and at
ties, its trees) can differ slightly from model/tree's float64 ones.
"""
import sys
import time

import numpy as np
import sklearn
from sklearn.tree import DecisionTreeClassifier


def load(path):
    data = np.loadtxt(path, delimiter=",", skiprows=1)
    return data[:, :-2], data[:, -2].astype(np.int64), data[:, -1]


def main():
    directory = sys.argv[1]
    X, y, w = load(directory + "/train.csv")
    Xt, yt, _ = load(directory + "/test.csv")
    sizes = [int(a) for a in sys.argv[2:]] or sorted({min(20000, len(y)), len(y)})
    print(f"scikit-learn {sklearn.__version__}, numpy {np.__version__}")
    for n in sizes:
        for depth in (None, 20):
            best = None
            for _ in range(2):
                clf = DecisionTreeClassifier(max_depth=depth, random_state=0)
                start = time.perf_counter()
                clf.fit(X[:n], y[:n], sample_weight=w[:n])
                elapsed = time.perf_counter() - start
                best = elapsed if best is None else min(best, elapsed)
            accuracy = float(np.mean(clf.predict(Xt) == yt))
            start = time.perf_counter()
            for row in Xt[:2000]:
                clf.predict(row.reshape(1, -1))
            single = (time.perf_counter() - start) / 2000
            print(f"rows={n} max_depth={depth or 0}: fit {best:.3f} s, accuracy {accuracy:.4f}, "
                  f"nodes {clf.tree_.node_count}, depth {clf.get_depth()}, "
                  f"predict one row {single * 1e6:.1f} us")


if __name__ == "__main__":
    main()
