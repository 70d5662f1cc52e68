# -*- coding: utf-8 -*-
# Copyright: specdeploy developers
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The collection's own Python code (plugins/module_utils) for the command line in bin/, imported by its
Ansible names through ansible-core's collection loader, from the copy this file belongs to (an installed
collection, or a checkout)."""
import atexit
import os
import shutil
import tempfile

# <root>/bin/this file
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_READY = []


def collections_path():
    """A collections path whose ansible_collections/specdeploy/sglang is this copy of the collection."""
    parts = ROOT.split(os.sep)
    if parts[-3:-1] == ["ansible_collections", "specdeploy"] and parts[-1] == "sglang":
        return os.sep.join(parts[:-3])
    lab = os.path.join(ROOT, ".lab", "collections")  # a checkout's, made by `make venv`
    if os.path.realpath(os.path.join(lab, "ansible_collections", "specdeploy", "sglang")) == os.path.realpath(ROOT):
        return lab
    tmp = tempfile.mkdtemp(prefix="specdeploy-")
    atexit.register(shutil.rmtree, tmp, True)
    os.makedirs(os.path.join(tmp, "ansible_collections", "specdeploy"))
    os.symlink(ROOT, os.path.join(tmp, "ansible_collections", "specdeploy", "sglang"))
    return tmp


def init():
    """Make `ansible_collections.specdeploy.sglang` importable (and the ansible.builtin plugins that
    inventory templates use). Needs ansible-core in this Python."""
    if not _READY:
        from ansible.plugins.loader import init_plugin_loader
        init_plugin_loader([collections_path()])
        _READY.append(True)


def tree_flavor_flags():
    """{flavor: [flags]}: the tree-verify flag sets the collection knows (the engine's table)."""
    init()
    from ansible_collections.specdeploy.sglang.plugins.module_utils.sglang_engine import common
    return {name: sorted(f["flags"]) for name, f in common.TREE_FLAVORS.items()}
