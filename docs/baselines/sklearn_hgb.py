#!/usr/bin/python3
"""Off-the-shelf baseline for graphperf's time model.

scikit-learn's HistGradientBoostingRegressor on the natural log of the BFS
level time, with the 27 features of seed 004 section 7.2 (23 graph
properties, then frontier, frontier_rel, discovered, discovered_rel) plus the
implementation as a categorical feature. One model per split, trained on the
split's training graphs, predicting every row of its test graphs.

Written for Debian's /usr/bin/python3 with python3-sklearn (1.2.1); it needs
numpy and scikit-learn only (no pandas). See docs/baselines/README.md.

    /usr/bin/python3 docs/baselines/sklearn_hgb.py --rows rows.csv.gz \
        --splits splits.json --out preds.csv [--summary s.json] [--seed 0] \
        [--score] [--from-preds preds.csv]

Exit status 1, with a message naming the file, on bad input.
"""

import argparse
import csv
import gzip
import io
import json
import math
import os
import sys
import time

FEATURES = ["vertices", "edges"] + [
    d + "_" + s
    for d in ("abs", "in", "out")
    for s in ("min", "lq", "mean", "median", "uq", "max", "stddev")
] + ["frontier", "frontier_rel", "discovered", "discovered_rel"]
KEYS = ["graph", "root", "level", "impl", "time_ns"]
HEADER = KEYS + FEATURES

MAX_ITER = 300
# Every other hyper-parameter is sklearn's default; these are recorded in the
# summary as the estimator reports them.


class InputError(Exception):
    """Bad input; the message names the file and, where known, the line."""


def die(msg):
    print("sklearn_hgb: " + msg, file=sys.stderr)
    sys.exit(1)


def open_text(path):
    try:
        if path.endswith(".gz"):
            return io.TextIOWrapper(gzip.open(path, "rb"), encoding="utf-8", newline="")
        return open(path, encoding="utf-8", newline="")
    except OSError as e:
        raise InputError(f"{path}: {e.strerror or e}")


def number(path, line, col, s):
    try:
        v = float(s)
    except ValueError:
        raise InputError(f"{path}:{line}: column {col}: {s!r} is not a number")
    if not math.isfinite(v):
        raise InputError(f"{path}:{line}: column {col}: {s!r} is not finite")
    return v


def integer(path, line, col, s):
    try:
        return int(s)
    except ValueError:
        raise InputError(f"{path}:{line}: column {col}: {s!r} is not an integer")


def read_rows(path):
    """Returns (keys, times, X) where keys are (graph, root, level, impl)."""
    import numpy as np

    keys, times, feats = [], [], []
    seen = set()
    with open_text(path) as f:
        try:
            r = csv.reader(f)
            header = next(r, None)
            if header is None:
                raise InputError(f"{path}: empty file: want a header line")
            header = [h.strip() for h in header]
            missing = [c for c in HEADER if c not in header]
            if missing:
                raise InputError(f"{path}:1: header lacks column(s) {', '.join(missing)}")
            dup = sorted({c for c in header if header.count(c) > 1})
            if dup:
                raise InputError(f"{path}:1: column(s) {', '.join(dup)} appear twice")
            idx = {c: header.index(c) for c in HEADER}
            fi = [idx[c] for c in FEATURES]
            width = len(header)
            for rec in r:
                line = r.line_num
                if not rec:
                    continue
                if len(rec) != width:
                    raise InputError(f"{path}:{line}: {len(rec)} fields, header has {width}")
                g, impl = rec[idx["graph"]], rec[idx["impl"]]
                if not g:
                    raise InputError(f"{path}:{line}: column graph: empty")
                if not impl:
                    raise InputError(f"{path}:{line}: column impl: empty")
                root = integer(path, line, "root", rec[idx["root"]])
                level = integer(path, line, "level", rec[idx["level"]])
                if level < 0:
                    raise InputError(f"{path}:{line}: column level: {level} is negative")
                t = number(path, line, "time_ns", rec[idx["time_ns"]])
                if not t > 0:
                    raise InputError(f"{path}:{line}: column time_ns: {rec[idx['time_ns']]!r}: want a positive time")
                k = (g, root, level, impl)
                if k in seen:
                    raise InputError(f"{path}:{line}: row {g},{root},{level},{impl} repeats")
                seen.add(k)
                keys.append(k)
                times.append(t)
                feats.append([number(path, line, FEATURES[j], rec[c]) for j, c in enumerate(fi)])
        except (csv.Error, UnicodeDecodeError, EOFError, gzip.BadGzipFile, OSError) as e:
            raise InputError(f"{path}: {e}")
    if not keys:
        raise InputError(f"{path}: no rows after the header")
    return keys, np.array(times, dtype=np.float64), np.array(feats, dtype=np.float64).reshape(len(keys), len(FEATURES))


def read_splits(path, graphs):
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
    except OSError as e:
        raise InputError(f"{path}: {e.strerror or e}")
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise InputError(f"{path}: not JSON: {e}")
    if not isinstance(doc, dict) or not isinstance(doc.get("splits"), list) or not doc["splits"]:
        raise InputError(f'{path}: want {{"splits": [ ... ]}} with at least one split')
    out, names = [], set()
    for i, s in enumerate(doc["splits"]):
        where = f"{path}: splits[{i}]"
        if not isinstance(s, dict):
            raise InputError(f"{where}: want an object")
        name = s.get("name")
        if not isinstance(name, str) or not name:
            raise InputError(f"{where}: name: want a non-empty string")
        if "," in name or "\n" in name or '"' in name:
            raise InputError(f"{where}: name {name!r}: no commas, quotes or newlines")
        if name in names:
            raise InputError(f"{where}: name {name!r} repeats")
        names.add(name)
        where = f"{path}: split {name!r}"
        lists = {}
        for part in ("train", "validation", "test"):
            v = s.get(part, [] if part == "validation" else None)
            if v is None:
                v = [] if part == "validation" else None
            if not isinstance(v, list) or not all(isinstance(g, str) for g in v):
                raise InputError(f"{where}: {part}: want a list of graph names")
            lists[part] = v
        owner = {}
        for part in ("train", "validation", "test"):
            for g in lists[part]:
                if g in owner:
                    raise InputError(f"{where}: graph {g!r} is in both {owner[g]} and {part}" if owner[g] != part
                                     else f"{where}: graph {g!r} repeats in {part}")
                owner[g] = part
        for part in ("train", "validation", "test"):
            unknown = [g for g in lists[part] if g not in graphs]
            if unknown:
                raise InputError(f"{where}: {part}: graph(s) with no rows: {', '.join(unknown[:5])}"
                                 + (f" (and {len(unknown) - 5} more)" if len(unknown) > 5 else ""))
        if not lists["train"]:
            raise InputError(f"{where}: train: empty")
        if not lists["test"]:
            raise InputError(f"{where}: test: empty")
        out.append((name, lists["train"], lists["validation"], lists["test"]))
    return out


def design(X, impl_codes):
    """The estimator's input: the 27 features, then the impl code (column 27)."""
    import numpy as np

    return np.hstack([X, impl_codes.reshape(-1, 1)])


def fit_split(keys, y, X, impls, train, val, test, seed):
    """Fits one split; returns (test row indices, log-ns predictions, info)."""
    import numpy as np
    import sklearn
    from sklearn.ensemble import HistGradientBoostingRegressor

    graph = np.array([k[0] for k in keys], dtype=object)
    tr = np.flatnonzero(np.isin(graph, list(train)))
    va = np.flatnonzero(np.isin(graph, list(val))) if val else np.array([], dtype=np.int64)
    te = np.flatnonzero(np.isin(graph, list(test)))
    # Ordinal encoding of impl: codes 0..k-1 in sorted order of the
    # implementations of the TRAINING rows; an implementation that no
    # training row has is coded NaN (sklearn: missing), with a warning.
    train_impls = sorted({impls[i] for i in tr})
    code = {name: float(c) for c, name in enumerate(train_impls)}
    codes = np.array([code.get(name, np.nan) for name in impls])
    warnings = []
    unseen = sorted({impls[i] for i in np.concatenate([va, te])} - set(code))
    if unseen:
        warnings.append(f"implementation(s) with no training rows, coded missing: {', '.join(unseen)}")
    if len(train_impls) > 255:
        raise InputError(f"{len(train_impls)} implementations: HistGradientBoosting takes at most 255 categories")
    D = design(X, codes)
    ncat = D.shape[1] - 1
    est = HistGradientBoostingRegressor(
        loss="squared_error", max_iter=MAX_ITER, early_stopping=False,
        categorical_features=[ncat], random_state=seed)
    t0 = time.perf_counter()
    est.fit(D[tr], y[tr])
    iters = est.n_iter_
    if len(va):
        # Validation graphs choose the number of boosting iterations: the
        # stage with the least mean squared error of the log time. Test
        # rows play no part.
        best, best_mse = 0, math.inf
        for i, p in enumerate(est.staged_predict(D[va])):
            mse = float(np.mean((p - y[va]) ** 2))
            if mse < best_mse:
                best, best_mse = i, mse
        iters = best + 1
        pred = None
        for i, p in enumerate(est.staged_predict(D[te])):
            if i == best:
                pred = p
                break
    else:
        pred = est.predict(D[te])
    fit_s = time.perf_counter() - t0
    params = {k: (v if isinstance(v, (int, float, str, bool, type(None), list)) else repr(v))
              for k, v in sorted(est.get_params().items())}
    info = {
        "fit_seconds": round(fit_s, 3),
        "n_train": int(len(tr)), "n_validation": int(len(va)), "n_test": int(len(te)),
        "train_graphs": len(train), "validation_graphs": len(val), "test_graphs": len(test),
        "iterations_used": int(iters),
        "hyper_parameters": params,
        "impl_encoding": train_impls,
        "sklearn_version": sklearn.__version__,
        "warnings": warnings,
    }
    return te, pred, info


def score(keys, times, te, pred):
    """Mix-and-Match and best non-switching Totals against the per-level
    optimum, and the per-level median absolute relative error, over the test
    rows te with log-ns predictions pred (as graphperf's Go code scores)."""
    import numpy as np

    all_impls = sorted({k[3] for k in keys})
    by_input = {}
    for i, p in zip(te, pred):
        g, root, level, impl = keys[i]
        by_input.setdefault((g, root), {}).setdefault(level, {})[impl] = (times[i], p)
    mm = opt = bns = 0.0
    ratios, used, left = [], 0, 0
    for inp in sorted(by_input):
        levels = by_input[inp]
        n = max(levels) + 1
        if len(levels) != n or any(len(levels[l]) != len(all_impls) for l in levels):
            left += 1
            continue
        used += 1
        o = sum(min(t for t, _ in levels[l].values()) for l in range(n))
        # The predicted implementation: least predicted time, ties to the
        # first name.
        m = sum(min(levels[l].items(), key=lambda kv: (kv[1][1], kv[0]))[1][0] for l in range(n))
        b = min(sum(levels[l][im][0] for l in range(n)) for im in all_impls)
        mm, opt, bns = mm + m, opt + o, bns + b
        ratios.append(m / o)
    meas = times[te]
    rel = np.abs(np.exp(pred) - meas) / meas
    return {
        "inputs": used, "inputs_left_out": left,
        "mix_and_match_total": mm / opt if opt else None,
        "best_non_switching_total": bns / opt if opt else None,
        "mix_and_match_avg": float(np.mean(ratios)) if ratios else None,
        "mix_and_match_worst": float(np.max(ratios)) if ratios else None,
        "median_abs_rel_error": float(np.median(rel)),
        "mean_abs_log_error": float(np.mean(np.abs(pred - np.log(meas)))),
        "test_rows": int(len(te)),
    }


def read_preds(path, keys):
    import numpy as np

    index = {k: i for i, k in enumerate(keys)}
    out = {}
    with open_text(path) as f:
        r = csv.reader(f)
        header = next(r, None)
        want = ["split", "graph", "root", "level", "impl", "pred_log_ns"]
        if header != want:
            raise InputError(f"{path}:1: header {header}: want {','.join(want)}")
        for rec in r:
            line = r.line_num
            if len(rec) != 6:
                raise InputError(f"{path}:{line}: {len(rec)} fields, want 6")
            k = (rec[1], integer(path, line, "root", rec[2]), integer(path, line, "level", rec[3]), rec[4])
            if k not in index:
                raise InputError(f"{path}:{line}: no such row in the rows file")
            te, p = out.setdefault(rec[0], ([], []))
            te.append(index[k])
            p.append(number(path, line, "pred_log_ns", rec[5]))
    return {s: (np.array(te), np.array(p)) for s, (te, p) in out.items()}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rows", required=True, help="rows CSV (gzipped if the name ends in .gz)")
    ap.add_argument("--splits", required=True, help="splits JSON")
    ap.add_argument("--out", help="predictions CSV to write (split,graph,root,level,impl,pred_log_ns)")
    ap.add_argument("--summary", help="write the JSON summary here instead of stdout")
    ap.add_argument("--seed", type=int, default=0, help="random_state of the estimator (default 0)")
    ap.add_argument("--score", action="store_true",
                    help="also score the predictions (Mix-and-Match, best non-switching, median error) "
                         "into the summary, with a table on stderr")
    ap.add_argument("--from-preds", metavar="CSV",
                    help="do not fit: score this predictions CSV (implies --score)")
    a = ap.parse_args()
    if not a.out and not a.from_preds:
        ap.error("want --out (or --from-preds to score existing predictions)")
    try:
        import numpy as np
        import sklearn
    except ImportError as e:
        die(f"{e}: run under /usr/bin/python3 with python3-sklearn installed (apt-get install -y python3-sklearn)")

    try:
        t0 = time.perf_counter()
        keys, times, X = read_rows(a.rows)
        read_s = time.perf_counter() - t0
        graphs = {k[0] for k in keys}
        splits = read_splits(a.splits, graphs)
        y = np.log(times)
        impls = [k[3] for k in keys]
        summary = {"rows_file": a.rows, "splits_file": a.splits, "rows": len(keys), "read_seconds": round(read_s, 3),
                   "seed": a.seed, "sklearn_version": sklearn.__version__, "numpy_version": np.__version__,
                   "python": sys.version.split()[0], "features": FEATURES + ["impl (categorical)"], "splits": []}
        if a.from_preds:
            preds = read_preds(a.from_preds, keys)
            for name, _, _, test in splits:
                if name not in preds:
                    raise InputError(f"{a.from_preds}: no predictions for split {name!r}")
                te, p = preds[name]
                want = set(np.flatnonzero(np.isin(np.array([k[0] for k in keys], dtype=object), list(test))))
                if set(te) != want:
                    raise InputError(f"{a.from_preds}: split {name!r}: predictions cover {len(set(te))} rows, its test graphs have {len(want)}")
                summary["splits"].append({"name": name, "score": score(keys, times, te, p)})
        else:
            tmp = a.out + ".tmp"
            try:
                out = open(tmp, "w", encoding="utf-8", newline="")
            except OSError as e:
                raise InputError(f"{a.out}: {e.strerror or e}")
            with out:
                w = csv.writer(out, lineterminator="\n")
                w.writerow(["split", "graph", "root", "level", "impl", "pred_log_ns"])
                for name, train, val, test in splits:
                    te, pred, info = fit_split(keys, y, X, impls, train, val, test, a.seed)
                    for i, p in zip(te, pred):
                        g, root, level, impl = keys[i]
                        w.writerow([name, g, root, level, impl, repr(float(p))])
                    entry = {"name": name, **info}
                    if a.score:
                        entry["score"] = score(keys, times, te, pred)
                    summary["splits"].append(entry)
                    print(f"sklearn_hgb: {name}: fit {info['fit_seconds']:.1f} s, {info['n_train']} train rows, "
                          f"{info['n_test']} test rows", file=sys.stderr)
            os.replace(tmp, a.out)
    except InputError as e:
        die(str(e))

    if a.score or a.from_preds:
        print(f"{'split':<20} {'inputs':>6} {'MM Total':>9} {'BNS Total':>9} {'MM wins':>7} {'med err':>8}", file=sys.stderr)
        for s in summary["splits"]:
            c = s["score"]
            print(f"{s['name']:<20} {c['inputs']:>6} {c['mix_and_match_total']:>9.3f} {c['best_non_switching_total']:>9.3f} "
                  f"{'yes' if c['mix_and_match_total'] < c['best_non_switching_total'] else 'no':>7} "
                  f"{100 * c['median_abs_rel_error']:>7.1f}%", file=sys.stderr)
    text = json.dumps(summary, indent=1)
    if a.summary:
        try:
            with open(a.summary, "w", encoding="utf-8") as f:
                f.write(text + "\n")
        except OSError as e:
            die(f"{a.summary}: {e.strerror or e}")
    else:
        print(text)


if __name__ == "__main__":
    main()
