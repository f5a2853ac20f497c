"""The papers' figures from ``tessera experiment NAME --csv-dir DIR`` outputs.

Usage::

    PYTHONPATH=python python3 -m tessera.figures out/experiments -o out/figures
    python3 scripts/figures.py out/experiments -o out/figures      (the same)

For every experiment found in the input folder (its ``NAME.json`` manifest),
draws each reproduced paper figure its tables hold, in the paper's style
(grouped bars per workload with an average group, normalised as the paper
does, the paper's average marked), saves it as PNG (150 dpi) and PDF in the
output folder and writes:

* ``index.html``: every figure with its caption, the paper and figure it
  reproduces, the command that produced the data, the commit and the date;
* ``figures.json``: a manifest of every figure: its files and, for each
  plotted series, the values drawn and where they come from (table, column,
  row filter, key column, ``value = offset + scale * cell``), so that a test
  can recompute every plotted value from the CSV files.

The average group ("AVG") is the table's own ``mean`` row when it has one
(the experiments print the papers' averages beside it), otherwise the
arithmetic mean of the plotted workloads, as the papers' "AVG" bars are.
Paper values come from the experiments' ``*-paper`` tables when present,
otherwise from the papers (the caption cites the section).
"""
from __future__ import annotations

import argparse
import datetime
import html
import json
import math
import os
import sys
from typing import Any, Callable

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from .load import load_experiments  # noqa: E402

__all__ = ["draw_all", "main"]

AVG = "AVG"
DPI = 150
COLORS = ["#4c72b0", "#dd8452", "#55a868", "#c44e52", "#8172b3", "#937860", "#da8bc3",
          "#8c8c8c", "#ccb974", "#64b5cd", "#2f4b7c", "#a05195"]
PAPER_COLOR = "black"

plt.rcParams.update({
    "font.size": 8, "axes.titlesize": 9, "axes.labelsize": 8, "legend.fontsize": 7,
    "xtick.labelsize": 7, "ytick.labelsize": 7, "axes.spines.top": False,
    "axes.spines.right": False, "pdf.fonttype": 42, "svg.fonttype": "none",
})


# ---------------------------------------------------------------------------
# data access with provenance

def _num(v: Any) -> float:
    try:
        f = float(v)
    except (TypeError, ValueError):
        return float("nan")
    return f


class Series:
    """One plotted series: values per key, and where they come from.

    value(key) = offset + scale * table[column] of the row where key_col == key
    and every (col == val) of ``where`` holds; the AVG key takes the row whose
    key_col is "mean" when the table has one, otherwise the mean of the other
    values.
    """

    def __init__(self, name: str, df: pd.DataFrame, table: str, column: str, keys: list,
                 key_col: str = "workload", where: dict | None = None, scale: float = 1.0,
                 offset: float = 0.0, avg: bool = True):
        self.name, self.table, self.column, self.key_col = name, table, column, key_col
        self.where = dict(where or {})
        self.scale, self.offset = scale, offset
        sel = df
        for c, v in self.where.items():
            sel = sel[sel[c].astype(str) == str(v)]
        by_key = {str(k): r for k, r in zip(sel[key_col].astype(str), sel[column])}
        self.keys = [str(k) for k in keys]
        self.values = [offset + scale * _num(by_key.get(k)) for k in self.keys]
        if avg:
            if "mean" in by_key:
                a = offset + scale * _num(by_key["mean"])
            else:
                vals = [v for v in self.values if not math.isnan(v)]
                a = float(np.mean(vals)) if vals else float("nan")
            self.keys.append(AVG)
            self.values.append(a)

    def manifest(self) -> dict:
        return {"name": self.name, "keys": self.keys,
                "values": [None if math.isnan(v) else v for v in self.values],
                "table": self.table, "column": self.column, "key_col": self.key_col,
                "where": self.where, "scale": self.scale, "offset": self.offset}


def _workloads(df: pd.DataFrame, col: str = "workload") -> list[str]:
    """The table's workloads in order of appearance, without its mean row."""
    seen: list[str] = []
    for w in df[col].astype(str):
        if w != "mean" and w not in seen:
            seen.append(w)
    return seen


def _paper(tables: dict, name: str, figure: str, contains: str, col: str = "paper_pct"):
    """(paper value, tessera value) of the paper table's row of `figure` whose
    quantity contains `contains`, or None."""
    t = tables.get(name)
    if t is None:
        return None
    for _, r in t.iterrows():
        if str(r["figure"]) == str(figure) and contains in str(r["quantity"]):
            tcol = [c for c in t.columns if c.startswith("tessera")][0]
            return _num(r[col]), _num(r[tcol])
    return None


# ---------------------------------------------------------------------------
# drawing

def _pretty(key: str) -> str:
    """A workload as the figures show it: "workloads/ui-2d.json" -> "ui-2d"."""
    k = str(key)
    if k.endswith(".json"):
        k = os.path.basename(k)[:-5]
    return k


def _label_workloads(ax, keys: list[str], x):
    keys = [_pretty(k) for k in keys]
    ax.set_xticks(x)
    rot = 35 if len(keys) > 4 else 0
    ax.set_xticklabels(keys, rotation=rot, ha="right" if rot else "center",
                       rotation_mode="anchor")
    for lab in ax.get_xticklabels():
        if lab.get_text() == AVG:
            lab.set_fontweight("bold")


def _fig_width(groups: int, per_group: int) -> float:
    return float(min(16.0, max(6.0, 0.9 + groups * (0.22 * per_group + 0.25))))


def grouped_bars(ax, series: list[Series], paper: list[tuple] | None = None,
                 ylabel: str = "", baseline: float | None = None):
    """Grouped bars: one group per key (workloads and AVG), one bar per series.

    paper: (label, value, series index or None): a marker on that series' AVG
    bar, or (index None) a dashed horizontal line across the axes.
    """
    keys = series[0].keys
    n = len(series)
    x = np.arange(len(keys), dtype=float)
    if keys and keys[-1] == AVG:
        x[-1] += 0.4  # the average group set apart
    w = 0.8 / n
    for i, s in enumerate(series):
        vals = np.array([np.nan if v is None else v for v in s.values], dtype=float)
        xs = x + (i - (n - 1) / 2) * w
        ax.bar(xs, vals, w, label=s.name, color=COLORS[i % len(COLORS)],
               edgecolor="black", linewidth=0.3)
        for xv, v in zip(xs, vals):  # a bar of exactly 0 is drawn as a "0", not left blank
            if v == 0:
                ax.text(xv, 0, "0", ha="center", va="bottom", fontsize=5.5, color="dimgray")
    if baseline is not None:
        ax.axhline(baseline, color="black", linewidth=0.6)
    if keys and keys[-1] == AVG:
        ax.axvline(x[-1] - 0.7, color="grey", linewidth=0.5, linestyle=":")
    for j, (label, value, idx) in enumerate(paper or []):
        if value is None or math.isnan(value):
            continue
        if idx is None:
            ax.axhline(value, color=PAPER_COLOR, linestyle="--", linewidth=0.9,
                       label=f"paper: {label}" if label else f"paper avg: {value:g}")
        else:
            ax.plot([x[-1] + (idx - (n - 1) / 2) * w], [value], marker="*", markersize=9,
                    color="white", markeredgecolor="black", markeredgewidth=0.8,
                    linestyle="none", zorder=5)
    if any(p[2] is not None and p[1] is not None and not math.isnan(p[1]) for p in paper or []):
        ax.plot([], [], marker="*", markersize=9, color="white", markeredgecolor="black",
                linestyle="none", label="paper avg (star)")
    _label_workloads(ax, keys, x)
    ax.set_ylabel(ylabel)
    ax.yaxis.grid(True, linewidth=0.3, alpha=0.6)
    ax.set_axisbelow(True)
    ax.set_xlim(x[0] - 0.6, x[-1] + 0.6)


def _fig_height(groups: int) -> float:
    """Taller when wide, so that a wide figure stays readable scaled down."""
    return 3.2 if groups <= 8 else 3.8


def stacked_bars(ax, series: list[Series], paper_stack: list[tuple] | None = None):
    """One stacked bar per key (workloads and AVG); paper_stack: (label, value) of the
    paper's average, drawn as a hatched bar after AVG with its parts labelled."""
    keys = series[0].keys
    x = np.arange(len(keys), dtype=float)
    if keys and keys[-1] == AVG:
        x[-1] += 0.4
    bottom = np.zeros(len(x))
    for i, s in enumerate(series):
        vals = np.nan_to_num(np.array(s.values, dtype=float))
        ax.bar(x, vals, 0.6, bottom=bottom, label=s.name, color=COLORS[i % len(COLORS)],
               edgecolor="black", linewidth=0.3)
        bottom += vals
    labels = list(keys)
    if paper_stack:
        xb = x[-1] + 1.0
        b = 0.0
        for i, (n, val) in enumerate(paper_stack):
            ax.bar([xb], [val], 0.6, bottom=[b], color=COLORS[i % len(COLORS)], alpha=0.35,
                   edgecolor="black", linewidth=0.4, hatch="//")
            ax.text(xb + 0.35, b + val / 2, f"{n} {val:g}%", fontsize=5.5, va="center")
            b += val
        x = np.append(x, xb)
        labels.append("paper AVG")
    _label_workloads(ax, labels, x)
    ax.set_xlim(x[0] - 0.6, x[-1] + (1.6 if paper_stack else 0.6))
    ax.yaxis.grid(True, linewidth=0.3, alpha=0.6)
    ax.set_axisbelow(True)


def _legend(ax, fig=None, ncol: int | None = None):
    h, lab = ax.get_legend_handles_labels()
    if not h:
        return
    ncol = ncol or min(len(h), 4)
    ax.legend(h, lab, ncol=ncol, loc="lower left", bbox_to_anchor=(0.0, 1.01),
              frameon=False, borderaxespad=0.2)


class Figures:
    """Collects the figures drawn: files, manifest entries, index rows."""

    def __init__(self, out: str, formats: tuple = ("png", "pdf"), dpi: int = DPI,
                 draft: bool = False):
        self.out = out
        self.dpi = dpi
        self.draft = draft  # no layout pass (tight_layout): labels may overlap
        self.formats = formats
        self.entries: list[dict] = []
        os.makedirs(out, exist_ok=True)

    def save(self, fig, fid: str, paper: str, number: str, caption: str, xp: dict,
             series: list[Series], ylabel: str, xlabel: str = "", paper_values=None):
        """Saves fig as <fid>.png and <fid>.pdf and records it."""
        if not self.draft:
            fig.tight_layout(rect=getattr(fig, "tsr_rect", (0, 0, 1, 1)))
        png, pdf = f"{fid}.png", f"{fid}.pdf"
        fig.savefig(os.path.join(self.out, png), dpi=self.dpi)
        if "pdf" in self.formats:
            fig.savefig(os.path.join(self.out, pdf))
        else:
            pdf = None
        plt.close(fig)
        man = next(iter(xp.values())).attrs.get("manifest", {})
        self.entries.append({
            "id": fid, "paper": paper, "figure": number, "caption": caption,
            "experiment": man.get("experiment"), "command": man.get("command"),
            "commit": man.get("commit"), "tessera_version": man.get("tessera_version"),
            "png": png, "pdf": pdf, "ylabel": ylabel, "xlabel": xlabel,
            "paper_values": [{"label": p[0], "value": p[1]} for p in (paper_values or [])
                             if p[1] is not None and not math.isnan(p[1])],
            "series": [s.manifest() for s in series],
        })


# ---------------------------------------------------------------------------
# one function per experiment: draws what its tables hold

def _norm_bars(F: Figures, xp: dict, fid: str, paper: str, number: str, caption: str,
               table: str, series_spec: list[tuple], ylabel: str, paper_marks=None,
               key_col: str = "workload", baseline: float | None = 1.0, title: str = ""):
    """series_spec: (name, column, where, scale, offset)."""
    df = xp[table]
    keys = _workloads(df, key_col)
    series = [Series(n, df, table, c, keys, key_col, w, s, o) for n, c, w, s, o in series_spec]
    w = _fig_width(len(keys) + 1, len(series))
    fig, ax = plt.subplots(figsize=(w, 3.2 if w < 10 else 4.2))
    grouped_bars(ax, series, paper_marks, ylabel, baseline)
    if title:
        ax.set_xlabel(f"workload ({title})")
    _legend(ax)
    F.save(fig, fid, paper, number, caption, xp, series, ylabel, "workload",
           [(p[0], p[1]) for p in (paper_marks or [])])


def figs_tcor(F: Figures, xp: dict):
    t = xp["tcor"]
    paper = "TCOR: A Tile Cache with Optimal Replacement"
    specs = [
        ("14", "pb_l2_change_pct", "tcor-table1", "64 KiB",
         "Parameter Buffer accesses to the L2", [("TCOR", "tcor-64k")]),
        ("15", "pb_l2_change_pct", "tcor-table1-128k", "128 KiB",
         "Parameter Buffer accesses to the L2", [("TCOR", "tcor-128k")]),
        ("16", "pb_dram_change_pct", "tcor-table1", "64 KiB",
         "Parameter Buffer accesses to main memory",
         [("L2 policy only", "tcor-l2-only"), ("TCOR without L2 enhancements", "tcor-64k-no-l2"),
          ("TCOR", "tcor-64k")]),
        ("17", "pb_dram_change_pct", "tcor-table1-128k", "128 KiB",
         "Parameter Buffer accesses to main memory", [("TCOR", "tcor-128k")]),
        ("18", "dram_change_pct", "tcor-table1", "64 KiB", "Total main memory accesses",
         [("L2 policy only", "tcor-l2-only"), ("TCOR without L2 enhancements", "tcor-64k-no-l2"),
          ("TCOR", "tcor-64k")]),
        ("19", "dram_change_pct", "tcor-table1-128k", "128 KiB", "Total main memory accesses",
         [("TCOR", "tcor-128k")]),
    ]
    for number, col, base, size, what, configs in specs:
        present = set(t["config"].astype(str))
        configs = [(n, c) for n, c in configs if c in present]
        if not configs:
            continue
        p = _paper(xp, "tcor-paper", number, col.replace("_pct", "") + "_pct (" + size)
        marks = [("", 1 + p[0] / 100, None)] if p else []
        # the mean of the whole table (tcor-paper) is over every workload: the
        # TCOR series' AVG is the mean of the per-workload ratios, the same
        spec = [(n, col, {"config": c}, 0.01, 1.0) for n, c in configs]
        _norm_bars(F, xp, f"tcor-fig{number}", paper, number,
                   f"{what}, normalised to the baseline ({size} Tile Cache; baseline "
                   f"{base}). Paper average (TCOR V-B, Fig. {number}): "
                   f"{p[0]:+.1f}% (dashed line); tessera's mean {p[1]:+.1f}%." if p else
                   f"{what}, normalised to the baseline ({size} Tile Cache).",
                   "tcor", spec, f"{what.split(' accesses')[0]} accesses / baseline (ratio)"
                   if "Total" not in what else "main memory bytes / baseline (ratio)",
                   marks, title=f"{size} Tile Cache")


def figs_attribute_cache(F: Figures, xp: dict):
    t = xp["attribute-cache"].copy()
    paper = "TCOR: A Tile Cache with Optimal Replacement"
    t["size_kib"] = t["size_bytes"].astype(float) / 1024
    workloads = _workloads(t)
    reach = xp.get("attribute-cache-reach")
    panels = [
        ("11", "Attribute Cache miss ratio against size, fully associative: OPT and LRU "
         "with the lower bound LB = TP + max(0, TP - CP). Paper (TCOR V-A): OPT reaches LB "
         "near 55 KiB, LRU at 375 KiB (dotted lines).",
         [("full", "opt"), ("full", "lru")]),
        ("12", "Attribute Cache miss ratio against size for 2, 4 and 8 ways and fully "
         "associative, LRU (dashed) and OPT (solid), with LB. Paper (TCOR V-A, Fig. 12): "
         "2-way OPT close to fully associative LRU.",
         [(w, p) for w in ("2", "4", "8", "full") for p in ("opt", "lru")]),
        ("13", "Attribute Cache miss ratio against size, 4 ways: LRU, MRU, DRRIP and OPT, "
         "with LB. Paper (TCOR V-A, Fig. 13): MRU highest, then DRRIP close to LRU, OPT "
         "falls quickly to LB.", [("4", "lru"), ("4", "mru"), ("4", "drrip"), ("4", "opt")]),
    ]
    styles = {"opt": "-", "lru": "--", "mru": ":", "drrip": "-."}
    way_colors = {"2": COLORS[0], "4": COLORS[1], "8": COLORS[2], "full": COLORS[3]}
    pol_colors = {"opt": COLORS[0], "lru": COLORS[1], "mru": COLORS[2], "drrip": COLORS[3]}
    for number, caption, curves in panels:
        n = len(workloads)
        cols = min(n, 2)
        rows = math.ceil(n / cols)
        fig, axes = plt.subplots(rows, cols, figsize=(4.0 * cols, 2.7 * rows + 0.4),
                                 squeeze=False)
        series: list[Series] = []
        for i, w in enumerate(workloads):
            ax = axes[i // cols][i % cols]
            sel = t[(t["workload"].astype(str) == w)]
            for ways, pol in curves:
                sub = sel[(sel["ways"].astype(str) == ways) & (sel["policy"] == pol)]
                sizes = sorted(set(sub["size_bytes"].astype(int)))
                s = Series(f"{w}/{pol.upper()} {ways}{'-way' if ways != 'full' else ''}", t,
                           "attribute-cache", "miss_ratio", sizes, "size_bytes",
                           {"workload": w, "ways": ways, "policy": pol}, avg=False)
                series.append(s)
                color = way_colors[ways] if number == "12" else pol_colors[pol]
                label = (f"{pol.upper()} {ways}-way" if ways != "full" else
                         f"{pol.upper()} fully assoc.") if number == "12" else pol.upper()
                ax.plot(np.array(sizes) / 1024, s.values, styles[pol], color=color,
                        marker="o", markersize=2.5, linewidth=1.0, label=label)
            lb = sel[(sel["ways"].astype(str) == curves[0][0]) & (sel["policy"] == curves[0][1])]
            sizes = sorted(set(lb["size_bytes"].astype(int)))
            s = Series(f"{w}/LB", t, "attribute-cache", "lower_bound_ratio", sizes,
                       "size_bytes", {"workload": w, "ways": curves[0][0],
                                      "policy": curves[0][1]}, avg=False)
            series.append(s)
            ax.plot(np.array(sizes) / 1024, s.values, color="black", linewidth=1.4,
                    label="LB", zorder=0, alpha=0.6)
            if number == "11":
                ax.axvline(55, color=COLORS[0], linestyle=":", linewidth=0.8,
                           label="paper: OPT at LB, 55 KiB")
                ax.axvline(375, color=COLORS[1], linestyle=":", linewidth=0.8,
                           label="paper: LRU at LB, 375 KiB")
            ax.set_xscale("log", base=2)
            ax.xaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(
                lambda v, _: f"{v:g}"))
            ax.set_title(w, fontsize=8)
            ax.set_xlabel("Attribute Cache size (KiB, log scale)")
            ax.set_ylabel("miss ratio (misses / accesses)")
            ax.yaxis.grid(True, linewidth=0.3, alpha=0.6)
            if i == 0:
                ax.legend(frameon=False, fontsize=6, ncol=2 if number == "12" else 1)
        for j in range(n, rows * cols):
            axes[j // cols][j % cols].axis("off")
        F.save(fig, f"attribute-cache-fig{number}", paper, number, caption, xp, series,
               "miss ratio", "Attribute Cache size (KiB)",
               [("OPT at LB (KiB)", 55.0), ("LRU at LB (KiB)", 375.0)] if number == "11" else [])
    if reach is not None:
        r = reach[reach["ways"].astype(str) == "full"]
        keys = _workloads(r)
        series = [Series("OPT", r, "attribute-cache-reach", "opt_kib", keys, "workload",
                         {"ways": "full"}, avg=False),
                  Series("LRU", r, "attribute-cache-reach", "lru_kib", keys, "workload",
                         {"ways": "full"}, avg=False)]
        top = float(t["size_kib"].max())
        fig, ax = plt.subplots(figsize=(_fig_width(len(keys), 2), 3.0))
        grouped_bars(ax, series, [], "smallest size within 0.1% of LB (KiB, log scale)")
        # a policy that never reaches LB in the sweep: a hatched bar past its largest size
        for i, s in enumerate(series):
            for j, v in enumerate(s.values):
                if math.isnan(v):
                    xv = j + (i - 0.5) * 0.4
                    ax.bar([xv], [top * 1.5], 0.4, color="white", edgecolor=COLORS[i],
                           hatch="///", linewidth=0.6)
                    ax.text(xv, top * 1.5, f">{top:g}", ha="center", va="bottom", fontsize=6)
        for i, (pol, v) in enumerate((("OPT", 55.0), ("LRU", 375.0))):
            ax.axhline(v, color=COLORS[i], linestyle="--", linewidth=0.9,
                       label=f"paper: {pol} at LB from {v:g} KiB")
        ax.set_yscale("log", base=2)
        ax.set_ylim(top=top * 4)
        ax.yaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda v, _: f"{v:g}"))
        _legend(ax)
        F.save(fig, "attribute-cache-fig11-reach", paper, "11",
               "Fully associative Attribute Cache size from which OPT and LRU stay within 0.1% "
               f"of the lower bound; hatched: not reached up to {top:g} KiB. Paper (TCOR V-A): "
               "55 KiB for OPT, 375 KiB for LRU (dashed lines).", xp, series, "KiB",
               "workload", [("OPT", 55.0), ("LRU", 375.0)])


def figs_re(F: Figures, xp: dict):
    paper = "Rendering Elimination: Early Discard of Redundant Tiles (RE)"
    p_sk = _paper(xp, "re-paper", "14a", "tiles_skipped_pct")
    p_fn = _paper(xp, "re-paper", "14a", "false_negatives_pct")
    p_dr = _paper(xp, "re-paper", "14b", "re_dram_change_pct")
    # Fig. 14a as the paper draws it: one stacked bar per workload (equal inputs at
    # the bottom, equal colour with different inputs, changed on top), the paper's
    # average as a bar of its own
    t = xp["re"]
    keys = _workloads(t)
    series = [Series(n, t, "re", c, keys) for n, c in (
        ("equal inputs (RE skips them)", "equal_inputs_pct"),
        ("equal colour, different inputs", "false_negatives_pct"),
        ("different inputs and colour", "changed_pct"))]
    sk = p_sk[0] if p_sk else 50.0
    fn = p_fn[0] if p_fn else 12.0
    fig, ax = plt.subplots(figsize=(_fig_width(len(keys) + 2, 1.2), _fig_height(len(keys) + 2)))
    stacked_bars(ax, series, [("equal inputs", sk), ("equal colour", fn),
                              ("changed", 100 - sk - fn)])
    ax.set_ylabel("tiles across neighbouring frames (%)")
    ax.set_ylim(0, 105)
    _legend(ax, ncol=3)
    F.save(fig, "re-fig14a", paper, "14a",
           "Tiles across neighbouring frames: equal inputs (skipped by RE), equal colour with "
           "different inputs (RE's false negatives) and different inputs and colour, in % of "
           f"the tiles. Last bar: the paper's averages (RE V, Fig. 14a: {sk:g}%, {fn:g}%, "
           f"{100 - sk - fn:g}%). RE skips the equal-input tiles but those of its refresh "
           "frames (the table's tiles_skipped_pct).", xp, series, "% of tiles", "workload",
           [("equal inputs", sk), ("equal colour, different inputs", fn)])
    _norm_bars(F, xp, "re-fig14b", paper, "14b",
               "Main memory traffic of RE normalised to the baseline, in total and per stream "
               "(Parameter Buffer, texture, colour buffer flushes, whole Raster Pipeline). "
               f"Paper average (RE V, Fig. 14b): {p_dr[0] if p_dr else -48:+g}% (dashed line).",
               "re", [("total", "re_dram_change_pct", {}, 0.01, 1.0),
                      ("Parameter Buffer", "re_pb_dram_change_pct", {}, 0.01, 1.0),
                      ("texture", "re_texture_dram_change_pct", {}, 0.01, 1.0),
                      ("colour buffer", "re_color_dram_change_pct", {}, 0.01, 1.0),
                      ("Raster Pipeline", "re_raster_dram_change_pct", {}, 0.01, 1.0)],
               "main memory traffic / baseline (ratio)",
               [("", 1 + (p_dr[0] if p_dr else -48.0) / 100, None)])
    t = xp["re"]
    timed = "re_energy_change_pct" in t and t["re_energy_change_pct"].notna().any()
    spec = [("TE", "te_dram_change_pct", {}, 0.01, 1.0),
            ("RE", "re_dram_change_pct", {}, 0.01, 1.0),
            ("RE+TE", "re_te_dram_change_pct", {}, 0.01, 1.0)]
    cap = ("Main memory traffic of Transaction Elimination (TE), RE and both, normalised to "
           "the baseline. The paper's Fig. 16 compares cycles and energy (RE V-C: energy TE "
           "-9%, RE -43%); tessera's energy needs the timing model (experiment re --set "
           "timing.enabled=true), then plotted with stars for the paper's averages")
    marks = []
    if timed:
        spec = [("TE energy", "te_energy_change_pct", {}, 0.01, 1.0),
                ("RE energy", "re_energy_change_pct", {}, 0.01, 1.0)] + spec
        marks = [("", 0.91, 0), ("", 0.57, 1)]
    _norm_bars(F, xp, "re-fig16", paper, "16", cap + ".", "re", spec,
               "traffic (energy) / baseline (ratio)", marks)


def figs_boustrophedonic(F: Figures, xp: dict):
    paper = "Boustrophedonic Frames: texture caching"
    fdm = xp.get("boustrophedonic-fdm")
    if fdm is not None:
        keys = list(fdm["s"].astype(str))
        s1 = Series("tessera (loop traces)", fdm, "boustrophedonic-fdm", "fdm_pct", keys, "s",
                    avg=False)
        s2 = Series("paper (j = 8)", fdm, "boustrophedonic-fdm", "paper_fdm_pct", keys, "s",
                    avg=False)
        fig, ax = plt.subplots(figsize=(5.5, 3.0))
        xs = fdm["s"].astype(float)
        ax.plot(xs, s1.values, "o-", color=COLORS[0], label=s1.name, markersize=3)
        ax.plot(xs, s2.values, "x--", color=PAPER_COLOR, label=s2.name, markersize=4,
                linewidth=0.8)
        ax.set_xlabel("cache size s (lines)")
        ax.set_ylabel("FDM of LRU-RO vs LRU-FO (%)")
        ax.yaxis.grid(True, linewidth=0.3, alpha=0.6)
        ax.legend(frameon=False)
        F.save(fig, "boustrophedonic-fig9", paper, "9",
               "Fraction of misses removed (FDM) by reversing every other frame (LRU-RO vs "
               "LRU-FO) on a loop of j = 8 lines for cache sizes s (boustrophedonic IV, "
               "Fig. 9): tessera's replay against the paper's formula.", xp, [s1, s2],
               "FDM (%)", "s")
    t = xp["boustrophedonic"]
    pols = [("LRU-RO", "lru-ro"), ("OPT-FO", "opt-fo"), ("OPTPT-FO", "optpt-fo"),
            ("OPT-RO", "opt-ro"), ("OPTPT-RO", "optpt-ro")]
    marks = []
    for i, (_, p) in enumerate(pols):
        v = _paper(xp, "boustrophedonic-paper", "10", f"{p} vs lru-fo")
        if v:
            marks.append(("", 1 + v[0] / 100, i))
    _norm_bars(F, xp, "boustrophedonic-fig10", paper, "10",
               "Texture-only L2 misses normalised to LRU with the forward tile order (LRU-FO): "
               "reversed order every other frame (RO), OPT and OPTPT. Stars: the paper's "
               "averages (boustrophedonic V-A, Fig. 10: -43.6%, -47.7%, -50.4%, -52.9%, "
               "-55.0%).", "boustrophedonic",
               [(n, "change_pct", {"policy": p}, 0.01, 1.0) for n, p in pols],
               "texture L2 misses / LRU-FO (ratio)", marks)
    v = _paper(xp, "boustrophedonic-paper", "15", "mru-fo vs lru-fo")
    _norm_bars(F, xp, "boustrophedonic-fig15", paper, "15",
               "Texture-only L2 misses of MRU (forward order) normalised to LRU-FO. Paper "
               f"average (boustrophedonic V, Fig. 15): {v[0] if v else 3.6:+g}% (dashed).",
               "boustrophedonic", [("MRU-FO", "change_pct", {"policy": "mru-fo"}, 0.01, 1.0)],
               "texture L2 misses / LRU-FO (ratio)",
               [("", 1 + (v[0] if v else 3.6) / 100, None)])
    sh = xp.get("boustrophedonic-shared")
    if sh is not None:
        df = sh[sh["run"] == "lru-fo"]
        keys = _workloads(df)
        streams = [("texture", "texture_pct"), ("Parameter Buffer", "pb_pct"),
                   ("geometry", "geometry_pct"), ("instructions", "instruction_pct"),
                   ("other", "other_pct")]
        series = [Series(n, sh, "boustrophedonic-shared", c, keys, "workload",
                         {"run": "lru-fo"}) for n, c in streams]
        v = _paper(xp, "boustrophedonic-paper", "11", "texture share")
        fig, ax = plt.subplots(figsize=(_fig_width(len(keys) + 1, 1.5), 3.2))
        x = np.arange(len(series[0].keys), dtype=float)
        x[-1] += 0.4
        bottom = np.zeros(len(x))
        for i, s in enumerate(series):
            vals = np.nan_to_num(np.array(s.values, dtype=float))
            ax.bar(x, vals, 0.6, bottom=bottom, label=s.name, color=COLORS[i],
                   edgecolor="black", linewidth=0.3)
            bottom += vals
        if v:
            ax.plot([x[-1]], [v[0]], marker="*", markersize=10, color="white",
                    markeredgecolor="black", linestyle="none", zorder=5,
                    label=f"paper avg texture share: {v[0]:g}%")
        _label_workloads(ax, series[0].keys, x)
        ax.set_ylabel("share of shared-L2 misses (%)")
        ax.set_ylim(0, 105)
        _legend(ax, ncol=3)
        F.save(fig, "boustrophedonic-fig11", paper, "11",
               "Shared L2 misses per stream with LRU-FO (configs/boustrophedonic-table2.json). "
               f"Paper (boustrophedonic V-B, Fig. 11): texture {v[0] if v else 63.6:g}% of the "
               "L2 misses on average (star).", xp, series, "% of L2 misses", "workload",
               [("texture share", v[0] if v else 63.6)])
        v = _paper(xp, "boustrophedonic-paper", "12", "DRAM traffic lru-ro")
        _norm_bars(F, xp, "boustrophedonic-fig12", paper, "12",
                   "Total DRAM traffic with the shared L2, normalised to LRU-FO: LRU-RO and "
                   f"MRU-FO. Paper (boustrophedonic V-B, Fig. 12): LRU-RO {v[0] if v else -5.6:+g}%"
                   " on average (star).", "boustrophedonic-shared",
                   [("LRU-RO", "dram_change_pct", {"run": "lru-ro"}, 0.01, 1.0),
                    ("MRU-FO", "dram_change_pct", {"run": "mru-fo"}, 0.01, 1.0)],
                   "DRAM bytes / LRU-FO (ratio)", [("", 1 + (v[0] if v else -5.6) / 100, 0)])


ENERGY = [("DRAM", "energy_dram_pct"), ("caches", "energy_caches_pct"),
          ("shader cores", "energy_shader_cores_pct"), ("texture units", "energy_texture_units_pct"),
          ("raster", "energy_raster_pct"), ("geometry", "energy_geometry_pct"),
          ("tiling", "energy_tiling_pct"), ("other", "energy_other_pct")]


def figs_timing(F: Figures, xp: dict):
    t = xp["timing"]
    keys = _workloads(t)
    paper = "timing model (papers' GPUs)"
    s = Series("frames per second", t, "timing", "fps", keys)
    fig, ax = plt.subplots(figsize=(_fig_width(len(keys) + 1, 1.2), 3.2))
    grouped_bars(ax, [s], [], "frames per second")
    ax.axhline(60, color="dimgray", linestyle=":", linewidth=0.9, label="60 FPS")
    _legend(ax)
    F.save(fig, "timing-fps", paper, "-",
           "Frames per second of each workload under the timing model on the default "
           "configuration (600 MHz GPU, TCOR Table I / DTexL Table II); the dotted line marks "
           "60 FPS. No paper figure: the papers report relative speedups only.", xp, [s],
           "FPS", "workload")
    # energy per frame (mJ) split per component: energy * share / 100
    series = []
    for name, col in ENERGY:
        if col in t:
            series.append(Series(name, t, "timing", col, keys))
    tot = Series("energy per frame", t, "timing", "energy_mj_per_frame", keys)
    if len(keys) > 8:  # one panel above the other, each as wide as a bar figure
        fig, (ax1, ax2) = plt.subplots(2, 1, figsize=(_fig_width(len(keys) + 1, 1.2), 6.6))
    else:
        fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(min(16, 2 * _fig_width(len(keys) + 1,
                                                                             1.0)), 3.4))
    x = np.arange(len(tot.keys), dtype=float)
    x[-1] += 0.4
    bottom_mj = np.zeros(len(x))
    bottom_pct = np.zeros(len(x))
    for i, s in enumerate(series):
        pct = np.nan_to_num(np.array(s.values, dtype=float))
        mj = pct / 100 * np.nan_to_num(np.array(tot.values, dtype=float))
        ax1.bar(x, mj, 0.6, bottom=bottom_mj, color=COLORS[i], edgecolor="black",
                linewidth=0.3, label=s.name)
        ax2.bar(x, pct, 0.6, bottom=bottom_pct, color=COLORS[i], edgecolor="black",
                linewidth=0.3, label=s.name)
        bottom_mj += mj
        bottom_pct += pct
    tp = xp.get("timing-paper")
    share = 50.0
    if tp is not None:
        for _, r in tp.iterrows():
            if "main memory share of energy" in str(r["quantity"]):
                share = _num(r["paper"])
    ax2.axhline(share, color=PAPER_COLOR, linestyle="--", linewidth=0.9,
                label=f"paper: main memory {share:g}% of energy")
    for ax, lab in ((ax1, "energy per frame (mJ)"), (ax2, "share of the frame's energy (%)")):
        _label_workloads(ax, tot.keys, x)
        ax.set_ylabel(lab)
        ax.yaxis.grid(True, linewidth=0.3, alpha=0.6)
        ax.set_axisbelow(True)
    ax2.set_ylim(0, 105)
    h, lab = ax2.get_legend_handles_labels()
    fig.legend(h, lab, ncol=5, loc="upper center", frameon=False, bbox_to_anchor=(0.5, 1.0))
    fig.tsr_rect = (0, 0, 1, 0.84 if len(keys) <= 8 else 0.92)
    F.save(fig, "timing-energy", paper, "RE Fig. 13b (energy split)",
           "Energy per frame split per component (mJ, and shares of the frame's energy), "
           "timing model on "
           "the default configuration. The dashed line marks RE V-B's (Fig. 13b) main-memory "
           f"share of the energy, about {share:g}%.", xp, series + [tot],
           "energy", "workload", [("main memory share %", share)])
    bn = xp.get("timing-bottlenecks")
    if bn is not None:
        cols = [c for c in bn.columns if c.endswith("_pct") and c != "cores_waiting_memory_pct"]
        keys = _workloads(bn)
        series = [Series(c[:-4].replace("_", " "), bn, "timing-bottlenecks", c, keys)
                  for c in cols]
        fig, ax = plt.subplots(figsize=(_fig_width(len(keys) + 1, 1.2), 3.4))
        x = np.arange(len(series[0].keys), dtype=float)
        x[-1] += 0.4
        bottom = np.zeros(len(x))
        for i, s in enumerate(series):
            v = np.nan_to_num(np.array(s.values, dtype=float))
            ax.bar(x, v, 0.6, bottom=bottom, color=COLORS[i % len(COLORS)], edgecolor="black",
                   linewidth=0.3, label=s.name)
            bottom += v
        _label_workloads(ax, series[0].keys, x)
        ax.set_ylabel("share of the frame's cycles (%)")
        ax.set_ylim(0, 105)
        _legend(ax, ncol=5)
        F.save(fig, "timing-bottlenecks", paper, "RE Fig. 13a (cycle split)",
               "Where each frame's cycles go (bottleneck stage), timing model; RE V-B Fig. 13a "
               "splits the cycles into Geometry and Raster Pipelines the same way.", xp,
               series, "% of cycles", "workload")


DTEXL_GROUPINGS = ["fg-yshift2", "fg-xshift1", "fg-xshift3", "fg-xshift0", "fg-yshift0",
                   "cg-xrect", "cg-yrect", "cg-triangle", "cg-square"]


def figs_dtexl(F: Figures, xp: dict):
    paper = "DTexL: Decoupled Raster Pipeline for Texture Locality"
    for number, table, what, ylabel, pk in (
            ("11", "dtexl-fig11", "L2 accesses", "L2 accesses / FG-xshift2 (ratio)",
             [("cg-square", "CG-square vs"), ("cg-xrect", "CG-xrect vs"),
              ("cg-yrect", "CG-yrect vs")]),
            ("12", "dtexl-fig12", "mean deviation of the quad distribution",
             "quad deviation / FG-xshift2 (ratio)",
             [("cg-xrect", "CG-xrect vs"), ("cg-yrect", "CG-yrect vs")])):
        if table not in xp:
            continue
        cols = [g for g in DTEXL_GROUPINGS if g in xp[table].columns]
        marks = []
        for g, q in pk:
            v = _paper(xp, "dtexl-paper", number, q)
            if v and g in cols:
                marks.append(("", 1 + v[0] / 100, cols.index(g)))
        _norm_bars(F, xp, f"dtexl-fig{number}", paper, number,
                   f"{what[0].upper() + what[1:]} of the quad groupings normalised to "
                   f"FG-xshift2 (fine-grained FG-*, coarse-grained CG-*). Stars: the paper's "
                   f"averages (DTexL V-A, Fig. {number}).", table,
                   [(g.upper().replace("SHIFT", "shift").replace("RECT", "rect")
                     .replace("SQUARE", "square").replace("TRIANGLE", "triangle"),
                     g, {}, 1.0, 0.0) for g in cols], ylabel, marks)
    if "dtexl-fig13-15" in xp:
        t = xp["dtexl-fig13-15"]
        v = _paper(xp, "dtexl-paper", "13", "speedup CG-square")
        _norm_bars(F, xp, "dtexl-fig13", paper, "13",
                   "Speedup of CG-square and CG-yrect with coupled barriers w.r.t. FG-xshift2. "
                   "Paper (DTexL V-A, Fig. 13): no speedup (dashed line at 1).",
                   "dtexl-fig13-15", [("CG-square", "speedup_cg_square", {}, 1.0, 0.0),
                                      ("CG-yrect", "speedup_cg_yrect", {}, 1.0, 0.0)],
                   "speedup (x)", [("", 1 + (v[0] if v else 0.0) / 100, None)])
        for number, kind, what in (("14", "time", "execution time"),
                                   ("15", "quad", "quad distribution")):
            keys = _workloads(t) + ["mean"]
            stats_cols = ["min", "q1", "median", "q3", "max", "mean"]
            series = []
            bxp = []
            for g in ("fg", "cg"):
                for st in stats_cols:
                    series.append(Series(f"{g}/{st}", t, "dtexl-fig13-15",
                                         f"{kind}_{g}_{st}_pct", keys[:-1]))
            for k_i, k in enumerate(keys[:-1] + [AVG]):
                for gi, g in enumerate(("fg", "cg")):
                    vals = {st: series[gi * 6 + j].values[k_i] for j, st in enumerate(stats_cols)}
                    bxp.append({"label": k, "whislo": vals["min"], "q1": vals["q1"],
                                "med": vals["median"], "q3": vals["q3"], "whishi": vals["max"],
                                "mean": vals["mean"], "fliers": []})
            n = len(keys)
            fig, ax = plt.subplots(figsize=(_fig_width(n, 2), 3.2))
            pos = []
            for k_i in range(n):
                base = k_i * 1.0 + (0.4 if k_i == n - 1 else 0)
                pos += [base - 0.18, base + 0.18]
            b = ax.bxp(bxp, positions=pos, widths=0.3, showmeans=True, patch_artist=True,
                       medianprops={"color": "black", "linewidth": 1.0},
                       meanprops={"marker": "^", "markersize": 3, "markerfacecolor": "white",
                                  "markeredgecolor": "black"})
            for i, box in enumerate(b["boxes"]):
                box.set_facecolor(COLORS[0] if i % 2 == 0 else COLORS[1])
                box.set_linewidth(0.5)
            centers = [k_i + (0.4 if k_i == n - 1 else 0) for k_i in range(n)]
            _label_workloads(ax, keys[:-1] + [AVG], centers)
            if number == "14":
                for label, q, col in (("FG-xshift2 mean", "time deviation FG-xshift2",
                                       COLORS[0]),
                                      ("CG-square max", "time deviation CG-square", COLORS[1])):
                    v = _paper(xp, "dtexl-paper", "14", q)
                    if v:
                        ax.axhline(v[0], color=col, linestyle="--", linewidth=0.8,
                                   label=f"paper: {label} {v[0]:g}%")
            ax.plot([], [], "s", color=COLORS[0], label="FG-xshift2")
            ax.plot([], [], "s", color=COLORS[1], label="CG-square")
            ax.set_ylabel(f"{kind} deviation across SCs (%)")
            ax.yaxis.grid(True, linewidth=0.3, alpha=0.6)
            _legend(ax, ncol=2)
            F.save(fig, f"dtexl-fig{number}", paper, number,
                   f"Per-tile imbalance of the {what} across the shader cores, FG-xshift2 "
                   f"against CG-square (coupled barriers): min, quartiles, max over the tiles, "
                   f"triangle the mean (DTexL V-A, Fig. {number}).", xp, series,
                   "% deviation", "workload")
    if "dtexl-fig16" in xp:
        t = xp["dtexl-fig16"]
        cols = [c for c in t.columns if c.startswith("dec_")]
        names = [c[4:-4] for c in cols]
        marks = []
        for i, n in enumerate(names):
            q = {"zorder-const": "Zorder-const", "hlb-const": "HLB-const", "hlb-flp1": "HLB-flp1",
                 "hlb-flp2": "HLB-flp2", "hlb-flp3": "HLB-flp3", "sorder-const": "Sorder-const",
                 "sorder-flp": "Sorder-flp"}.get(n)
            v = _paper(xp, "dtexl-paper", "16", f"L2 decrease {q}") if q else None
            if v:
                marks.append(("", v[0], i))
        _norm_bars(F, xp, "dtexl-fig16", paper, "16",
                   "Decrease in L2 accesses of the subtile assignments (tile order-subtile "
                   "mapping) and the upper bound w.r.t. non-decoupled FG-xshift2. Stars: the "
                   "paper's averages (DTexL V-B, Fig. 16).", "dtexl-fig16",
                   [(n, c, {}, 1.0, 0.0) for n, c in zip(names, cols)],
                   "decrease in L2 accesses (%)", marks, baseline=0.0)
    if "dtexl-fig17-18" in xp:
        v1 = _paper(xp, "dtexl-paper", "17", "speedup DTexL (HLB-flp2")
        v2 = _paper(xp, "dtexl-paper", "17", "speedup FG-xshift2 decoupled, %")
        _norm_bars(F, xp, "dtexl-fig17", paper, "17",
                   "Speedup w.r.t. non-decoupled FG-xshift2: DTexL (HLB-flp2, decoupled "
                   "barriers) and FG-xshift2 with decoupled barriers. Stars: the paper's "
                   "averages (DTexL V-C, Fig. 17: 1.20x and 1.09x).", "dtexl-fig17-18",
                   [("DTexL", "speedup_dtexl", {}, 1.0, 0.0),
                    ("FG-xshift2 decoupled", "speedup_fg_xshift2_decoupled", {}, 1.0, 0.0)],
                   "speedup (x)",
                   [("", 1 + v1[0] / 100 if v1 else 1.2, 0), ("", 1 + v2[0] / 100 if v2 else
                                                                1.09, 1)])
        v1 = _paper(xp, "dtexl-paper", "18", "energy decrease DTexL, %")
        v2 = _paper(xp, "dtexl-paper", "18", "energy decrease FG-xshift2 decoupled, %")
        _norm_bars(F, xp, "dtexl-fig18", paper, "18",
                   "Decrease in total GPU energy w.r.t. non-decoupled FG-xshift2. Stars: the "
                   "paper's averages (DTexL V-C, Fig. 18: 6.3% and 3%).", "dtexl-fig17-18",
                   [("DTexL", "energy_decrease_dtexl_pct", {}, 1.0, 0.0),
                    ("FG-xshift2 decoupled", "energy_decrease_fg_xshift2_decoupled_pct", {},
                     1.0, 0.0)],
                   "energy decrease (%)",
                   [("", v1[0] if v1 else 6.3, 0), ("", v2[0] if v2 else 3.0, 1)], baseline=0.0)


GSPC_POLICIES = [("NRU", "nru"), ("SHiP-mem", "ship-mem"), ("GS-DRRIP", "gs-drrip"),
                 ("GSPZTC", "gspztc"), ("GSPZTC+TSE", "gspztc+tse"), ("GSPC", "gspc"),
                 ("GSPC+UCD", "gspc+ucd"), ("DRRIP+UCD", "drrip+ucd"), ("Belady", "opt"),
                 ("OPTPT", "optpt")]


def figs_gspc(F: Figures, xp: dict):
    paper = "GSPC: Efficient Management of LLCs in GPUs for 3D Rendering"
    t = xp["gspc"]
    v1 = _paper(xp, "gspc-paper", "1", "NRU vs DRRIP")
    v2 = _paper(xp, "gspc-paper", "1", "Belady (opt) vs DRRIP")
    _norm_bars(F, xp, "gspc-fig1", paper, "1",
               "LLC misses of NRU and Belady's optimal policy normalised to two-bit DRRIP, "
               "8 MB 16-way LLC. Stars: the paper's averages (GSPC 1, Fig. 1: +6.2%, -36.6%).",
               "gspc", [("NRU", "change_vs_drrip_pct", {"llc_mb": 8, "policy": "nru"}, 0.01, 1.0),
                        ("Belady", "change_vs_drrip_pct", {"llc_mb": 8, "policy": "opt"}, 0.01,
                         1.0)],
               "LLC misses / DRRIP (ratio)",
               [("", 1 + (v1[0] if v1 else 6.2) / 100, 0),
                ("", 1 + (v2[0] if v2 else -36.6) / 100, 1)])
    for mb in sorted(set(t["llc_mb"].astype(int))):
        sub = t[t["llc_mb"].astype(int) == mb]
        pols = [(n, p) for n, p in GSPC_POLICIES if p in set(sub["policy"])]
        # the paper's averages at 8 MB (GSPC 5.1, the text on Fig. 12)
        avg12 = {"nru": 6.2, "ship-mem": 0.0, "gspztc": -4.8, "gspztc+tse": -11.5,
                 "gspc": -11.8, "gspc+ucd": -13.1, "drrip+ucd": 0.0}
        marks = [("", 1 + avg12[p] / 100, i) for i, (_, p) in enumerate(pols)
                 if p in avg12] if mb == 8 else []
        _norm_bars(F, xp, f"gspc-fig12-{mb}mb", paper, "12",
                   f"LLC misses normalised to two-bit DRRIP, {mb} MB 16-way LLC, for every "
                   "policy, Belady and OPTPT. " + (
                       "Stars: the paper's averages at 8 MB (GSPC 5.1, Fig. 12: NRU +6.2%, "
                       "SHiP-mem 0, GSPZTC -4.8%, GSPZTC+TSE -11.5%, GSPC -11.8%, GSPC+UCD "
                       "-13.1%, DRRIP+UCD 0)." if mb == 8 else
                       "The paper gives no per-policy averages at 16 MB."),
                   "gspc", [(n, "change_vs_drrip_pct", {"llc_mb": mb, "policy": p}, 0.01, 1.0)
                            for n, p in pols],
                   "LLC misses / DRRIP (ratio)", marks, title=f"{mb} MB LLC")
    hits = [("texture", "texture_hit_pct"), ("render target", "render_target_hit_pct"),
            ("Z", "z_hit_pct")]
    for number, pols in (("5", [("Belady", "opt"), ("DRRIP", "drrip"), ("NRU", "nru")]),
                         ("13", [("DRRIP", "drrip"), ("GSPZTC", "gspztc"), ("GSPC", "gspc"),
                                 ("GSPC+UCD", "gspc+ucd"), ("Belady", "opt")])):
        fig, axes = plt.subplots(1, 3, figsize=(min(16, 3 * _fig_width(
            len(_workloads(t)) + 1, len(pols)) * 0.6), 3.2), sharey=True)
        series = []
        for ax, (hname, col) in zip(axes, hits):
            ss = [Series(f"{hname}/{n}", t, "gspc", col, _workloads(t), "workload",
                         {"llc_mb": 8, "policy": p}) for n, p in pols]
            for s, (n, _) in zip(ss, pols):
                s.name = n
            marks = []
            if number == "5":
                for i, (n, _) in enumerate(pols):
                    key = {"texture": "texture hit rate", "render target":
                           "render-target (color) hit rate", "Z": "Z hit rate"}[hname]
                    v = _paper(xp, "gspc-paper", "5", f"{key}, {n}")
                    if v:
                        marks.append(("", v[0], i))
            grouped_bars(ax, ss, marks, f"LLC hit rate (%)" if ax is axes[0] else "")
            ax.set_title(hname, fontsize=8)
            for s in ss:
                s.name = f"{hname}/{s.name}"
            series += ss
        h, lab = axes[0].get_legend_handles_labels()
        fig.legend(h, [x.split("/")[-1] for x in lab], ncol=len(h), loc="upper center",
                   frameon=False)
        fig.tsr_rect = (0, 0, 1, 0.88)
        F.save(fig, f"gspc-fig{number}", paper, number,
               "LLC hit rates of the texture sampler, render target (colour) and Z streams, "
               "8 MB 16-way LLC" + (", Belady, DRRIP and NRU; stars: the paper's averages "
                                    "(GSPC 2, Fig. 5)." if number == "5" else
                                    ", DRRIP, GSPZTC, GSPC, GSPC+UCD and Belady (GSPC 5.1, "
                                    "Fig. 13)."), xp, series, "hit rate (%)", "workload")
    # Fig. 6 lower: render-target consumption
    pols = [("Belady", "opt"), ("DRRIP", "drrip"), ("NRU", "nru")]
    marks = []
    for i, (n, _) in enumerate(pols):
        v = _paper(xp, "gspc-paper", "6", f"render-target consumption, {n}")
        if v:
            marks.append(("", v[0], i))
    v = _paper(xp, "gspc-paper", "6", "inter-stream share")
    _norm_bars(F, xp, "gspc-fig6", paper, "6",
               "Percentage of the render targets consumed by the texture sampler through LLC "
               "hits (GSPC 2, Fig. 6 lower panel), 8 MB LLC. Stars: the paper's averages (51%, "
               "16%, 13%).", "gspc",
               [(n, "rt_consumption_pct", {"llc_mb": 8, "policy": p}, 1.0, 0.0) for n, p in pols],
               "render targets consumed (%)", marks, baseline=None)
    st = xp.get("gspc-streams")
    if st is not None:
        keys = _workloads(st)
        streams = list(dict.fromkeys(st["stream"].astype(str)))
        series = [Series(s, st, "gspc-streams", "share_pct", keys, "workload", {"stream": s})
                  for s in streams]
        fig, ax = plt.subplots(figsize=(_fig_width(len(keys) + 1, 1.6), 3.4))
        x = np.arange(len(series[0].keys), dtype=float)
        x[-1] += 0.4
        bottom = np.zeros(len(x))
        for i, s in enumerate(series):
            vals = np.nan_to_num(np.array(s.values, dtype=float))
            ax.bar(x, vals, 0.6, bottom=bottom, color=COLORS[i % len(COLORS)], label=s.name,
                   edgecolor="black", linewidth=0.3)
            bottom += vals
        # the paper's average distribution as a stacked bar of its own
        tp = xp.get("gspc-paper")
        pv = []
        if tp is not None:
            for _, r in tp[tp["figure"].astype(str) == "4"].iterrows():
                q = str(r["quantity"])
                q = q.split("accesses: ", 1)[-1].split(" (")[0]
                pv.append((q, _num(r["paper_pct"])))
        if pv:
            xb = x[-1] + 1.0
            b = 0.0
            for i, (n, val) in enumerate(pv):
                ax.bar([xb], [val], 0.6, bottom=[b], color="white", edgecolor="black",
                       linewidth=0.4, hatch="//" if i % 2 else "..")
                ax.text(xb + 0.35, b + val / 2, f"{n} {val:g}%", fontsize=5.5, va="center")
                b += val
            x = np.append(x, xb)
        _label_workloads(ax, series[0].keys + (["paper AVG"] if pv else []), x)
        ax.set_xlim(x[0] - 0.6, x[-1] + 1.6)
        ax.set_ylabel("share of the LLC accesses (%)")
        ax.set_ylim(0, 105)
        _legend(ax, ncol=5)
        F.save(fig, "gspc-fig4", paper, "4",
               "Stream-wise distribution of the LLC accesses, 8 MB 16-way LLC; the last bar is "
               "the paper's average distribution (GSPC 2, Fig. 4).", xp, series,
               "% of LLC accesses", "workload", pv)
    ep = xp.get("gspc-epochs")
    if ep is not None:
        for number, stream in (("7", "texture"), ("9", "z")):
            df = ep[ep["stream"] == stream]
            if df.empty:
                continue
            keys = _workloads(df)
            if number == "7":
                hit = [Series(f"hits E{e}", ep, "gspc-epochs", f"hits_e{e}_pct", keys,
                              "workload", {"stream": stream}) for e in ("0", "1", "2", "3plus")]
                for s, n in zip(hit, ("E0", "E1", "E2", "E>=3")):
                    s.name = f"hits {n}"
            else:
                hit = []
            death = [Series(f"death E{e}", ep, "gspc-epochs", f"death_e{e}", keys, "workload",
                            {"stream": stream}, scale=100.0) for e in ("0", "1", "2")]
            panels = ([hit] if hit else []) + [death]
            fig, axes = plt.subplots(len(panels), 1, figsize=(
                _fig_width(len(keys) + 1, 4), 2.6 * len(panels) + 0.3), squeeze=False)
            for ax, ss in zip(axes[:, 0], panels):
                marks = []
                for i, s in enumerate(ss):
                    e = s.name.split("E")[-1]
                    if s.name.startswith("hits"):
                        q = f"texture intra-stream hits from E{e}, Belady"
                    else:
                        q = f"{'texture' if stream == 'texture' else 'Z'} E{e} death ratio"
                    v = _paper(xp, "gspc-paper", number, q)
                    if v:
                        marks.append(("", v[0], i))
                grouped_bars(ax, ss, marks, "intra-stream hits (%)" if ss is hit else
                             "death ratio x 100")
                _legend(ax, ncol=5)
            F.save(fig, f"gspc-fig{number}", paper, number,
                   (f"Epoch-wise distribution of the intra-stream texture hits (upper) and the "
                    f"death ratio of each epoch of the texture blocks (lower) under Belady, "
                    f"8 MB LLC. Stars: the paper's averages (GSPC 2, Fig. 7)." if number == "7"
                    else "Death ratio of each epoch of the Z blocks under Belady, 8 MB LLC. "
                    "Star: the paper's E0 average (GSPC 2, Fig. 9)."), xp,
                   [s for ss in panels for s in ss], "%", "workload")
    ins = xp.get("gspc-insertions-iso-overhead")
    if ins is not None:
        vt = _paper(xp, "gspc-paper", "8", "texture fills")
        vc = _paper(xp, "gspc-paper", "8", "render-target (color) fills")
        _norm_bars(F, xp, "gspc-fig8", paper, "8",
                   "Share of the texture and render-target (color) fills that two-bit DRRIP "
                   "inserts at RRPV 3 (8 MB LLC). Stars: the paper's averages (GSPC 2, Fig. 8: "
                   "36% and about a quarter).", "gspc-insertions-iso-overhead",
                   [("texture", "texture_fills_rrpv3_pct", {}, 1.0, 0.0),
                    ("render target (color)", "color_fills_rrpv3_pct", {}, 1.0, 0.0)],
                   "fills at RRPV 3 (%)",
                   [("", vt[0] if vt else 36.0, 0), ("", vc[0] if vc else 25.0, 1)],
                   baseline=None)
        iso = [("LRU", "lru_change_pct", "LRU vs"), ("4-bit DRRIP", "drrip4_change_pct",
                                                       "four-bit DRRIP"),
               ("4-bit GS-DRRIP", "gs_drrip4_change_pct", "four-bit GS-DRRIP"),
               ("GSPC", "gspc_change_pct", "GSPC (four bits)")]
        avg14 = (7.2, -0.4, -1.7, -11.8)
        marks = []
        for i, (_, _, q) in enumerate(iso):
            v = _paper(xp, "gspc-paper", "14", q)
            marks.append(("", 1 + (v[0] if v else avg14[i]) / 100, i))
        _norm_bars(F, xp, "gspc-fig14", paper, "14",
                   "Policies with four replacement-state bits per block: LLC misses "
                   "normalised to two-bit DRRIP, 8 MB LLC. Stars: the paper's averages (GSPC "
                   "5.1, Fig. 14: LRU +7.2%, four-bit DRRIP -0.4%, four-bit GS-DRRIP -1.7%, "
                   "GSPC -11.8%).", "gspc-insertions-iso-overhead",
                   [(n, c, {}, 0.01, 1.0) for n, c, _ in iso], "LLC misses / DRRIP (ratio)",
                   marks)
    perf = xp.get("gspc-performance")
    if perf is not None:
        figs = (("15", "gspc-fig15", "8 MB", "8 MB",
                 (("NRU", "nru", -7.0), ("GS-DRRIP", "gs-drrip", 0.8), ("GSPC", "gspc", 8.0))),
                ("16", "gspc-fig16", "16 MB", "16 MB",
                 (("NRU", "nru", -3.0), ("GS-DRRIP", "gs-drrip", 4.0), ("GSPC", "gspc", 11.8))),
                ("17 upper", "gspc-fig17-ddr3-1867", "DDR3-1867", "8 MB, DDR3-1867",
                 (("NRU", "nru", -7.0), ("GSPC", "gspc", 7.1))),
                ("17 lower", "gspc-fig17-less-aggressive", "less aggressive GPU",
                 "8 MB, 8 samplers", (("NRU", "nru", -5.3), ("GSPC", "gspc", 5.9))))
        names = {"nru": "NRU", "gs-drrip": "GS-DRRIP", "gspc": "GSPC"}
        for fig_id, fid, qual, label, pols in figs:
            if not (perf["figure"].astype(str) == fig_id).any():
                continue
            marks = []
            for i, (_, pol, avg) in enumerate(pols):
                v = _paper(xp, "gspc-paper", fig_id.split()[0],
                           f"frame rate {names[pol]} vs DRRIP, {qual}")
                marks.append(("", 1 + (v[0] if v else avg) / 100, i))
            avgs = ", ".join(f"{n} {a:+.1f}%" for n, _, a in pols)
            _norm_bars(F, xp, fid, paper, fig_id.split()[0],
                       f"Frame rate normalised to two-bit DRRIP ({label}; the timing model on "
                       f"the GSPC machine of configs/gspc-*.json). Stars: the paper's averages "
                       f"(GSPC 5.2, Fig. {fig_id}: {avgs}).", "gspc-performance",
                       [(n, "perf_vs_drrip_pct", {"figure": fig_id, "policy": pol}, 0.01, 1.0)
                        for n, pol, _ in pols], "frame rate / DRRIP (ratio)", marks,
                       title=label)
    th = xp.get("gspc-threshold")
    if th is not None:
        keys = _workloads(th)
        ts = sorted(set(th["t"].astype(int)))
        series = [Series(f"t={tv}", th, "gspc-threshold", "change_vs_t16_pct", keys, "workload",
                         {"t": tv}, 0.01, 1.0) for tv in ts]
        fig, ax = plt.subplots(figsize=(_fig_width(len(keys) + 1, len(ts)), 3.0))
        grouped_bars(ax, series, [("about equal on average", 1.0, None)],
                     "LLC misses / t=16 (ratio)", 1.0)
        _legend(ax)
        F.save(fig, "gspc-fig11", paper, "11",
               "Sensitivity of GSPZTC to its parameter t: LLC misses normalised to t = 16, 8 MB "
               "LLC. Paper (GSPC 5, Fig. 11): on average the four values of t give almost "
               "the same misses (dashed line at 1); t = 8 is used as the most robust.", xp,
               series, "ratio", "workload")


def figs_workloads(F: Figures, xp: dict):
    t = xp.get("workloads-paper")
    if t is None or t.empty:
        return
    n = len(t)
    fig, axes = plt.subplots(n, 1, figsize=(6.5, 0.75 * n + 0.8), squeeze=False)
    series = []
    for i, (_, r) in enumerate(t.iterrows()):
        ax = axes[i][0]
        where = {"paper": r["paper"], "table": r["table"]}
        ss = {c: Series(f"{r['paper']}/{r['quantity']}/{c}", t, "workloads-paper", c,
                        [r["quantity"]], "quantity", where, avg=False)
              for c in ("paper_min", "paper_max", "tessera_min", "tessera_max")}
        series += ss.values()
        pmin, pmax = ss["paper_min"].values[0], ss["paper_max"].values[0]
        tmin, tmax = ss["tessera_min"].values[0], ss["tessera_max"].values[0]
        ax.barh([1], [pmax - pmin], left=[pmin], height=0.6, color="white", edgecolor="black",
                hatch="//", label="paper's range" if i == 0 else None)
        ax.barh([0], [tmax - tmin], left=[tmin], height=0.6, color=COLORS[0],
                edgecolor="black", label="tessera's workloads" if i == 0 else None)
        ax.text(pmax, 1, f" {r['paper_max_games']}", va="center", fontsize=6)
        ax.text(tmax, 0, f" {r['tessera_max_workload']}", va="center", fontsize=6)
        ax.set_yticks([0, 1])
        ax.set_yticklabels(["tessera", f"{r['paper']} {r['table']}"], fontsize=6)
        lo = min(pmin, tmin)
        hi = max(pmax, tmax)
        if lo > 0 and hi / lo > 10:
            ax.set_xscale("log")
        if ax.get_xscale() == "log":
            ax.set_xlim(lo / 2, hi * 3)
        else:
            ax.set_xlim(0, hi * 1.25)
        q = str(r["quantity"])
        for a, b in (("_mib", " (MiB per frame)"), ("_pct", " (%)"), ("pb_", "Parameter Buffer "),
                     ("dram_", "DRAM "), ("_", " ")):
            q = q.replace(a, b)
        ax.set_title(q, fontsize=7, loc="left")
        ax.tick_params(axis="x", labelsize=6)
    h1, l1 = axes[0][0].get_legend_handles_labels()
    fig.legend(h1, l1, ncol=2, loc="upper center", frameon=False)
    fig.tsr_rect = (0, 0, 1, 1 - 0.45 / (0.75 * n + 0.8))
    F.save(fig, "workloads-ranges", "Benchmark characterisation",
           "TCOR Table II, DTexL Table I, boustrophedonic Table I",
           "Each characterisation quantity's range over tessera's workloads (filled) beside "
           "the range over the paper's benchmarks (hatched): TCOR Table II, DTexL Table I, "
           "boustrophedonic Table I; the widest workload or game is named.", xp, series,
           "quantity", "value (units in the title: MiB, tiles, %)")


BUILDERS: dict[str, Callable] = {
    "workloads": figs_workloads,
    "tcor": figs_tcor, "attribute-cache": figs_attribute_cache, "re": figs_re,
    "boustrophedonic": figs_boustrophedonic, "timing": figs_timing, "dtexl": figs_dtexl,
    "gspc": figs_gspc,
}


# ---------------------------------------------------------------------------
# the corpus beside the built-in workloads

# the papers whose experiments print a table of the paper's averages beside
# tessera's (NAME-paper: figure, quantity, paper_pct, tessera[_mean]_pct)
CORPUS_PAPERS = {
    "tcor": "TCOR: A Tile Cache with Optimal Replacement",
    "re": "Rendering Elimination: Early Discard of Redundant Tiles (RE)",
    "boustrophedonic": "Boustrophedonic Frames: texture caching",
    "dtexl": "DTexL: Decoupled Raster Pipeline for Texture Locality",
    "gspc": "GSPC: Efficient Management of LLCs in GPUs for 3D Rendering",
}


def figs_corpus(F: Figures, name: str, xp: dict, cxp: dict):
    """NAME-corpus: each average of the paper table NAME-paper that the paper
    gives, three bars: the paper's, tessera's on the built-in workloads (xp),
    tessera's on the corpus captures (cxp: the experiment's output on them,
    scripts/corpus-experiments.sh)."""
    table = f"{name}-paper"
    t, c = xp.get(table), cxp.get(table)
    if t is None or c is None:
        return
    tcol = [col for col in t.columns if col.startswith("tessera")][0]
    ccol = [col for col in c.columns if col.startswith("tessera")][0]
    in_corpus = set(c["quantity"].astype(str))
    keys: list[str] = []
    for q, v in zip(t["quantity"].astype(str), t["paper_pct"]):
        if q not in keys and q in in_corpus and not math.isnan(_num(v)):
            keys.append(q)
    if not keys:
        return
    series = [Series("paper", t, table, "paper_pct", keys, "quantity", avg=False),
              Series("built-in workloads", t, table, tcol, keys, "quantity", avg=False),
              Series("corpus captures", c, "corpus/" + table, ccol, keys, "quantity",
                     avg=False)]
    fig, ax = plt.subplots(figsize=(7.5, 1.0 + 0.33 * len(keys)))
    y = np.arange(len(keys))
    h = 0.8 / len(series)
    colors = [PAPER_COLOR, COLORS[0], COLORS[1]]
    for i, sr in enumerate(series):
        vals = [0.0 if math.isnan(v) else v for v in sr.values]
        ax.barh(y - 0.4 + h * (i + 0.5), vals, height=h, color=colors[i], label=sr.name)
    ax.set_yticks(y)
    ax.set_yticklabels(keys)
    ax.invert_yaxis()
    ax.axvline(0.0, color="grey", linewidth=0.6)
    # speedups of a few % beside deviations of hundreds: linear within 10%
    ax.set_xscale("symlog", linthresh=10.0)
    ax.set_xlabel("%, mean over the workloads (symmetric log scale, linear within 10%)")
    _legend(ax, fig, 3)
    man = next(iter(cxp.values())).attrs.get("manifest", {})
    cmd = man.get("command", "")
    caption = (f"The paper's averages beside tessera's on the built-in workloads and on the "
               f"corpus captures (real GL ES 2.0 programs, docs/captures.md), as the "
               f"experiment's {table} tables give them; corpus: `{cmd}`.")
    F.save(fig, f"{name}-corpus", CORPUS_PAPERS[name], "corpus", caption, xp, series,
           "the paper's averages (its figures)", "%, mean over the workloads (symlog)")


# ---------------------------------------------------------------------------
# index.html and the manifest

def _figure_ref(e: dict) -> str:
    """ "TCOR ..., Fig. 14", or the paper and the table / no figure."""
    n = str(e["figure"])
    if n in ("", "-"):
        return f"{e['paper']} (no paper figure)"
    return f"{e['paper']}, {'Fig. ' if n[0].isdigit() else ''}{n}"


def _write_index(F: Figures, date: str):
    def pdf_link(e):
        return f'; <a href="{html.escape(e["pdf"])}">PDF</a>' if e.get("pdf") else ""
    rows = []
    for e in F.entries:
        rows.append(f"""<figure id="{html.escape(e['id'])}">
<img src="{html.escape(e['png'])}" alt="{html.escape(e['id'])}">
<figcaption><b>{html.escape(_figure_ref(e))}</b>
({html.escape(e['id'])}): {html.escape(e['caption'])}<br>
<small>data: <code>{html.escape(str(e['command']))}</code>; commit
<code>{html.escape(str(e['commit']))}</code>; tessera {html.escape(str(e['tessera_version']))};
drawn {html.escape(date)}{pdf_link(e)}</small></figcaption>
</figure>""")
    toc = "\n".join(f'<li><a href="#{html.escape(e["id"])}">{html.escape(e["id"])}</a>: '
                    f'{html.escape(_figure_ref(e))}</li>' for e in F.entries)
    page = f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>tessera: the papers' figures</title>
<style>body{{font-family:sans-serif;max-width:1100px;margin:auto;padding:1em}}
figure{{margin:2em 0;border-top:1px solid #ccc;padding-top:1em}}img{{max-width:100%}}
figcaption{{font-size:90%}}code{{font-size:85%}}</style></head><body>
<h1>tessera: the papers' figures</h1>
<p>{len(F.entries)} figures drawn {html.escape(date)} by <code>make figures</code>
(python/tessera/figures.py) from <code>tessera experiment NAME --csv-dir</code> tables.
Stars and dashed lines mark the papers' averages.</p>
<ul>{toc}</ul>
{chr(10).join(rows)}
</body></html>
"""
    with open(os.path.join(F.out, "index.html"), "w", encoding="utf-8") as f:
        f.write(page)


def draw_all(src: str, out: str, only: list[str] | None = None,
             formats: tuple = ("png", "pdf"), dpi: int = DPI,
             draft: bool = False) -> list[dict]:
    """Draws every figure the experiments in folder src support into folder out.

    Returns the manifest entries (also written to out/figures.json with
    out/index.html). An experiment whose tables lack what a figure needs is
    reported on stderr and skipped; the others are still drawn.
    """
    exps = load_experiments(src)
    if not exps:
        raise SystemExit(f"figures: no experiment output (NAME.json) in '{src}'")
    F = Figures(out, formats, dpi, draft)
    for name, xp in exps.items():
        if only and name not in only:
            continue
        b = BUILDERS.get(name)
        if b is None:
            continue
        try:
            b(F, xp)
        except (KeyError, IndexError, ValueError) as e:
            print(f"figures: {name}: skipped what remained ({type(e).__name__}: {e})",
                  file=sys.stderr)
    # the corpus beside the built-in workloads: src/corpus holds the same
    # experiments run on the corpus captures (scripts/corpus-experiments.sh)
    corpus = os.path.join(src, "corpus")
    cexps = load_experiments(corpus) if os.path.isdir(corpus) else {}
    for name in CORPUS_PAPERS:
        if name in exps and name in cexps and (not only or name in only):
            try:
                figs_corpus(F, name, exps[name], cexps[name])
            except (KeyError, IndexError, ValueError) as e:
                print(f"figures: {name} (corpus): skipped ({type(e).__name__}: {e})",
                      file=sys.stderr)
    date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    with open(os.path.join(out, "figures.json"), "w", encoding="utf-8") as f:
        json.dump({"date": date, "source": os.path.abspath(src), "figures": F.entries}, f,
                  indent=1)
    _write_index(F, date)
    return F.entries


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="figures", description=__doc__.split("\n\n")[0])
    ap.add_argument("src", nargs="?", default="out/experiments",
                    help="folder of `tessera experiment NAME --csv-dir` outputs")
    ap.add_argument("-o", "--out", default="out/figures", help="output folder")
    ap.add_argument("--only", action="append", help="only this experiment (repeatable)")
    ap.add_argument("--png-only", action="store_true", help="no PDF files (faster)")
    ap.add_argument("--dpi", type=int, default=DPI, help=f"PNG resolution (default {DPI})")
    ap.add_argument("--draft", action="store_true",
                    help="no layout pass (faster; labels may overlap): for checks")
    a = ap.parse_args(argv)
    entries = draw_all(a.src, a.out, a.only, ("png",) if a.png_only else ("png", "pdf"), a.dpi,
                       a.draft)
    print(f"figures: {len(entries)} figures in {a.out} (index.html, figures.json)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
