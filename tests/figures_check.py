#!/usr/bin/env python3
"""figures_check.py SRC: test "figures" (tests/CMakeLists.txt).

Draws every figure of the fixture SRC (tests/data/figures: a real
`tessera experiment NAME --csv-dir` output of each experiment on two small
workloads, see tests/data/figures/README) with scripts/figures.py into a
temporary folder, PNG only at 50 dpi without the layout pass (--draft, for
speed), and checks:

* every expected figure was drawn, as a non-empty PNG of sensible size, and
  index.html lists it (with SRC/corpus, the same experiments on the corpus
  captures, also NAME-corpus: the paper beside the built-in workloads and
  the corpus);
* each figure names its axes and has at least one series;
* every plotted value equals the value recomputed here from the CSV files
  through the series' provenance in figures.json (table, column, row filter,
  key column, offset + scale * cell; AVG: the table's "mean" row, otherwise
  the mean of the workloads' values);
* the loaders (python/tessera/load.py) read each experiment's tables as the
  CSV files hold them; with TESSERA (the binary) given, load_stats() and
  load_frames() read a real two-frame run (totals = sum of the frames,
  configuration as dotted keys), and load_results() a sweep's results.csv.

Usage: figures_check.py SRC [TESSERA]
"""
import contextlib
import io
import json
import math
import os
import runpy
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "python"))

import pandas as pd  # noqa: E402

from tessera import (load_experiment, load_experiments, load_frames, load_results,  # noqa: E402
                     load_stats)

EXPECTED = [
    "tcor-fig14", "tcor-fig15", "tcor-fig16", "tcor-fig17", "tcor-fig18", "tcor-fig19",
    "attribute-cache-fig11", "attribute-cache-fig12", "attribute-cache-fig13",
    "attribute-cache-fig11-reach", "re-fig14a", "re-fig14b", "re-fig16",
    "boustrophedonic-fig9", "boustrophedonic-fig10", "boustrophedonic-fig11",
    "boustrophedonic-fig12", "boustrophedonic-fig15", "timing-fps", "timing-energy",
    "timing-bottlenecks", "dtexl-fig11", "dtexl-fig12", "dtexl-fig13", "dtexl-fig14",
    "dtexl-fig15", "dtexl-fig16", "dtexl-fig17", "dtexl-fig18", "gspc-fig1", "gspc-fig4",
    "gspc-fig5", "gspc-fig6", "gspc-fig7", "gspc-fig9", "gspc-fig11", "gspc-fig12-8mb",
    "gspc-fig12-16mb", "gspc-fig13", "gspc-fig8", "gspc-fig14", "gspc-fig15", "gspc-fig16",
    "gspc-fig17-ddr3-1867", "gspc-fig17-less-aggressive", "workloads-ranges",
]

failures = []


def check(cond, msg):
    if not cond:
        failures.append(msg)


def close(a, b):
    if a is None or b is None:
        return a is None and (b is None or math.isnan(b))
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9)


_tables = {}  # each CSV file read once (a series per column and filter reads it again)


def recompute(src, s):
    path = os.path.join(src, table_file[s["table"]])
    if path not in _tables:
        _tables[path] = pd.read_csv(path, keep_default_na=False, na_values=[""])
    df = _tables[path]
    for c, v in s["where"].items():
        df = df[df[c].astype(str) == str(v)]
    cells = {}
    for k, v in zip(df[s["key_col"]].astype(str), df[s["column"]]):
        cells[k] = s["offset"] + s["scale"] * float(v) if v == v else float("nan")
    out = []
    for k in s["keys"]:
        if k == "AVG":
            if "mean" in cells:
                out.append(cells["mean"])
            else:
                vals = [x for x in out if not math.isnan(x)]
                out.append(sum(vals) / len(vals) if vals else float("nan"))
        else:
            out.append(cells.get(k, float("nan")))
    return out


src = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "data", "figures")
table_file = {}
for name, tables in load_experiments(src).items():
    with open(os.path.join(src, f"{name}.json"), encoding="utf-8") as f:
        man = json.load(f)
    check(list(tables) == [t["name"] for t in man["tables"]], f"{name}: tables in order")
    for t in man["tables"]:
        table_file[t["name"]] = t["file"]
        df = tables[t["name"]]
        raw = pd.read_csv(os.path.join(src, t["file"]))
        check(df.shape == raw.shape and list(df.columns) == list(raw.columns),
              f"load_experiment {t['name']}: shape {df.shape} vs {raw.shape}")
    check(list(load_experiment(os.path.join(src, f"{name}.json"))) == list(tables),
          f"{name}: load_experiment by manifest path")
# the same experiments on the corpus captures (SRC/corpus), drawn beside them
corpus = os.path.join(src, "corpus")
for name in (load_experiments(corpus) if os.path.isdir(corpus) else {}):
    with open(os.path.join(corpus, f"{name}.json"), encoding="utf-8") as f:
        for t in json.load(f)["tables"]:
            table_file["corpus/" + t["name"]] = os.path.join("corpus", t["file"])
    EXPECTED.append(f"{name}-corpus")

with tempfile.TemporaryDirectory(prefix="tsr-figures-") as out:
    # scripts/figures.py as its command line runs it, in this process (one
    # python3 importing pandas and matplotlib once, not two), its stderr
    # and exit status kept
    argv, err = sys.argv, io.StringIO()
    sys.argv = [os.path.join(ROOT, "scripts", "figures.py"), src, "-o", out, "--png-only",
                "--dpi", "50", "--draft"]
    code = 0
    try:
        with contextlib.redirect_stderr(err):
            runpy.run_path(sys.argv[0], run_name="__main__")
    except SystemExit as e:
        code = e.code
    finally:
        sys.argv = argv
    check(code == 0, f"figures.py exit {code}: {err.getvalue()}")
    check("skipped" not in err.getvalue(), f"figures.py skipped something: {err.getvalue()}")
    with open(os.path.join(out, "figures.json"), encoding="utf-8") as f:
        manifest = json.load(f)
    with open(os.path.join(out, "index.html"), encoding="utf-8") as f:
        index = f.read()
    figs = {e["id"]: e for e in manifest["figures"]}
    for fid in EXPECTED:
        check(fid in figs, f"figure {fid} not drawn")
    for fid, e in figs.items():
        png = os.path.join(out, e["png"])
        check(os.path.isfile(png) and os.path.getsize(png) > 1000, f"{fid}: PNG missing/empty")
        if os.path.isfile(png):
            with open(png, "rb") as f:
                head = f.read(24)
            check(head[:8] == b"\x89PNG\r\n\x1a\n", f"{fid}: not a PNG")
            w, h = struct.unpack(">II", head[16:24])
            check(w >= 150 and h >= 100, f"{fid}: PNG {w}x{h}")
        check(f'src="{e["png"]}"' in index, f"{fid}: not in index.html")
        check(bool(e["ylabel"]) and bool(e["caption"]) and e["paper"], f"{fid}: no labels")
        check(e["command"] and "tessera experiment" in e["command"], f"{fid}: no command")
        check(len(e["series"]) > 0, f"{fid}: no series")
        for s in e["series"]:
            want = recompute(src, s)
            got = [float("nan") if v is None else v for v in s["values"]]
            ok = len(want) == len(got) and all(
                (math.isnan(a) and math.isnan(b)) or close(a, b) for a, b in zip(got, want))
            check(ok, f"{fid}/{s['name']}: plotted {got} != data {want}")
            check(any(not math.isnan(v) for v in got), f"{fid}/{s['name']}: no value")

# the AVG of a normalised bar is the paper table's tessera mean (tcor Fig. 16)
tp = pd.read_csv(os.path.join(src, "tcor-paper.csv"))
mean16 = float(tp[tp["figure"] == 16]["tessera_mean_pct"].iloc[0])
avg = figs["tcor-fig16"]["series"][-1]["values"][-1]
check(close(avg, 1 + mean16 / 100), f"tcor-fig16 AVG {avg} != 1 + {mean16}/100")

# a run's stats.json and frames.csv, a sweep's results.csv
if len(sys.argv) > 2:
    with tempfile.TemporaryDirectory(prefix="tsr-load-") as run:
        r = subprocess.run([sys.argv[2], "run", "ui-2d", "--frames", "2", "--set",
                            "screen.width=64", "--set", "screen.height=64", "--out", run],
                           capture_output=True, text=True)
        check(r.returncode == 0, f"tessera run: {r.stderr}")
        st = load_stats(run)
        fr = load_frames(run)
        check(st["config"]["screen.width"] == 64, "load_stats: config screen.width")
        check(len(fr) == 2 and len(st["frames"]) == 2, "load_frames: two frames")
        for c in ("geometry.primitives_in", "raster.fragments_shaded"):
            check(st["totals"][c] == fr[c].sum() == st["frames"][c].sum(),
                  f"load_stats: total {c} != sum of frames")
        res = os.path.join(run, "results.csv")
        with open(res, "w", encoding="utf-8") as f:
            f.write("point,workload,config,caches.l2.size_kib,frame,dram.bytes\n"
                    "ab12,ui-2d,default,256,0,100\nab12,ui-2d,default,256,1,50\n"
                    "ab12,ui-2d,default,256,total,150\n")
        df = load_results(run)
        check(list(df["frame"]) == ["0", "1", "total"], "load_results: frame as strings")
        check(df[df["frame"] == "total"]["dram.bytes"].iloc[0] == 150, "load_results: totals")

if failures:
    print("\n".join(f"FAIL: {f}" for f in failures))
    sys.exit(1)
print(f"figures: {len(figs)} figures, every plotted value matches the tables")
