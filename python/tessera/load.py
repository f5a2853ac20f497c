"""Loaders of tessera's outputs into pandas DataFrames, for one's own analysis.

Every function takes a path and returns plain pandas objects; nothing is
cached, nothing is fetched from the network.

Example::

    import sys; sys.path.insert(0, "python")
    from tessera import load_stats, load_frames, load_experiment
    s = load_stats("out/demo/stats.json")
    s["totals"]["dram.bytes_read"], s["config"]["caches.l2.size_kib"]
    f = load_frames("out/demo")                  # one row per frame
    t = load_experiment("out/experiments", "tcor")["tcor-paper"]
"""
from __future__ import annotations

import json
import os
from typing import Any

import pandas as pd

__all__ = ["flatten", "load_stats", "load_frames", "load_results", "load_experiment",
           "load_experiments"]


def flatten(obj: Any, prefix: str = "") -> dict[str, Any]:
    """Flattens nested dicts (and lists) of a JSON document to dotted keys.

    ``{"caches": {"l2": {"reads": 3}}, "q": [1, 2]}`` becomes
    ``{"caches.l2.reads": 3, "q.0": 1, "q.1": 2}``. Scalars are kept as they are.
    """
    out: dict[str, Any] = {}
    if isinstance(obj, dict):
        for k, v in obj.items():
            out.update(flatten(v, f"{prefix}.{k}" if prefix else str(k)))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            out.update(flatten(v, f"{prefix}.{i}" if prefix else str(i)))
    else:
        out[prefix] = obj
    return out


def load_stats(path: str) -> dict[str, Any]:
    """Loads a run's ``stats.json`` (``tessera run --out DIR`` writes DIR/stats.json).

    ``path`` is the file or the run's folder. Returns a dict:

    * ``"totals"``: a ``pandas.Series`` of every counter of the run's totals,
      indexed by dotted name (``"caches.l2.all.read_misses"``, ``"dram.bytes"``);
    * ``"frames"``: a DataFrame with one row per frame (index ``frame``) and the
      same dotted columns;
    * ``"config"``: the effective configuration as a dict of dotted keys
      (``"caches.l2.policy"``), the keys ``--set`` takes;
    * ``"workload"``: the workload's description (path, name, frames, ...);
    * ``"tessera_version"``, ``"address_map"``: as in the file.
    """
    if os.path.isdir(path):
        path = os.path.join(path, "stats.json")
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    frames = [flatten(fr) for fr in doc.get("frames", [])]
    fdf = pd.DataFrame(frames)
    if "frame" in fdf.columns:
        fdf = fdf.set_index("frame")
    return {
        "totals": pd.Series(flatten(doc.get("total", {})), dtype=object).infer_objects(),
        "frames": fdf,
        "config": flatten(doc.get("config", {})),
        "workload": doc.get("workload", {}),
        "tessera_version": doc.get("tessera_version"),
        "address_map": doc.get("address_map"),
    }


def load_frames(path: str) -> pd.DataFrame:
    """Loads a run's ``frames.csv``: one row per frame, one column per counter.

    ``path`` is the file or the run's folder. The ``frame`` column becomes the
    index; counter columns keep their dotted names (``"dram.bytes"``).
    """
    if os.path.isdir(path):
        path = os.path.join(path, "frames.csv")
    df = pd.read_csv(path)
    if "frame" in df.columns:
        df = df.set_index("frame")
    return df


def load_results(path: str) -> pd.DataFrame:
    """Loads a sweep's aggregated ``results.csv`` (``tessera sweep``).

    One row per point and frame: the columns ``point`` (the point's hash),
    ``workload``, ``config``, one column per swept key (as ``--set`` names it),
    ``frame`` (a frame number, or ``"total"`` for the point's totals) and the
    counters. ``frame`` is kept as strings so that ``df[df.frame == "total"]``
    selects the totals; counters are numeric; swept keys keep pandas' inferred
    types. ``path`` may also be the sweep's folder.
    """
    if os.path.isdir(path):
        path = os.path.join(path, "results.csv")
    df = pd.read_csv(path, dtype={"frame": str, "point": str})
    return df


def load_experiment(path: str, name: str | None = None) -> dict[str, pd.DataFrame]:
    """Loads the tables ``tessera experiment NAME --csv-dir DIR`` wrote.

    ``path`` is DIR and ``name`` the experiment (``"tcor"``), or ``path`` is
    DIR/NAME.json. Returns a dict from each table's name (``"tcor"``,
    ``"tcor-table2"``, ``"tcor-paper"``) to its DataFrame, in the experiment's
    order; the manifest itself (command, commit, version) is in the dict's
    ``attrs`` of each DataFrame (``df.attrs["manifest"]``).
    """
    if name is None:
        manifest_path = path
        path = os.path.dirname(path) or "."
    else:
        manifest_path = os.path.join(path, f"{name}.json")
    with open(manifest_path, encoding="utf-8") as f:
        manifest = json.load(f)
    tables: dict[str, pd.DataFrame] = {}
    for t in manifest["tables"]:
        df = pd.read_csv(os.path.join(path, t["file"]), keep_default_na=False,
                         na_values=[""])
        df.attrs["manifest"] = manifest
        df.attrs["table"] = t["name"]
        tables[t["name"]] = df
    return tables


def load_experiments(path: str) -> dict[str, dict[str, pd.DataFrame]]:
    """Every experiment of a --csv-dir folder: experiment name -> load_experiment()."""
    out: dict[str, dict[str, pd.DataFrame]] = {}
    for f in sorted(os.listdir(path)):
        if not f.endswith(".json") or f == "figures.json":
            continue
        try:
            with open(os.path.join(path, f), encoding="utf-8") as fh:
                doc = json.load(fh)
        except (OSError, ValueError):
            continue
        if isinstance(doc, dict) and "experiment" in doc and "tables" in doc:
            out[doc["experiment"]] = load_experiment(path, doc["experiment"])
    return out
