"""deploy_state: what a host held after its last deploy, and whether it still does (on a temp tree).

The layout is the server role's (releases/, instances/<name>/current), the unit directory and the
driver's GPU list are temp directories, /health is a real HTTP server on a free local port. Only
`systemctl show` is given as a function (no systemd here; the fleet scenario runs the real one).
"""
import http.server
import json
import os
import threading
import time

import pytest

from ansible_collections.specdeploy.sglang.plugins.filter import deploy_key as dk
from ansible_collections.specdeploy.sglang.plugins.module_utils import deploy_state as ds
from ansible_collections.specdeploy.sglang.plugins.module_utils import release as rel

RUNNING = "ActiveState=active\nSubState=running\n"


class _Health(http.server.BaseHTTPRequestHandler):
    status = 200

    def do_GET(self):  # noqa: N802 (http.server's name)
        time.sleep(getattr(self.server, "delay", 0))
        self.send_response(self.server.status if self.path == "/health" else 404)
        self.end_headers()

    def log_message(self, *args):
        pass


@pytest.fixture
def server():
    httpd = http.server.HTTPServer(("127.0.0.1", 0), _Health)
    httpd.status = 200
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield httpd
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture
def host(tmp_path, server):
    """A host with one instance `main` on release r1 (r0 before it), its env and its model."""
    root, units, gpus = tmp_path / "opt", tmp_path / "units", tmp_path / "gpus"
    venv, model = tmp_path / "envs" / "abc", tmp_path / "models" / "org--m@c1"
    for d in (root / "releases" / "r0", root / "releases" / "r1", units, gpus / "0000:01:00.0", venv / "bin", model):
        d.mkdir(parents=True)
    (venv / "specdeploy.lock").write_text("torch==2.9 --hash=sha256:aa\n")
    (venv / ".specdeploy-complete").write_text("ok\n")
    (model / ".specdeploy-manifest.json").write_text('{"config.json": "x"}')
    (model / "config.json").write_text("{}")
    record = {"release_id": "r1", "instance": "main", "status": "active", "argv": [], "inputs": {"python": str(venv / "bin" / "python"), "spec": {
        "model_path": str(model), "host": "127.0.0.1", "port": server.server_address[1]}}}
    (root / "releases" / "r1" / "release.json").write_text(json.dumps(record))
    (units / "sglang-main.service").write_text("[Service]\nExecStart=/bin/true\n")
    # the release's own copy of the unit (the server role writes both): no drift
    (root / "releases" / "r1" / "sglang-main.service").write_text("[Service]\nExecStart=/bin/true\n")
    (tmp_path / "proc").mkdir()  # no process of any kind: test_drift.py covers processes
    rel.activate(str(root), "main", "r0")
    rel.activate(str(root), "main", "r1")
    kw = dict(unit_dir=str(units), gpu_dir=str(gpus))
    return {"root": str(root), "kw": kw, "check_kw": dict(kw, proc=str(tmp_path / "proc")), "units": units,
            "venv": venv, "model": model, "gpus": gpus}


def _check(h, key="k1", instances=("main",), state=RUNNING):
    return ds.check(h["root"], key, list(instances), run=lambda argv: state, timeout=2, **h["check_kw"])


def test_a_host_never_recorded_is_not_converged(host):
    converged, why, links = _check(host)
    assert not converged and why == ["no deploy state recorded yet (deploy-state.json)"]
    assert links["main"]["current"] == "r1" and links["main"]["previous"] == "r0"
    assert links["main"]["record"]["release_id"] == "r1"


def test_recorded_host_that_is_unchanged_and_serving_is_converged(host):
    changed, state = ds.record(host["root"], "k1", ["main"], **host["kw"])
    assert changed and state["instances"] == {"main": {"current": "r1", "previous": "r0"}}
    assert state["gpus"] == ["0000:01:00.0"]
    assert oct(os.stat(ds.state_path(host["root"])).st_mode & 0o777) == "0o600"
    assert _check(host) == (True, [], _check(host)[2])
    # recording the same again writes nothing
    assert ds.record(host["root"], "k1", ["main"], **host["kw"])[0] is False


def test_record_from_links_read_once_is_the_same_record_and_they_are_the_release_after(host):
    # deploy.yml takes the links the record was made from as the release after the run (no second read)
    found = ds.links_and_records(host["root"], ["main"])
    changed, state = ds.record(host["root"], "k1", ["main"], found=found, **host["kw"])
    assert changed and state["instances"] == {"main": {"current": "r1", "previous": "r0"}}
    assert found["main"]["record"]["release_id"] == "r1"
    # the same record as one made without them: recording again writes nothing
    assert ds.record(host["root"], "k1", ["main"], **host["kw"])[0] is False
    assert _check(host)[0] is True


@pytest.mark.parametrize("drift,expected", [
    (lambda h: (h["units"] / "sglang-main.service").write_text("[Service]\nExecStart=/bin/false\n"),
     "sglang-main.service changed"),
    (lambda h: (h["venv"] / ".specdeploy-complete").unlink(), ".specdeploy-complete is gone"),
    (lambda h: (h["model"] / "config.json").write_text('{"hidden_size": 8}'), "org--m@c1/ changed"),
    (lambda h: (h["model"] / "extra.bin").write_text("x"), "org--m@c1/ changed"),
    (lambda h: (h["gpus"] / "0000:01:00.0").rmdir(), "GPUs listed by the driver changed"),
    (lambda h: rel.activate(h["root"], "main", "r0"), "main: current release is r0, was r1"),
])
def test_drift_after_the_record_is_named(host, drift, expected):
    ds.record(host["root"], "k1", ["main"], **host["kw"])
    drift(host)
    converged, why, _ = _check(host)
    assert not converged
    assert any(expected in line for line in why), why


def test_other_inputs_or_instances_are_not_converged(host):
    ds.record(host["root"], "k1", ["main"], **host["kw"])
    assert _check(host, key="k2")[1] == [
        "the inputs changed since the last deploy (inventory variables or the collection)"]
    converged, why, _ = ds.check(host["root"], "k1", ["main", "spare"], run=lambda argv: RUNNING, **host["check_kw"])
    assert not converged and "instances were main, now main, spare" in why


def test_a_stopped_or_unhealthy_instance_is_not_converged(host, server):
    ds.record(host["root"], "k1", ["main"], **host["kw"])
    assert _check(host, state="ActiveState=inactive\nSubState=dead\n")[1] == [
        "sglang-main.service is inactive (dead)"]
    server.status = 503
    assert _check(host)[1] == ["main: GET /health failed: HTTP 503"]
    server.shutdown()
    server.server_close()
    converged, why, _ = _check(host)
    assert not converged and why[0].startswith("main: GET /health failed:")


def test_record_refuses_an_instance_without_a_release_and_bad_names(host):
    with pytest.raises(ds.StateError, match="no current release for spare"):
        ds.record(host["root"], "k1", ["main", "spare"], **host["kw"])
    with pytest.raises(ds.StateError, match="instance name"):
        ds.check(host["root"], "k1", ["../etc"], **host["check_kw"])
    assert not os.path.exists(ds.state_path(host["root"]))


def test_an_unreadable_or_foreign_state_is_not_converged(host):
    with open(ds.state_path(host["root"]), "w") as handle:
        handle.write("{not json")
    assert _check(host)[1][0].startswith("the deploy state cannot be read:")
    with open(ds.state_path(host["root"]), "w") as handle:
        json.dump({"version": 99}, handle)
    assert _check(host)[1] == ["the deploy state has format 99, this collection writes 1"]


def test_check_mode_record_writes_nothing(host):
    changed, _ = ds.record(host["root"], "k1", ["main"], check_mode=True, **host["kw"])
    assert changed and not os.path.exists(ds.state_path(host["root"]))


def test_health_url_follows_the_spec():
    assert ds.health_url({"inputs": {"spec": {"host": "0.0.0.0", "port": 8000}}}) == "http://127.0.0.1:8000/health"
    assert ds.health_url({"inputs": {"spec": {"host": "::1"}}}) == "http://[::1]:30000/health"
    assert ds.health_url({}) == "http://127.0.0.1:30000/health"


def test_deploy_key_counts_role_variables_and_the_collection_only(tmp_path):
    base = {"server_instances": [{"name": "main"}], "weights_models": {"t": {"commit": "a"}},
            "ansible_host": "h1", "lab_note": "x"}
    key = dk.deploy_key(base)
    assert key == dk.deploy_key(dict(base))
    assert key == dk.deploy_key(dict(base, ansible_host="h2", lab_note="y"))
    assert key != dk.deploy_key(dict(base, weights_models={"t": {"commit": "b"}}))
    assert key != dk.deploy_key(dict(base, gpu_env_extra=1))
    # the collection's own files count: a copy with one task changed gives another tree digest
    for tree in dk.TREES:
        (tmp_path / tree).mkdir()
    (tmp_path / "roles" / "main.yml").write_text("a")
    first = dk.tree_digest(str(tmp_path))
    dk._TREE_DIGEST.clear()
    (tmp_path / "roles" / "main.yml").write_text("b")
    assert dk.tree_digest(str(tmp_path)) != first
    dk._TREE_DIGEST.clear()


def test_a_lock_edited_in_place_changes_the_key_and_is_named(host, tmp_path):
    """deploy.yml: same variables (the lock's path), one comment line appended to the lock's content."""
    from ansible_collections.specdeploy.sglang.plugins.module_utils import gpu_env as ge
    lock = tmp_path / "sglang.lock"
    lock.write_text("torch==2.9 \\\n    --hash=sha256:" + "a" * 64 + "\n")
    hostvars = {"gpu_env_lock_file": str(lock), "server_instances": [{"name": "main"}]}

    def key_now():
        desired = {"env_key": ge.env_key(lock.read_text(), False)}
        return dk.deploy_key(hostvars, desired=desired), desired

    key, desired = key_now()
    ds.record(host["root"], key, ["main"], desired=desired, **host["kw"])
    assert ds.check(host["root"], key, ["main"], run=lambda argv: RUNNING, desired=desired, **host["check_kw"])[0]
    with open(str(lock), "a") as handle:
        handle.write("# bump\n")
    new_key, new_desired = key_now()
    assert new_key != key
    converged, why, _ = ds.check(host["root"], new_key, ["main"], run=lambda argv: RUNNING, desired=new_desired,
                                 **host["check_kw"])
    assert not converged
    assert why == ["the desired env_key changed: %s -> %s (the lock's content)"
                   % (desired["env_key"][:20], new_desired["env_key"][:20])]


def test_a_busy_server_whose_health_check_takes_seconds_is_serving(server):
    """SGLang's /health on an idle server generates a token first and may take up to its own 20 s check to
    answer; on a loaded host 6 s happens. The default wait must not call that server down (5 s did)."""
    server.delay = 6
    assert ds.health("http://127.0.0.1:%d/health" % server.server_address[1]) is None
    server.delay, server.status = 0, 503
    assert ds.health("http://127.0.0.1:%d/health" % server.server_address[1]) == "HTTP 503"


def test_a_host_whose_running_release_was_never_gated_is_not_unchanged(host):
    """Recorded and serving, then a restart of r1 through the gate whose end never came (a host lost during
    its gate: the gate wrote the record `staged` first): the next deploy must gate it again."""
    ds.record(host["root"], "k1", ["main"], **host["kw"])
    path = os.path.join(host["root"], "releases", "r1", "release.json")
    record = json.loads(open(path).read())
    with open(path, "w") as handle:
        handle.write(json.dumps(dict(record, status="staged")))
    converged, why, _links = _check(host)
    assert not converged and "main: release r1 runs and its gate did not finish" in why, why
