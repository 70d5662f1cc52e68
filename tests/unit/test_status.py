"""status.yml's rows and files (plugins/module_utils/status.py): status.json, status.md, the job artifact's
counts and gateway-status.{json,md} are the same, byte for byte, as the ones status.yml's Jinja wrote before
these decisions moved to Python (fixtures/status/*.json: the registered results of server_plan action=status,
smoke_decode and gateway_workers action=list given to the old set_fact rows and templates, and the files
ansible-playbook wrote from them)."""
import glob
import json
import os

import pytest

from ansible_collections.specdeploy.sglang.plugins.module_utils import status

FIXTURES = sorted(glob.glob(os.path.join(os.path.dirname(__file__), "fixtures", "status", "*.json")))


def _load(path):
    with open(path) as handle:
        return json.load(handle)


def _rows(fixture):
    """The fleet's rows from the fixture's inputs, each host checked at the time the capture recorded."""
    checked = {}
    for row in json.loads(fixture["status_json"])["hosts"]:
        checked.setdefault(row["host"], row.get("checked_at"))
    hosts = []
    for host, v in fixture["inputs"]["hosts"].items():
        if v.get("capture_unreachable"):
            hosts.append((host, None))
            continue
        names = [i["name"] for i in v["server_instances"]]
        hosts.append((host, status.host_rows(host, names, v["__status_probe"], v["__status_generate"], checked[host])))
    return status.fleet_rows(hosts)


@pytest.mark.parametrize("path", FIXTURES, ids=[os.path.basename(p)[:-5] for p in FIXTURES])
def test_status_files_are_unchanged_from_the_jinja(path):
    fixture = _load(path)
    rows = _rows(fixture)
    assert status.status_json(rows) == fixture["status_json"]
    assert status.status_md(rows) == fixture["status_md"]
    assert dict(status.document(rows), counts=status.counts(rows)) == fixture["artifact"]


GATEWAY_FIXTURES = [p for p in FIXTURES if "gateway_status_json" in _load(p)]


@pytest.mark.parametrize("path", GATEWAY_FIXTURES, ids=[os.path.basename(p)[:-5] for p in GATEWAY_FIXTURES])
def test_gateway_files_are_unchanged_from_the_jinja(path):
    fixture = _load(path)
    rows = _rows(fixture)
    gateways = [status.gateway_doc(g, v["__gateway_list"], rows) for g, v in fixture["inputs"]["gateways"].items()]
    assert status.gateway_json(gateways) == fixture["gateway_status_json"]
    assert status.gateway_md(gateways) == fixture["gateway_status_md"]


def test_the_fixture_covers_every_health_and_section():
    assert GATEWAY_FIXTURES, "no fixture has gateways: the gateway files would go unchecked"
    fixture = _load(os.path.join(os.path.dirname(__file__), "fixtures", "status", "fleet.json"))
    health = {r["health"].split(" (")[0] for r in json.loads(fixture["status_json"])["hosts"]}
    assert health == {"healthy", "answers /health, does not generate", "unhealthy", "down", "unreachable"}
    assert "## Drift" in fixture["status_md"] and "## Pending" in fixture["status_md"]
    assert "MISSING from the gateway" in fixture["gateway_status_md"] and "NO INVENTORY HOST" in fixture["gateway_status_md"]


def test_a_reached_host_without_instances_is_reported_unreachable_as_before():
    # status.yml's Jinja treated "no rows" as "not reached"; kept, so the report's content does not change
    assert status.fleet_rows([("h", [])]) == [{"host": "h", "instance": "-", "health": "unreachable"}]


def test_health_needs_health_and_a_decode():
    assert status.health_of(200, {"passed": True}) == "healthy"
    assert status.health_of(200, {"passed": False, "failures": ["empty output"]}) == \
        "answers /health, does not generate (empty output)"
    assert status.health_of(200, {}) == "answers /health, does not generate (no result)"
    assert status.health_of(502, {}) == "unhealthy (HTTP 502)"
    assert status.health_of(-1, {}) == "down"


def test_gateway_lines():
    doc = {"workers": [{"url": "http://a:1", "healthy": True}, {"url": "http://b:1", "healthy": False}],
           "unknown": ["http://b:1"], "missing": [{"url": "http://c:1"}]}
    assert status.gateway_lines(doc) == ["http://a:1: healthy", "http://b:1: unhealthy",
                                         "routes to http://b:1: no inventory host owns it", "lacks http://c:1"]


def test_an_instance_whose_gate_never_finished_is_reported_not_gated_whatever_it_answers():
    """A host lost during its gate comes back running a release whose record still says staged: the probe
    names it (not_gated), and the row says so even though the server answers /health and generates."""
    probe = {"instances": [{"current": "r2", "health": 200, "not_gated": "r2", "gate": {"status": "staged"}}]}
    generate = {"results": [{"passed": True, "outputs": [{"text": " jumps"}]}]}
    row = status.host_rows("fleet-2", ["main"], probe, generate, "2026-12-05T00:00:00Z")[0]
    assert row["health"] == ("running release not gated (release r2: its gate did not finish; "
                             "the next deploy gates it)")
    assert row["last_gate"] == "staged"
    probe["instances"][0].pop("not_gated")
    assert status.host_rows("fleet-2", ["main"], probe, generate, "x")[0]["health"] == "healthy"
