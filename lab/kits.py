# -*- coding: utf-8 -*-
# Copyright: specdeploy developers
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Where the per-release SGLang CPU kits live (venvs that import one release and run its resolver).

LAB-ONLY (not shipped). One variable: SPECDEPLOY_LAB_KITS (default <repo>/.lab/kits); a release's python is
$SPECDEPLOY_LAB_KITS/<version>/bin/python. Used by tools/sglang-release (parser capture) and the
per-release differential tests. stdlib only.
"""
from __future__ import annotations

import os

KITS_ENV = "SPECDEPLOY_LAB_KITS"
# The lab's CPU venvs have no CUDA kernels; the lab shim stands in for these imports.
KIT_ENV = {"SPECDEPLOY_LAB_SHIM_MODULES": "sgl_kernel,torchvision", "HF_HUB_OFFLINE": "1",
           "TRANSFORMERS_OFFLINE": "1"}


def kits_root(repo_root=None):
    if os.environ.get(KITS_ENV):
        return os.environ[KITS_ENV]
    if repo_root is None:
        repo_root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    return os.path.join(repo_root, ".lab", "kits")


def kit_python(version, repo_root=None):
    return os.path.join(kits_root(repo_root), str(version), "bin", "python")


def oracle_releases(want, known, verified, today=None, seed=None):
    """The releases a differential run checks: "all", a comma/space list, or "sample:N" - the newest
    release plus N of the older releases whose traits were checked (`verified`), drawn by a seed that
    rotates daily (`seed`, e.g. SPECDEPLOY_ORACLE_SEED, overrides). `make test` builds the kits of
    exactly these releases and runs the differential tests on them (one selection for both)."""
    import datetime
    import random
    want = str(want or "").strip()
    known = list(known)
    if want == "all":
        return known
    if want.startswith("sample:"):
        n = int(want.split(":", 1)[1])
        rng = random.Random(seed or (today or datetime.date.today()).isoformat())
        others = [v for v in known[:-1] if v in set(verified)]
        return [known[-1]] + sorted(rng.sample(others, min(n, len(others))), key=known.index)
    return [v.strip() for v in want.replace(",", " ").split() if v.strip()]
