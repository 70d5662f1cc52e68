"""inventories/production as an operator leaves it after following its comments: the PLACEHOLDER
revisions replaced by (made-up) full commits, and the DDTree hosts given a lock of an SGLang build with
tree verification. TEST STAND-IN lock: the shipped CUDA lock of 0.5.23 with its sglang pin and header
renamed 0.5.23+pr29907 and tree_verify=sglang-pr29907 (its sglang hash is the release's, so no pip would
install it; preflight reads the header and pins, never the wheel)."""
import os
import re
import shutil

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PRODUCTION = os.path.join(ROOT, "inventories", "production")
SHIPPED_LOCK = os.path.join(ROOT, "roles", "gpu_env", "files", "sglang-0.5.23-cu13.lock")
TARGET_COMMIT = "a" * 8 + "0123456789abcdef0123456789abcdef"
DRAFT_COMMIT = "b" * 8 + "0123456789abcdef0123456789abcdef"


def ddtree_lock_text():
    text = open(SHIPPED_LOCK, encoding="utf-8").read()
    text = text.replace("# specdeploy-lock: sglang=0.5.23\n", "# specdeploy-lock: sglang=0.5.23+pr29907\n", 1)
    text = re.sub(r"(# specdeploy-lock: generated_by=[^\n]*\n)", r"\1# specdeploy-lock: tree_verify=sglang-pr29907\n",
                  text, count=1)
    return text.replace("\nsglang==0.5.23 \\", "\nsglang==0.5.23+pr29907 \\", 1)


def filled_copy(dest, source=PRODUCTION):
    """Copy the production inventory to dest (a directory that does not exist yet), filled in; the DDTree
    lock goes to locks/ beside it."""
    dest = str(dest)
    shutil.copytree(source, dest)
    path = os.path.join(dest, "group_vars", "sglang_servers.yml")
    text = open(path, encoding="utf-8").read()
    text = re.sub(r'(?m)^prod_target_revision: .*$', 'prod_target_revision: "%s"' % TARGET_COMMIT, text)
    text = re.sub(r'(?m)^prod_draft_revision: .*$', 'prod_draft_revision: "%s"' % DRAFT_COMMIT, text)
    open(path, "w", encoding="utf-8").write(text)
    # next to the inventory (every file inside an inventory directory is read as inventory)
    locks = os.path.join(os.path.dirname(dest), "locks")
    os.makedirs(locks, exist_ok=True)
    open(os.path.join(locks, "sglang-0.5.23+pr29907-cu13.lock"), "w", encoding="utf-8").write(ddtree_lock_text())
    with open(os.path.join(dest, "group_vars", "ddtree.yml"), "a", encoding="utf-8") as f:
        f.write('\ngpu_env_lock_file: "%s"\n' % os.path.join(locks, "sglang-0.5.23+pr29907-cu13.lock"))
    return dest
