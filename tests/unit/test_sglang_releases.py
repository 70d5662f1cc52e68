"""The release table: one place for per-release differences, unknown releases answered helpfully."""
import os
import re

from ansible_collections.specdeploy.sglang.plugins.module_utils import sglang_engine as E
from ansible_collections.specdeploy.sglang.plugins.module_utils.sglang_engine import parsers, releases

ENGINE = os.path.dirname(os.path.abspath(E.__file__))


def test_unknown_release_names_the_nearest_known_ones_and_the_command():
    r = E.validate({"sglang_version": "0.5.22", "model_path": "/m"})
    assert r.codes() == ["UNKNOWN_VERSION"]
    msg = r.errors[0]["message"]
    below = [v for v in E.KNOWN_VERSIONS if releases.vtuple(v) < releases.vtuple("0.5.22")][-1]
    above = [v for v in E.KNOWN_VERSIONS if releases.vtuple(v) > releases.vtuple("0.5.22")][0]
    assert "nearest known: %s and %s" % (below, above) in msg
    assert "tools/sglang-release add 0.5.22" in msg


def test_post_releases_sort_after_their_release():
    assert releases.vtuple("0.5.13") < releases.vtuple("0.5.13.post1") < releases.vtuple("0.5.14")


def test_no_release_is_switched_on_outside_the_table():
    """Rendering, checks and resolution read traits: no version literals or comparisons in their code."""
    for name in os.listdir(ENGINE):
        if not name.endswith(".py") or name in ("releases.py",):
            continue
        text = open(os.path.join(ENGINE, name)).read()
        assert not re.search(r"version\s*[!=]=\s*['\"]", text), name
        assert not re.search(r"['\"]0\.5\.\d+", text), name


def test_every_release_has_a_captured_or_declared_parser():
    for v in E.KNOWN_VERSIONS:
        rel = E.RELEASES[v]
        assert rel["exact_table"] == (rel["parser"] == v and v in parsers.captured()) or rel["parser_derived"], v
        assert "--model-path" in rel["flags"] and "--speculative-algorithm" in rel["flags"]


def test_captured_tables_tell_releases_apart():
    """0.5.11 has only the old window flag; 0.5.12 adds the new one; 0.5.23 dropped the old one."""
    t = {v: E.RELEASES[v]["flags"] for v in ("0.5.11", "0.5.12", "0.5.23")}
    assert "--speculative-dflash-draft-window-size" in t["0.5.11"] and "--speculative-draft-window-size" not in t["0.5.11"]
    assert "--speculative-draft-window-size" in t["0.5.12"]
    assert "--speculative-dflash-draft-window-size" not in t["0.5.23"]
    r = E.validate_argv(["--model-path", "/m", "--speculative-draft-window-size", "64"], "0.5.11", read_paths=False)
    assert r.codes()[0] == "PARSE_UNRECOGNIZED" and "later release" in r.errors[0]["message"]
