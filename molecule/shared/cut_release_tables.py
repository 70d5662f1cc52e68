#!/usr/bin/env python3
"""TEST FIXTURE (not a product switch): a copy of this collection whose flags-engine release tables end at
an older release, so that the lab's SGLang (its lock) is a release the tables do not know, as on the day a
new SGLang ships.

    cut_release_tables.py SRC_ROOT DEST_COLLECTIONS_DIR LAST_RELEASE

copies SRC_ROOT's shipped directories to DEST_COLLECTIONS_DIR/ansible_collections/specdeploy/sglang and
drops every release after LAST_RELEASE from sglang_engine/releases.py's ORDER. Prints the collection path.
"""
import os
import re
import shutil
import sys

SHIPPED = ("plugins", "roles", "playbooks", "meta", "docs", "galaxy.yml")


def main(src, dest_root, last):
    dest = os.path.join(dest_root, "ansible_collections", "specdeploy", "sglang")
    if os.path.exists(dest):
        shutil.rmtree(dest)
    os.makedirs(dest)
    for name in SHIPPED:
        path = os.path.join(src, name)
        if os.path.isdir(path):
            shutil.copytree(path, os.path.join(dest, name), ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(path, os.path.join(dest, name))
    rel = os.path.join(dest, "plugins", "module_utils", "sglang_engine", "releases.py")
    with open(rel) as f:
        text = f.read()
    m = re.search(r"^ORDER = \((.*?)^\)", text, re.S | re.M)
    versions = re.findall(r'"([^"]+)"', m.group(1))
    if last not in versions:
        sys.exit("%s is not in the tables (%s)" % (last, ", ".join(versions)))
    kept = versions[:versions.index(last) + 1]
    text = text[:m.start()] + "ORDER = (%s,\n)" % ", ".join('"%s"' % v for v in kept) + text[m.end():]
    with open(rel, "w") as f:
        f.write(text)
    print(dest)


if __name__ == "__main__":
    main(*sys.argv[1:4])
