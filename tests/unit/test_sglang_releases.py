"""The release table: one place for per-release differences, unknown releases answered helpfully."""
import os
import re

from ansible_collections.specdeploy.sglang.plugins.module_utils import sglang_engine as E
from ansible_collections.specdeploy.sglang.plugins.module_utils.sglang_engine import parsers, releases

ENGINE = os.path.dirname(os.path.abspath(E.__file__))


def test_a_release_without_a_table_is_judged_by_sglang_with_the_nearest_older_traits():
    """Day zero: a release the tables do not list renders and passes static validation with one note, and its
    verdict is SGLang's own (accepted: null), never a guessed yes; a flag the older table lacks is not refused
    (the installed SGLang's parser decides), a spec invariant still is."""
    spec = {"sglang_version": "0.5.24", "model_path": "/m", "extra_args": ["--flag-new-in-0-5-24"],
            "speculative": {"algorithm": "DFLASH", "draft_model_path": "/d", "block_size": 16, "num_draft_tokens": 8}}
    r = E.validate(spec)
    assert r.codes() == ["SPEC_BLOCK_SIZE_CONFLICT"]
    del spec["speculative"]["num_draft_tokens"]
    r = E.validate(spec)
    assert r.ok and r.sglang_verdict["accepted"] is None and r.sglang_verdict["code"] == "NOT_IN_TABLES"
    notes = [w["message"] for w in r.warnings if w["code"] == "NOT_IN_TABLES"]
    assert len(notes) == 1 and "not in the tables: judged by SGLang 0.5.24 itself" in notes[0]
    assert "SGLang 0.5.23's traits" in notes[0]
    assert "--flag-new-in-0-5-24" in r.argv and "FLAG_UNVERIFIED" in [w["code"] for w in r.warnings]
    # between two tables (a post release): the one below
    assert E.releases.release("0.5.14.post1")["traits_from"] == "0.5.14"


def test_a_version_that_is_no_release_number_names_the_known_ones():
    for bad in ("0.4.0", "latest"):
        r = E.validate({"sglang_version": bad, "model_path": "/m"})
        assert r.codes() == ["UNKNOWN_VERSION"]
        assert "0.5.23" in r.errors[0]["message"] and "tools/" not in r.errors[0]["message"]


def test_every_release_from_0_5_11_to_0_5_23_has_its_own_captured_table():
    """No release's parser is derived from another's: a flag it lacks is an error, not a note."""
    for v in ("0.5.16", "0.5.21", "0.5.22"):
        assert v in E.KNOWN_VERSIONS and E.RELEASES[v]["parser"] == v and E.RELEASES[v]["exact_table"], v
    assert all(E.RELEASES[v]["exact_table"] for v in E.KNOWN_VERSIONS)


def test_a_host_on_0_5_22_is_validated_by_its_own_table():
    """0.5.22 renders and validates (no UNKNOWN_VERSION); its captured table knows the sink flag 0.5.21 added and
    refuses the mamba flag 0.5.20 dropped; 0.5.16 (captured now) refuses the sink flag it never had."""
    spec = {"sglang_version": "0.5.22", "model_path": "/m/t",
            "speculative": {"algorithm": "DFLASH", "draft_model_path": "/m/d", "block_size": 16}}
    r = E.validate(spec, read_paths=False)
    assert "UNKNOWN_VERSION" not in r.codes() and "--speculative-draft-model-path" in r.argv
    sink = ["--model-path", "/m", "--speculative-draft-sink-size", "4"]
    assert E.validate_argv(sink, "0.5.20", read_paths=False).codes()[0] == "PARSE_UNRECOGNIZED"
    assert "PARSE_UNRECOGNIZED" not in E.validate_argv(sink, "0.5.21", read_paths=False).codes()
    r16 = E.validate_argv(sink, "0.5.16", read_paths=False)
    assert r16.codes()[0] == "PARSE_UNRECOGNIZED" and "FLAG_UNVERIFIED" not in [w["code"] for w in r16.warnings]
    mamba = ["--model-path", "/m", "--mamba-scheduler-strategy", "auto"]
    assert E.validate_argv(mamba, "0.5.22", read_paths=False).codes()[0] == "PARSE_UNRECOGNIZED"


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


def _release_tool():
    import importlib.machinery
    import importlib.util
    path = os.path.join(os.path.dirname(ENGINE), "..", "..", "tools", "sglang-release")
    loader = importlib.machinery.SourceFileLoader("sglang_release_tool", os.path.abspath(path))
    spec = importlib.util.spec_from_loader(loader.name, loader)
    mod = importlib.util.module_from_spec(spec)
    loader.exec_module(mod)
    return mod


def test_add_on_a_known_derived_release_switches_it_to_its_own_capture():
    """`tools/sglang-release add 0.5.16` once 0.5.16's table was derived: the entry takes its own table and keeps
    its traits; a second add changes nothing."""
    tool = _release_tool()
    text = ('_CHANGES = {\n    "0.5.16": {\n        "verified": False,\n        "parser": "0.5.23",\n'
            '        "parser_derived": {\n            "drop": ("--x",),\n            "add": {},\n        },\n'
            '        "window_flag": "--w",\n    },\n    "0.5.23": {\n        "parser": "0.5.23",\n'
            '        "parser_derived": None,\n    },\n}\n')
    out = tool._own_parser("0.5.16", text)
    ns = {}
    exec(out, ns)  # noqa: S102 -- the rewritten table must still be Python
    assert ns["_CHANGES"]["0.5.16"] == {"verified": False, "parser": "0.5.16", "parser_derived": None, "window_flag": "--w"}
    assert ns["_CHANGES"]["0.5.23"] == {"parser": "0.5.23", "parser_derived": None}
    assert tool._own_parser("0.5.16", out) is None


def test_a_release_is_verified_only_when_its_entry_says_so():
    """`verified` is never inherited from the release before: a new entry starts unverified."""
    for v in E.KNOWN_VERSIONS:
        assert "verified" in releases._CHANGES[v], v
