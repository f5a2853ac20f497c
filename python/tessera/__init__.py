"""tessera: load the simulator's outputs into pandas and draw the papers' figures.

Loaders (:mod:`tessera.load`):

* :func:`load_stats`      a run's ``stats.json``: totals per counter and the
                          configuration flattened to dotted keys;
* :func:`load_frames`     a run's ``frames.csv``: one row per frame;
* :func:`load_results`    a sweep's ``results.csv``: one row per point and frame;
* :func:`load_experiment` the folder ``tessera experiment NAME --csv-dir DIR``
                          writes: every table as a DataFrame.

Figures (:mod:`tessera.figures`, also ``scripts/figures.py``): every reproduced
paper figure from a folder of ``--csv-dir`` outputs.

Use from the source tree with ``PYTHONPATH=python`` (no installation needed);
only the standard library, numpy, pandas and matplotlib; no network access.
"""
from .load import (flatten, load_experiment, load_experiments, load_frames, load_results,
                   load_stats)

__all__ = ["flatten", "load_stats", "load_frames", "load_results", "load_experiment",
           "load_experiments"]
__version__ = "0.1.0"
