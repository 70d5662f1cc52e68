"""The release record's one schema: an older record is read, a broken or unknown one is refused with a
message naming the file, and every reader goes through it (no other parser of release.json)."""
import json
import os
import re
import subprocess

import pytest

from ansible_collections.specdeploy.sglang.plugins.module_utils import deploy_state as ds
from ansible_collections.specdeploy.sglang.plugins.module_utils import release as rel
from ansible_collections.specdeploy.sglang.plugins.module_utils import release_record as rr
from ansible_collections.specdeploy.sglang.plugins.module_utils import server_plan as sp

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# a record as the collection wrote it before the schema field (version 1): taken from a lab host's
# /opt/specdeploy/releases/<id>/release.json, values shortened
V1 = {
    "release_id": "0f3c9a1b2d4e5f60", "instance": "tiny", "status": "active", "created": 1764800000.5,
    "inputs": {"spec": {"sglang_version": "0.5.23", "model_path": "/srv/models/tiny",
                        "speculative": {"algorithm": "DFLASH", "draft_model_path": "/srv/models/draft",
                                        "verify": "linear"}},
               "cuda_visible_devices": None, "lock_hash": "abc", "python": "/opt/env/bin/python"},
    "argv": ["--model-path", "/srv/models/tiny", "--speculative-algorithm", "DFLASH"],
    "env": {}, "validation_env": {}, "validation_key": "k1",
    "validation": {"validator": "sglang_flags", "ok": True, "resolved": {"speculative_algorithm": "DFLASH"},
                   "overrides": [], "notes": ["a note"], "memory_fit": None},
    "smoke": {"passed": True, "accept_length": 2.5, "tokens_per_s": 11.0}, "rollback_smoke": None, "error": None,
}


def _write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as handle:
        handle.write(text)


def test_an_older_schema_record_is_read_as_the_current_one(tmp_path):
    path = str(tmp_path / "release.json")
    _write(path, json.dumps(V1))
    record = rr.load(path)
    assert record["schema"] == rr.SCHEMA
    assert {k: v for k, v in record.items() if k != "schema"} == V1
    assert rr.spec(record)["sglang_version"] == "0.5.23"
    assert rr.model_paths([record, record]) == ["/srv/models/tiny", "/srv/models/draft"]
    assert rr.summary(record)["verify"] == "linear" and rr.summary(record)["sglang_version"] == "0.5.23"


@pytest.mark.parametrize("text, message", [
    ('{"release_id": "0f3c', r"release record .*release\.json is not valid JSON .*corrupted"),
    ("", r"is not valid JSON"),
    ("[1, 2]", r"is not a JSON object \(list\)"),
    (json.dumps(dict(V1, schema=99)), r"has schema version 99; this collection reads versions 1 to 2\. "
                                      r"It was written by a newer specdeploy\.sglang"),
    (json.dumps(dict(V1, schema="2")), r"has schema version '2'"),
    (json.dumps({k: v for k, v in V1.items() if k != "argv"}), r"lacks the field 'argv'"),
    (json.dumps(dict(V1, inputs=[])), r"field 'inputs' is a list, not a dict"),
    (json.dumps(dict(V1, status="running")), r"status 'running' is none of staged, active, failed"),
])
def test_a_broken_or_unknown_record_is_refused_with_a_message(tmp_path, text, message):
    path = str(tmp_path / "releases" / "r1" / "release.json")
    _write(path, text)
    with pytest.raises(rr.RecordError, match=message) as info:
        rr.load(path)
    assert path in str(info.value) or "schema" in str(info.value) or "field" in str(info.value)
    assert rr.load_or_none(path) is None


def test_no_record_is_none_and_write_keeps_created(tmp_path):
    path = str(tmp_path / "release.json")
    assert rr.load(path) is None
    assert rr.write(path, {k: v for k, v in V1.items() if k != "created"}, now=1000.0)
    assert not rr.write(path, {k: v for k, v in V1.items() if k != "created"})
    assert rr.load(path)["created"] == 1000.0
    assert rr.write(path, dict(V1, status="failed"))
    record = rr.load(path)
    assert record["created"] == 1000.0 and record["status"] == "failed" and record["schema"] == rr.SCHEMA
    assert json.load(open(path))["schema"] == rr.SCHEMA
    assert not [n for n in os.listdir(str(tmp_path)) if n != "release.json"]   # no temporary left


def test_write_refuses_a_record_that_breaks_the_schema(tmp_path):
    with pytest.raises(rr.RecordError, match="lacks the field 'release_id'"):
        rr.write(str(tmp_path / "release.json"), {"status": "staged"})
    assert not os.path.exists(str(tmp_path / "release.json"))


def test_the_readers_refuse_a_corrupted_record_of_the_host(tmp_path):
    """server_plan's observe (the role's plan) and deploy_state (the fast path) read through the module."""
    root = str(tmp_path)
    _write(rr.path_of(root, "r1"), "{not json")
    rel.activate(root, "tiny", "r1")
    with pytest.raises(rr.RecordError, match="r1/release.json is not valid JSON"):
        sp.observe(root, "tiny", run=lambda argv: "")
    with pytest.raises(rr.RecordError, match="not valid JSON"):
        ds.links_and_records(root, ["tiny"])


def test_reusable_validation_only_of_an_active_passed_record_of_the_same_key():
    record = rr.check(V1)
    got = rr.reusable_validation(record, "k1")
    assert got["reused"] and got["argv"] == V1["argv"] and got["notes"] == [{"message": "a note"}]
    assert rr.reusable_validation(record, "k2") is None
    assert rr.reusable_validation(dict(record, status="failed"), "k1") is None
    assert rr.reusable_validation(None, "k1") is None


def test_no_other_parser_of_release_json():
    """grep: outside release_record.py no code opens release.json or parses a slurped record in Jinja."""
    out = subprocess.run(["grep", "-rnE", r"b64decode \| from_json|map\('from_json'\)|release\.json.*(open|json\.load)",
                          "plugins", "roles/server", "playbooks"], cwd=ROOT, capture_output=True, text=True).stdout
    hits = [line for line in out.splitlines() if "release_record.py" not in line]
    assert hits == [], hits
    slurps = subprocess.run(["grep", "-rn", "-A2", "slurp", "roles/server", "playbooks"], cwd=ROOT,
                            capture_output=True, text=True).stdout
    assert not re.search(r"release\.json", slurps), slurps


def test_pending_names_what_the_inventory_changes_and_nothing_when_it_matches():
    record = rr.check(V1)
    spec = json.loads(json.dumps(rr.spec(record)))
    assert rr.pending(record, spec) == []
    # YAML/Jinja types do not count as a difference
    assert rr.pending(dict(record, inputs=dict(record["inputs"], spec=dict(spec, port=30000))),
                      dict(spec, port="30000")) == []
    edited = dict(spec, sglang_version="0.5.24", mem_fraction_static=0.8,
                  speculative=dict(spec["speculative"], verify="tree"))
    assert rr.pending(record, edited) == [
        "SGLang version: runs 0.5.23, the inventory says 0.5.24",
        "verify mode: runs linear, the inventory says tree",
        "spec keys differ: mem_fraction_static"]
    assert rr.pending(record, dict(spec, speculative=None)) == [
        "verify mode: runs linear, the inventory says none", "speculative algorithm: runs DFLASH, the inventory says none",
        "spec keys differ: speculative.draft_model_path"]
    assert rr.pending(None, spec) == ["no release runs yet: the inventory's spec is not deployed"]


def _tree(tmp_path, records):
    """A host's release tree: {rid: record or raw text}, then `links` [(instance, rid), ...] activated in order."""
    root = str(tmp_path / "opt")
    for rid, rec in records.items():
        _write(rr.path_of(root, rid), rec if isinstance(rec, str) else json.dumps(dict(V1, release_id=rid, **rec)))
    return root


def test_server_plan_links_and_rollback_targets(tmp_path):
    """rollback.yml's preflight (server_plan action=links with rollback_to): targets, problems, the models of
    the targets and of the current releases."""
    from test_module_sglang_flags import run_module
    from ansible_collections.specdeploy.sglang.plugins.modules import server_plan

    other = {"inputs": dict(V1["inputs"], spec={"model_path": "/srv/models/old", "sglang_version": "0.5.22"})}
    root = _tree(tmp_path, {"r0": other, "r1": {}})
    rel.activate(root, "tiny", "r0")
    rel.activate(root, "tiny", "r1")
    res = run_module(server_plan, {"action": "links", "instances": [{"name": "tiny"}],
                                   "settings": {"root": root, "rollback_to": "previous"}})
    assert not res.get("failed"), res
    assert res["links"]["tiny"]["current"] == "r1" and res["links"]["tiny"]["previous"] == "r0"
    assert res["links"]["tiny"]["record"]["schema"] == rr.SCHEMA
    assert res["models"] == ["/srv/models/tiny", "/srv/models/draft"]
    assert res["rollback"]["targets"] == {"tiny": "r0"} and res["rollback"]["problems"] == []
    assert res["rollback"]["models"] == ["/srv/models/old", "/srv/models/tiny", "/srv/models/draft"]
    res = run_module(server_plan, {"action": "links", "instances": [{"name": "tiny"}],
                                   "settings": {"root": root, "rollback_to": "0123456789abcdef"}})
    assert res["rollback"]["problems"] == [
        "release 0123456789abcdef of instance tiny is not on this host (pruned or never deployed here)"]
    assert res["rollback"]["releases"] == ["r0", "r1"]
    # no previous release
    root2 = _tree(tmp_path / "b", {"r1": {}})
    rel.activate(root2, "tiny", "r1")
    assert rel.rollback_targets(root2, rel.instance_links(root2, ["tiny"]))["problems"] == [
        "instance tiny has no previous release (current: r1)"]
    assert rel.rollback_targets(root2, {}, any_instances=False)["problems"] == ["no server_instances"]


def test_modules_refuse_a_corrupted_record_with_a_message_not_a_traceback(tmp_path):
    from test_module_sglang_flags import assert_clear_failure, run_module
    from ansible_collections.specdeploy.sglang.plugins.modules import deploy_state, server_plan

    root = _tree(tmp_path, {"r1": '{"release_id": '})
    rel.activate(root, "tiny", "r1")
    res = run_module(server_plan, {"action": "links", "instances": [{"name": "tiny"}], "settings": {"root": root}})
    assert_clear_failure(res)
    assert "r1/release.json is not valid JSON" in res["msg"]
    res = run_module(deploy_state, {"action": "record", "root": root, "key": "k", "instances": ["tiny"]})
    assert_clear_failure(res)
    assert "is not valid JSON" in res["msg"]
