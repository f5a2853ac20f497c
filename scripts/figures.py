#!/usr/bin/env python3
"""scripts/figures.py [SRC] [-o OUT]: the papers' figures from `tessera experiment
NAME --csv-dir SRC` outputs into OUT (default out/experiments -> out/figures):
PNG and PDF per figure, index.html and figures.json. See python/tessera/figures.py."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
from tessera.figures import main  # noqa: E402

sys.exit(main())
