"""Make `ansible_collections.specdeploy.sglang` importable for pytest without installing anything.

A symlink tree under .lab/pytree points at this checkout, so module_utils and modules import the
way Ansible imports them (their absolute `ansible_collections...` names).
"""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TREE = os.path.join(ROOT, ".lab", "pytree")
LINK = os.path.join(TREE, "ansible_collections", "specdeploy", "sglang")
if not os.path.islink(LINK):
    os.makedirs(os.path.dirname(LINK), exist_ok=True)
    try:
        os.symlink(ROOT, LINK)
    except FileExistsError:
        pass
if TREE not in sys.path:
    sys.path.insert(0, TREE)
if ROOT not in sys.path:  # lab/ (LAB-ONLY helpers such as lab/kits.py) for the oracle tests
    sys.path.insert(0, ROOT)
