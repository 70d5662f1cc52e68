"""Fleet scenario, in order (pytest runs a file's tests top to bottom; each step builds on the last).

After converge (a healthy rollout of release R1):
  1. every host serves a real /generate from R1;        2. status.yml matches the hosts' real state (fleet-1's
     live /metrics figures, no drift); verify.yml smokes without restarting; a re-run finds every host as its
     deploy left it (changed=0 everywhere, no role runs: the scenario's idempotence check); on one host a unit edited by hand (one more flag) and restarted by hand, and
     a hand-made unit: status.yml names the drift, the next deploy finds it, puts the unit back and only that
     host restarts;
  3. a host that cannot stage its weights stops the run before any host restarts;
     preflight on inventories/production (filled in) passes with no host reachable; a broken variant fails
     naming host and reason;
  4. F6: the canary fails its gate -> rolled back, no other host touched; 4b. the canary passes its gate
     and fails the canary analysis (SGLang's /metrics against a threshold) -> rolled back, rollout stopped;
  5. a host unreachable from the start (status and deploy write their reports, R2 reaches fleet-1), then
     fleet-2 lost during its gate (summary says so; status says its running release is not gated); release
     R2 reaches every host (fleet-2 gated);  5b. one byte flipped in fleet-1's published weights: a new release
     (full run) and a rollback are refused before any restart naming the file and both hashes, and
     status.yml says a server restarted into them answers /health but does not generate;  6. rollback to a release that is gone is refused, nothing
     restarts;  7. rollback returns every host to R1, each serving /generate;  8. status again.
The playbooks run as a user runs them (ansible-playbook on the controller); the checks read the
hosts directly (podman exec), never the playbooks' own output alone.
"""
import base64
import json
import os
import re
import subprocess
import sys

import testinfra
import yaml

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "shared"))
import timed_playbook  # noqa: E402  (molecule/shared)
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))), "tests", "support"))
import production_example  # noqa: E402  (inventories/production filled in as its comments ask)

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))   # molecule/fleet
ROOT = os.path.dirname(os.path.dirname(HERE))
HOSTS = ["fleet-1", "fleet-2"]   # a canary and the rest
ROOT_DIR = "/opt/specdeploy"
INSTANCE = "main"
UNIT = f"sglang-{INSTANCE}.service"
# fleet-1's instance listens on an address of its own (host_vars/fleet-1.yml), the others on loopback;
# every host's environment carries a dead http_proxy (molecule.yml), so the checks open no proxy either
ADDR = {"fleet-1": "192.0.2.11"}
NOPROXY = "o=urllib.request.build_opener(urllib.request.ProxyHandler({{}}));"
GEN = ("python3 -c \"import json,urllib.request;" + NOPROXY +
       "r=urllib.request.Request('http://{addr}:30000/generate',"
       "data=json.dumps({{'text':'The quick brown fox','sampling_params':"
       "{{'temperature':0,'max_new_tokens':8}}}}).encode(),"
       "headers={{'Content-Type':'application/json'}});"
       "print(o.open(r,timeout=120).read().decode())\"")
GET = ("python3 -c \"import sys,urllib.request;" + NOPROXY +
       "r=o.open('http://{addr}:30000/{path}',timeout=60);print(r.status);print(r.read().decode())\"")
MEMO = {}


def host(name):
    return testinfra.get_host(f"podman://{name}")


def state(name):
    h = host(name)
    links = {}
    for link in ("current", "previous"):
        out = h.run(f"readlink {ROOT_DIR}/instances/{INSTANCE}/{link}")
        links[link] = os.path.basename(out.stdout.strip()) if out.rc == 0 else None
    show = h.check_output(f"systemctl show -p ActiveState -p ActiveEnterTimestamp -p MainPID {UNIT}")
    unit = dict(line.split("=", 1) for line in show.splitlines() if "=" in line)
    return {**links, **unit}


def generate(name):
    out = json.loads(host(name).check_output(GEN.format(addr=ADDR.get(name, "127.0.0.1"))))
    assert out["meta_info"]["completion_tokens"] > 0, out
    return out


def journal(name):
    return host(name).run(f"journalctl -u {UNIT} --no-pager -n 40").stdout


def playbook(name, *args, report_dir):
    inventory = os.environ.get("MOLECULE_INVENTORY_FILE") or os.path.join(
        os.environ["MOLECULE_EPHEMERAL_DIRECTORY"], "inventory")
    env = dict(os.environ, SPECDEPLOY_REPORT_DIR=str(report_dir), ANSIBLE_FORCE_COLOR="0")
    path = os.path.join(HERE, name) if name == "converge.yml" else os.path.join(ROOT, "playbooks", name)
    return timed_playbook.run(["ansible-playbook", "-i", inventory, path, *args],
                               cwd=ROOT, env=env)


def report(report_dir, name):
    with open(os.path.join(report_dir, name), encoding="utf-8") as f:
        return json.load(f)


def test_rollout_reached_every_host():
    states = {h: state(h) for h in HOSTS}
    for name, st in states.items():
        assert st["ActiveState"] == "active", journal(name)
        assert st["current"], f"{name} has no current release"
        generate(name)
    # same inputs on every host but fleet-1's address -> fleet-1 has a release id of its own
    assert len({st["current"] for n, st in states.items() if n not in ADDR}) == 1, states
    # fleet-1 serves on its own address only (loopback refuses), through a dead proxy in its environment
    f1 = host("fleet-1")
    assert f1.check_output("printenv http_proxy") == "http://127.0.0.1:9"
    assert f1.run(GET.format(addr="127.0.0.1", path="health")).rc != 0
    assert f1.check_output(GET.format(addr=ADDR["fleet-1"], path="health")).startswith("200")
    MEMO["r1"] = {h: st["current"] for h, st in states.items()}  # per host


def check_status_matches(tmp_path):
    rc, out = playbook("status.yml", report_dir=tmp_path)
    assert rc == 0, out
    rows = {r["host"]: r for r in report(tmp_path, "status.json")["hosts"]}
    md = (tmp_path / "status.md").read_text()
    assert set(rows) == set(HOSTS)
    for name in HOSTS:
        st, row = state(name), rows[name]
        info = host(name).check_output(GET.format(addr=ADDR.get(name, "127.0.0.1"), path="server_info")).split("\n", 1)
        server_info = json.loads(info[1])
        assert row["release"] == st["current"]
        assert row["previous_release"] == st["previous"]
        assert row["unit"] == st["ActiveState"]
        assert row["health"] == "healthy"
        assert row["url"] == "http://%s:30000" % ADDR.get(name, "127.0.0.1")
        assert row["sglang_version"] == server_info["version"] == "0.5.23"
        assert row["speculative_algorithm"] == server_info.get("speculative_algorithm")
        assert row["attention_backend"] == server_info.get("attention_backend") == "torch_native"
        record = json.loads(host(name).check_output(f"cat {ROOT_DIR}/releases/{st['current']}/release.json"))
        assert row["tokens_per_s"] == (record.get("smoke") or {}).get("tokens_per_s")
        assert f"| {name} | {INSTANCE} | {st['current']} |" in md
        assert row["drift"] == [], row
        assert row["pending"] == [], row                  # the inventory describes what runs
        assert row["flags"] == record["argv"] and row["verify"] is None, row
        # SGLang's own /metrics: fleet-1's releases set enable_metrics (host_vars), the others answer 404
        if record["inputs"]["spec"].get("enable_metrics"):
            assert row["metrics"] == "ok", row
            assert isinstance(row["running_requests"], int) and isinstance(row["queued_requests"], int), row
            assert isinstance(row["requests_total"], float) and isinstance(row["errors_total"], float), row
            assert isinstance(row["live_tokens_per_s"], float), row
            assert row["live_accept_length"] is None, row   # shown for speculative instances only
        else:
            assert row["metrics"] == "off", row
    assert "| accept length (live) | tokens/s (live) | running | queued | errors |" in md


def test_status_matches_real_state(tmp_path):
    check_status_matches(tmp_path)


def test_status_after_an_inventory_edit_reports_what_runs_and_the_pending_difference(tmp_path):
    """The inventory now says SGLang 0.5.22 with DFLASH tree verification (vars/pending.yml), not deployed:
    status reports the running release's version, verify mode and flags, and names the edit as pending."""
    before = {h: state(h) for h in HOSTS}
    rc, out = playbook("status.yml", "-e", "@" + os.path.join(HERE, "vars", "pending.yml"), report_dir=tmp_path)
    assert rc == 0, out
    rows = {r["host"]: r for r in report(tmp_path, "status.json")["hosts"]}
    md = (tmp_path / "status.md").read_text()
    for name in HOSTS:
        row = rows[name]
        record = json.loads(host(name).check_output(f"cat {ROOT_DIR}/releases/{before[name]['current']}/release.json"))
        assert row["release"] == before[name]["current"] and row["health"] == "healthy", row
        assert row["sglang_version"] == row["release_sglang_version"] == "0.5.23", row
        assert row["verify"] is None and row["speculative_algorithm"] is None, row
        assert row["flags"] == record["argv"] and "--speculative-algorithm" not in row["flags"], row
        assert row["pending"] == [
            "SGLang version: runs 0.5.23, the inventory says 0.5.22",
            "verify mode: runs none, the inventory says tree",
            "speculative algorithm: runs none, the inventory says DFLASH",
            "spec keys differ: speculative.draft_model_path"], row
        assert f"- {name}/{INSTANCE}: SGLang version: runs 0.5.23, the inventory says 0.5.22;" in md, md
    assert "## Pending (the inventory differs from what runs; not deployed yet)" in md, md
    assert {h: state(h) for h in HOSTS} == before        # read-only


def test_verify_playbook_smokes_every_host(tmp_path):
    before = {h: state(h) for h in HOSTS}
    rc, out = playbook("verify.yml", report_dir=tmp_path)
    assert rc == 0, out
    for name in HOSTS:
        assert f"{name}/{INSTANCE}: passed" in out, out
    assert {h: state(h) for h in HOSTS} == before      # smoke only: nothing restarted


def test_rerun_of_an_unchanged_fleet_runs_no_role_and_restarts_nothing(tmp_path):
    """Each host is as its last deploy left it: deploy.yml reports it unchanged without running the roles."""
    before = {h: state(h) for h in HOSTS}
    rc, out = playbook("converge.yml", report_dir=tmp_path)
    assert rc == 0, out
    assert out.count("unchanged: as the last deploy left it, and serving") == len(HOSTS), out
    assert "TASK [specdeploy.sglang." not in out, out          # no role task ran on any host
    for name in HOSTS:                                       # Molecule's idempotence check, stricter
        assert re.search(r"^%s +: ok=\d+ +changed=0 +unreachable=0 +failed=0" % name, out, re.M), out
    rows = report(tmp_path, "deploy-summary.json")["hosts"]
    assert sorted((r["host"], r["release_before"], r["release_after"], r["result"]) for r in rows) == \
        [(h, MEMO["r1"][h], MEMO["r1"][h], "unchanged") for h in HOSTS]
    assert {h: state(h) for h in HOSTS} == before
    for name in HOSTS:
        f = host(name).file(f"{ROOT_DIR}/deploy-state.json")
        assert f.user == "root" and f.mode == 0o600
        recorded = json.loads(f.content_string)
        assert recorded["instances"] == {INSTANCE: {"current": MEMO["r1"][name], "previous": None}}
        assert recorded["files"][f"/etc/systemd/system/{UNIT}"] == \
            host(name).check_output(f"sha256sum /etc/systemd/system/{UNIT}").split()[0]


HANDMADE = "/etc/systemd/system/sglang-handmade.service"


def test_a_hand_edited_unit_is_found_put_back_and_only_that_host_restarts(tmp_path):
    """Drift: on fleet-2 the unit is edited by hand (one more flag, --enable-metrics) and the server restarted
    by hand into it, and a hand-made unit appears; status.yml names both per host, and the next deploy takes
    fleet-2 through the full deploy: the unit put back, the server restarted, the hand-made unit named."""
    unit_path = f"/etc/systemd/system/{UNIT}"
    before = {h: state(h) for h in HOSTS}
    f2 = host("fleet-2")
    digest = f2.check_output(f"sha256sum {unit_path}").split()[0]
    # the first ExecStart line (the program words) ends in " \": the flag goes after them
    text = f2.file(unit_path).content_string
    first = next(line for line in text.splitlines() if line.startswith("ExecStart="))
    edited = text.replace(first, first[:-2] + ' "--enable-metrics" \\', 1) + "# edited by hand\n"
    assert '"sglang.launch_server" "--enable-metrics" \\\n' in edited, edited
    handmade = "[Service]\nExecStart=/usr/bin/python3 -m sglang.launch_server --port 30099\n"
    for path, content in ((unit_path, edited), (HANDMADE, handmade)):
        f2.check_output(f"echo {base64.b64encode(content.encode()).decode()} | base64 -d > {path}")
    f2.check_output(f"systemctl daemon-reload && systemctl restart {UNIT}")   # restarted by hand; not awaited
    pid = state("fleet-2")["MainPID"]
    rc, out = playbook("status.yml", report_dir=tmp_path)
    assert rc == 0, out
    rows = {r["host"]: r for r in report(tmp_path, "status.json")["hosts"]}
    assert rows["fleet-2"]["drift"] == [
        f"{UNIT} (pid {pid}): its command line differs from release {MEMO['r1']['fleet-2']}: +--enable-metrics",
        "sglang-handmade.service: no release wrote this unit",
        f"{UNIT} differs from every release's unit (edited by hand?)"], rows["fleet-2"]
    assert rows["fleet-1"]["drift"] == []
    md = (tmp_path / "status.md").read_text()
    assert "## Drift" in md and "- fleet-2: sglang-handmade.service: no release wrote this unit" in md, md
    rc, out = playbook("converge.yml", report_dir=tmp_path)
    f2.check_output(f"rm -f {HANDMADE} && systemctl daemon-reload")   # the operator removes it
    assert rc == 0, out
    assert f"{unit_path} changed" in out, out                 # what the state check found on fleet-2
    assert "drift: sglang-handmade.service: no release wrote this unit" in out, out
    assert "its command line differs from release" in out and "+--enable-metrics" in out, out
    after = {h: state(h) for h in HOSTS}
    assert host("fleet-2").check_output(f"sha256sum {unit_path}").split()[0] == digest
    assert after["fleet-2"]["current"] == MEMO["r1"]["fleet-2"] and after["fleet-2"]["ActiveState"] == "active"
    assert after["fleet-2"]["ActiveEnterTimestamp"] != before["fleet-2"]["ActiveEnterTimestamp"]
    generate("fleet-2")
    assert after["fleet-1"] == before["fleet-1"]
    rows = {r["host"]: r for r in report(tmp_path, "deploy-summary.json")["hosts"]}
    assert {h: r["result"] for h, r in rows.items()} == \
        {"fleet-1": "unchanged", "fleet-2": "restarted"}, rows


def test_a_host_that_cannot_stage_stops_the_run_before_any_restart(tmp_path):
    """fleet-2's pinned manifest disagrees with the mirror: fleet-1 stages fine, yet no host restarts
    (the rollout play never starts) and the summary names fleet-2 and the file."""
    before = {h: state(h) for h in HOSTS}
    rc, out = playbook("converge.yml", "-e", "@" + os.path.join(HERE, "vars", "fault_stage.yml"),
                       report_dir=tmp_path)
    assert rc != 0, out
    assert "Staging failed on fleet-2; no host was restarted." in out, out
    assert "PLAY [Roll out" not in out, out
    rows = {r["host"]: r for r in report(tmp_path, "deploy-summary.json")["hosts"]}
    assert rows["fleet-2"]["result"] == "failed, still on the release before", rows
    assert "config.json" in rows["fleet-2"]["error"], rows
    assert rows["fleet-1"]["result"] == "not reached", rows
    assert {h: state(h) for h in HOSTS} == before
    for name in HOSTS:   # the server role never ran: no release directory for the new inputs
        assert host(name).check_output(f"ls {ROOT_DIR}/releases").split() == [MEMO["r1"][name]]
        generate(name)


def test_preflight_production_passes_with_no_host_reachable(tmp_path):
    env = dict(os.environ, SPECDEPLOY_REPORT_DIR=str(tmp_path), ANSIBLE_FORCE_COLOR="0")
    inv = production_example.filled_copy(tmp_path / "inv" / "production")
    proc = subprocess.run(["ansible-playbook", "-i", inv, "playbooks/preflight.yml"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out
    assert "Preflight passed:" in out
    for label in ("pro6000-a1/main", "pro6000-a2/main", "pro6000-a2/second", "pro6000-b1/main", "pro6000-b2/main"):
        assert f"OK    {label}: " in out, out
    assert "UNREACHABLE" not in out


def test_preflight_broken_variant_names_host_and_reason(tmp_path):
    inv = tmp_path / "inv" / "production"
    production_example.filled_copy(inv)
    models = os.environ.get("SPECDEPLOY_LAB_MODELS", os.path.join(ROOT, ".lab", "models"))
    # pro6000-a1: fa3 on sm_120 (fails at model load on the real host)
    (inv / "host_vars" / "pro6000-a1.yml").write_text(yaml.safe_dump({
        "server_instances": [{"name": "main", "cuda_visible_devices": "0,1",
                              "spec": "{{ prod_spec_base | combine({'attention_backend': 'fa3', 'speculative': prod_ddtree}) }}"}]}))
    # pro6000-b1: block size and draft tokens per step disagree (SGLang refuses it at start)
    (inv / "host_vars" / "pro6000-b1.yml").write_text(yaml.safe_dump({
        "server_instances": [{"name": "main", "cuda_visible_devices": "0,1",
                              "spec": "{{ prod_spec_base | combine({'speculative': prod_dflash_linear | combine({'num_draft_tokens': 8})}) }}"}]}))
    # pro6000-b2: block size 8 for a block-size-16 drafter (its config.json from the lab kit):
    # SGLang serves it with a warning, accepting ~1 token per step; the fleet refuses it
    (inv / "host_vars" / "pro6000-b2.yml").write_text(yaml.safe_dump({
        "server_instances": [{"name": "main", "cuda_visible_devices": "0,1",
                              "spec": "{{ prod_spec_base | combine({'speculative': prod_dflash_linear | combine({'block_size': 8, 'num_draft_tokens': 8})}) }}"}],
        "sglang_target_config": os.path.join(models, "qwen3-8b-config", "config.json"),
        "sglang_draft_config": os.path.join(models, "qwen3-8b-dflash-b16-config", "config.json")}))
    env = dict(os.environ, SPECDEPLOY_REPORT_DIR=str(tmp_path), ANSIBLE_FORCE_COLOR="0",
               ANSIBLE_CALLBACK_RESULT_FORMAT="json", ANSIBLE_CALLBACK_FORMAT_PRETTY="false")
    proc = subprocess.run(["ansible-playbook", "-i", str(inv), "playbooks/preflight.yml"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    out = proc.stdout + proc.stderr
    assert proc.returncode != 0, out
    assert "UNREACHABLE" not in out and "unreachable=1" not in out      # no host contacted
    # the failed task's line: stdout by default, stderr under display_failed_stderr (Molecule sets it)
    fatal = [line for line in (proc.stdout + "\n" + proc.stderr).splitlines()
             if line.startswith("fatal:") and "=> {" in line]
    assert len(fatal) == 1, out
    lines = json.loads(fatal[0].split("=> ", 1)[1])["msg"]
    assert lines[0] == "Preflight failed; no host was touched:"

    def reasons(label):
        return " ".join(line for line in lines if line.startswith(f"FAIL  {label}:"))
    assert "fa3" in reasons("pro6000-a1/main") and "sm_120" in reasons("pro6000-a1/main"), lines
    assert "block_size" in reasons("pro6000-b1/main"), lines
    assert "BLOCK_SIZE_MISMATCH" in reasons("pro6000-b2/main"), lines
    assert not reasons("pro6000-a2/main") and not reasons("pro6000-a2/second"), lines
    # nothing after the preflight ran: deploy.yml on the same inventory stops before any host play
    proc = subprocess.run(["ansible-playbook", "-i", str(inv), "playbooks/deploy.yml"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert proc.returncode != 0
    plays = [line for line in proc.stdout.splitlines() if line.startswith("PLAY [")]
    # the --limit check's play (plays/limit.yml), then the preflight's, which stops the run
    assert len(plays) == 2 and "--limit selects" in plays[0] and "Preflight" in plays[1], proc.stdout


def test_f6_failed_canary_rolls_back_and_touches_no_other_host(tmp_path):
    before = {h: state(h) for h in HOSTS}
    rc, out = playbook("converge.yml", "-e", "@" + os.path.join(HERE, "vars", "fault_canary.yml"),
                       report_dir=tmp_path)
    assert rc != 0, out
    rows = {r["host"]: r for r in report(tmp_path, "deploy-summary.json")["hosts"]}
    failed = [h for h, r in rows.items() if r["result"].startswith("failed")]
    assert len(failed) == 1, rows
    canary = failed[0]
    assert rows[canary]["result"] == "failed, still on the release before", rows
    after = {h: state(h) for h in HOSTS}
    # rolled back (not refused before the restart): the canary's unit was started again, the new release
    # is on the host as a failed release with the gate's error, and the play's error says so
    assert after[canary]["ActiveEnterTimestamp"] != before[canary]["ActiveEnterTimestamp"]
    assert after[canary]["MainPID"] != before[canary]["MainPID"]
    failed_ids = [r for r in host(canary).check_output(f"ls {ROOT_DIR}/releases").split() if r != MEMO["r1"][canary]]
    assert len(failed_ids) == 1, failed_ids
    rec = json.loads(host(canary).check_output(f"cat {ROOT_DIR}/releases/{failed_ids[0]}/release.json"))
    assert rec["status"] == "failed" and rec["smoke"] and rec["smoke"]["passed"] is False
    assert rec["rollback_smoke"]["passed"] is True and rec["error"]
    assert f"release {failed_ids[0]} FAILED" in rows[canary]["error"]
    assert f"Rolled back to release {MEMO['r1'][canary]}: smoke passed" in rows[canary]["error"]
    # the canary: back on its release, serving
    assert after[canary]["current"] == before[canary]["current"] == MEMO["r1"][canary]
    assert after[canary]["ActiveState"] == "active", journal(canary)
    generate(canary)
    for name in HOSTS:
        if name == canary:
            continue
        assert rows[name]["result"] == "not reached", rows
        assert after[name]["current"] == before[name]["current"]
        assert after[name]["ActiveEnterTimestamp"] == before[name]["ActiveEnterTimestamp"]
        assert after[name]["MainPID"] == before[name]["MainPID"]
        assert host(name).check_output(f"ls {ROOT_DIR}/releases").split() == [MEMO["r1"][name]]


def test_a_canary_that_fails_its_analysis_is_rolled_back_and_the_rollout_stops(tmp_path):
    """The canary passes its gate, then fails the canary analysis on SGLang's own /metrics (a throughput
    threshold an idle host cannot meet): rolled back to R1 through the gate, fleet-2 never reached."""
    before = {h: state(h) for h in HOSTS}
    releases_before = host("fleet-1").check_output(f"ls {ROOT_DIR}/releases").split()
    rc, out = playbook("converge.yml", "-e", "@" + os.path.join(HERE, "vars", "canary_analysis.yml"),
                       report_dir=tmp_path)
    assert rc != 0, out
    rows = {r["host"]: r for r in report(tmp_path, "deploy-summary.json")["hosts"]}
    assert rows["fleet-1"]["result"] == "failed, still on the release before", rows
    err = rows["fleet-1"]["error"]
    assert "canary analysis failed: main: generation throughput " in err and "tokens/s < 1000000" in err, err
    assert f"rolled back through the gate to release(s) {MEMO['r1']['fleet-1']}" in err, err
    assert "The rollout stops here; no later batch starts." in out, out
    # fleet-1 ran the new release (it passed its gate) and runs R1 again: restarted twice, serving
    after = state("fleet-1")
    assert after["current"] == MEMO["r1"]["fleet-1"] and after["ActiveState"] == "active", journal("fleet-1")
    assert after["MainPID"] != before["fleet-1"]["MainPID"]
    new = [r for r in host("fleet-1").check_output(f"ls {ROOT_DIR}/releases").split() if r not in releases_before]
    assert len(new) == 1, new
    rec = json.loads(host("fleet-1").check_output(f"cat {ROOT_DIR}/releases/{new[0]}/release.json"))
    assert rec["smoke"]["passed"] is True and rec["inputs"]["spec"]["env"]["SPECDEPLOY_FLEET_RELEASE"] == "canary"
    assert "SPECDEPLOY_FLEET_RELEASE" not in host("fleet-1").check_output(f"systemctl show -p Environment {UNIT}")
    generate("fleet-1")
    assert rows["fleet-2"]["result"] == "not reached", rows
    assert state("fleet-2") == before["fleet-2"]
    assert host("fleet-2").check_output(f"ls {ROOT_DIR}/releases").split() == [MEMO["r1"]["fleet-2"]]


RELEASE2 = os.path.join(HERE, "vars", "release2.yml")


def podman(*args):
    out = subprocess.run(["podman", *args], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stdout + out.stderr
    return out.stdout


def boot(name):
    """Start a stopped lab host again and wait for its systemd (its SGLang unit is enabled: it starts)."""
    podman("start", name)
    host(name).run("systemctl is-system-running --wait")


def playbook_stopping(name, *args, report_dir, line, victim):
    """playbook(), with `victim` killed (podman kill: gone at once, as a host that loses power) as soon as the
    output shows a line starting with `line`. Returns (rc, output, whether it was killed)."""
    inventory = os.environ.get("MOLECULE_INVENTORY_FILE") or os.path.join(
        os.environ["MOLECULE_EPHEMERAL_DIRECTORY"], "inventory")
    env = dict(os.environ, SPECDEPLOY_REPORT_DIR=str(report_dir), ANSIBLE_FORCE_COLOR="0")
    path = os.path.join(HERE, name) if name == "converge.yml" else os.path.join(ROOT, "playbooks", name)
    proc = subprocess.Popen(["ansible-playbook", "-i", inventory, path, *args], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    lines, killed = [], False
    for text in proc.stdout:
        lines.append(text)
        if not killed and text.startswith(line):
            podman("kill", victim)
            killed = True
    return proc.wait(timeout=1800), "".join(lines), killed


def test_hosts_unreachable_from_the_start_are_reported_and_the_others_deployed(tmp_path):
    """fleet-2 is down (killed) before the run: status (--limit fleet-2: no host of the run reachable) writes
    its report with fleet-2 unreachable; a deploy limited to it writes its summary; a rollback restarts
    nothing and its summary says why; the deploy of release R2 over the fleet deploys fleet-1 and says
    fleet-2 was unreachable before its round; the runs but status fail."""
    before = state("fleet-2")
    podman("kill", "fleet-2")
    try:
        rc, out = playbook("status.yml", "--limit", "fleet-2", report_dir=tmp_path / "status")
        assert rc == 0, out
        assert report(tmp_path / "status", "status.json")["hosts"] == [
            {"host": "fleet-2", "instance": "-", "health": "unreachable"}]
        rc, out = playbook("converge.yml", "-e", "@" + RELEASE2, "--limit", "fleet-2", report_dir=tmp_path / "alone")
        assert rc != 0, out
        assert [(r["host"], r["result"]) for r in report(tmp_path / "alone", "deploy-summary.json")["hosts"]] == \
            [("fleet-2", "unreachable before its round")], out
        before1 = state("fleet-1")
        rc, out = playbook("rollback.yml", "-e", "@" + RELEASE2, report_dir=tmp_path / "rollback")
        assert rc != 0 and "Nothing was restarted on any host" in out, out
        assert [(r["host"], r["result"]) for r in report(tmp_path / "rollback", "rollback-summary.json")["hosts"]] == \
            [("fleet-1", "not reached"), ("fleet-2", "unreachable before its round")], out
        assert state("fleet-1") == before1
        rc, out = playbook("converge.yml", "-e", "@" + RELEASE2, report_dir=tmp_path)
    finally:
        boot("fleet-2")
    assert rc != 0, out
    assert "fleet-2: unreachable before its round" in out, out
    rows = {r["host"]: r for r in report(tmp_path, "deploy-summary.json")["hosts"]}
    assert rows["fleet-2"]["result"] == "unreachable before its round" and rows["fleet-2"]["release_after"] is None
    assert rows["fleet-1"]["result"] == "changed" and rows["fleet-1"]["release_before"] == MEMO["r1"]["fleet-1"]
    assert rows["fleet-1"]["release_after"] == state("fleet-1")["current"] != MEMO["r1"]["fleet-1"]
    assert state("fleet-2")["current"] == before["current"] == MEMO["r1"]["fleet-2"]


def test_a_host_lost_during_its_gate_is_reported_and_status_says_its_release_is_not_gated(tmp_path):
    """The same deploy again: fleet-1 is unchanged, fleet-2 is the rollout; it is killed once its new release
    started (the gate's smoke decode began). The summary says it was lost during its gate; started again,
    it runs the new release, whose gate never finished: status says so (the next test's deploy gates it)."""
    rc, out, killed = playbook_stopping("converge.yml", "-e", "@" + RELEASE2, report_dir=tmp_path,
                                        line="TASK [specdeploy.sglang.server : Smoke decode at", victim="fleet-2")
    try:
        assert killed and rc != 0, out
        rows = {r["host"]: r for r in report(tmp_path, "deploy-summary.json")["hosts"]}
        assert rows["fleet-2"]["result"] == "lost during its gate: running release unknown", rows
        assert rows["fleet-2"]["release_before"] == MEMO["r1"]["fleet-2"], rows
        assert rows["fleet-1"]["result"] == "unchanged", rows
    finally:
        boot("fleet-2")
    new = [r for r in host("fleet-2").check_output(f"ls {ROOT_DIR}/releases").split() if r != MEMO["r1"]["fleet-2"]]
    assert len(new) == 1, new
    assert json.loads(host("fleet-2").check_output(f"cat {ROOT_DIR}/releases/{new[0]}/release.json"))["status"] == "staged"
    assert state("fleet-2")["current"] == MEMO["r1"]["fleet-2"]          # never activated
    rc, out = playbook("status.yml", report_dir=tmp_path)
    assert rc == 0, out
    rows = {r["host"]: r for r in report(tmp_path, "status.json")["hosts"]}
    assert rows["fleet-2"]["health"].startswith(f"running release not gated (release {new[0]}: "), rows["fleet-2"]
    assert rows["fleet-1"]["health"] == "healthy", rows["fleet-1"]
    MEMO["ungated"] = new[0]


def test_second_release_reaches_every_host(tmp_path):
    """R2 is on fleet-1 already (above); fleet-2 runs it ungated: the deploy gates it (not "unchanged")."""
    rc, out = playbook("converge.yml", "-e", "@" + RELEASE2, report_dir=tmp_path)
    assert rc == 0, out
    states = {h: state(h) for h in HOSTS}
    assert {h: st["previous"] for h, st in states.items()} == MEMO["r1"], states
    MEMO["r2"] = {h: st["current"] for h, st in states.items()}
    assert MEMO["r2"]["fleet-2"] == MEMO["ungated"]
    assert len({r for h, r in MEMO["r2"].items() if h not in ADDR}) == 1, states
    assert not set(MEMO["r2"].values()) & set(MEMO["r1"].values()), states
    rows = report(tmp_path, "deploy-summary.json")["hosts"]
    assert {r["host"]: (r["release_before"], r["release_after"], r["result"]) for r in rows} == \
        {"fleet-1": (MEMO["r2"]["fleet-1"], MEMO["r2"]["fleet-1"], "unchanged"),
         "fleet-2": (MEMO["r1"]["fleet-2"], MEMO["r2"]["fleet-2"], "changed")}
    record = json.loads(host("fleet-2").check_output(f"cat {ROOT_DIR}/releases/{MEMO['ungated']}/release.json"))
    assert record["status"] == "active" and record["smoke"]["passed"] is True, record   # gated this time
    for name in HOSTS:
        assert "SPECDEPLOY_FLEET_RELEASE=2" in host(name).check_output(f"systemctl show -p Environment {UNIT}")
        generate(name)


MODEL = "/opt/specdeploy/models/lab--tiny-qwen3@seed0"
WEIGHTS = f"{MODEL}/model.safetensors"
# the high byte of the first element of layer 0's input_layernorm (bf16 1.0 = 0x3f80 -> 0x7f80 = inf):
# one flipped byte that still loads, after which the model decodes only NaN -> token 0 (<unk>) -> empty text
FLIP_OFFSET, GOOD_BYTE, BAD_BYTE = 8 + 2568 + 119040 + 1, "\\077", "\\177"   # printf octal (dash)
# fleet-1's /health at its own address, with no proxy (its environment carries a dead one); fails
# after 240 tries without an answer
WAIT_GEN = ("python3 -c \"import sys,time,urllib.request\n"
            "o=urllib.request.build_opener(urllib.request.ProxyHandler({}))\n"
            "for _ in range(240):\n"
            "  try:\n"
            "    o.open('http://%s:30000/health',timeout=5); break\n"
            "  except Exception: time.sleep(1)\n"
            "else: sys.exit('fleet-1 never answered /health')\n\"" % ADDR["fleet-1"])


def names_file_and_hashes(out, want, got):
    """The refusal names the file and both hashes (each checked on its own: the callback may fold lines)."""
    return all(x in out for x in (WEIGHTS, f"sha256 {got}", f"manifest says {want}", "running server is untouched"))


def put_byte(name, byte):
    host(name).check_output(f"printf '{byte}' | dd of={WEIGHTS} bs=1 seek={FLIP_OFFSET} conv=notrunc status=none")


def test_flipped_byte_in_published_weights_refuses_a_new_release_before_any_restart(tmp_path):
    """One byte flipped in fleet-1's published model.safetensors; a new release with
    specdeploy_full_run=true: the stage play finds it (full sha256 against the recorded manifest), no
    host restarts (same PID and ActiveEnterTimestamp), the message names the file and both hashes."""
    recorded = json.loads(host("fleet-1").check_output(f"cat {MODEL}/.specdeploy-manifest.json"))
    want = recorded["model.safetensors"]["sha256"]
    put_byte("fleet-1", BAD_BYTE)
    got = host("fleet-1").check_output(f"sha256sum {WEIGHTS}").split()[0]
    assert got != want
    MEMO["flip"] = (want, got)
    before = {h: state(h) for h in HOSTS}
    rc, out = playbook("converge.yml", "-e", "@" + os.path.join(HERE, "vars", "release3.yml"),
                       "-e", "specdeploy_full_run=true", report_dir=tmp_path)
    assert rc != 0, out
    assert "Staging failed on fleet-1; no host was restarted." in out, out
    assert "PLAY [Roll out" not in out, out
    assert names_file_and_hashes(out, want, got), out
    rows = {r["host"]: r for r in report(tmp_path, "deploy-summary.json")["hosts"]}
    assert rows["fleet-1"]["result"] == "failed, still on the release before", rows
    assert f"{WEIGHTS}: sha256 {got}, its manifest says {want}" in rows["fleet-1"]["error"], rows
    assert {h: state(h) for h in HOSTS} == before
    for name in HOSTS:
        generate(name)      # the running servers loaded the weights before the flip: untouched


def test_flipped_byte_in_the_weights_a_rollback_returns_to_refuses_the_rollback(tmp_path):
    """The release a rollback returns to (R1) loads the same corrupted copy: the rollback pre-check
    refuses it on every host before any restart."""
    want, got = MEMO["flip"]
    before = {h: state(h) for h in HOSTS}
    rc, out = playbook("rollback.yml", "-e", "@" + os.path.join(HERE, "vars", "release2.yml"), report_dir=tmp_path)
    assert rc != 0, out
    assert names_file_and_hashes(out, want, got), out
    assert "PLAY [Roll back - canary first" not in out, out
    assert {h: state(h) for h in HOSTS} == before
    # and on demand: verify.yml with the deep check finds it too (read-only)
    rc, out = playbook("verify.yml", "-e", "specdeploy_verify_weights=true", report_dir=tmp_path)
    assert rc != 0, out
    assert names_file_and_hashes(out, want, got), out
    assert {h: state(h) for h in HOSTS} == before


def test_status_of_a_server_that_answers_health_but_no_longer_generates(tmp_path):
    """What the old code did: restart fleet-1 into the corrupted copy. It answers /health and decodes
    nothing; status.yml must say so, not `healthy`. Then the byte is put back on disk; the process keeps
    the corrupted copy it loaded until the rollback below restarts it (and gates it, and generates)."""
    h = host("fleet-1")
    h.check_output(f"systemctl restart {UNIT}")
    h.check_output(WAIT_GEN)
    try:
        rc, out = playbook("status.yml", report_dir=tmp_path)
        assert rc == 0, out
        rows = {r["host"]: r for r in report(tmp_path, "status.json")["hosts"]}
        assert rows["fleet-1"]["health"].startswith("answers /health, does not generate ("), rows["fleet-1"]
        assert "empty output" in rows["fleet-1"]["health"], rows["fleet-1"]
        assert rows["fleet-1"]["generates"] is False, rows["fleet-1"]
        assert rows["fleet-2"]["health"] == "healthy" and rows["fleet-2"]["generates"] is True, rows["fleet-2"]
    finally:
        put_byte("fleet-1", GOOD_BYTE)
    assert h.check_output(f"sha256sum {WEIGHTS}").split()[0] == MEMO["flip"][0]


def test_rollback_to_a_missing_release_is_refused_and_touches_nothing(tmp_path):
    before = {h: state(h) for h in HOSTS}
    rc, out = playbook("rollback.yml", "-e", "specdeploy_rollback_to=0123456789abcdef",
                       "-e", "@" + os.path.join(HERE, "vars", "release2.yml"), report_dir=tmp_path)
    assert rc != 0, out
    assert "release 0123456789abcdef of instance main is not on this host" in out
    assert "Nothing was restarted on any host" in out
    assert {h: state(h) for h in HOSTS} == before


def test_rollback_returns_every_host_to_previous(tmp_path):
    # the inventory still describes R2 (the same extra vars as its deploy): a rollback must go back
    # to the release recorded as previous, not re-deploy what the inventory says
    rc, out = playbook("rollback.yml", "-e", "@" + os.path.join(HERE, "vars", "release2.yml"), report_dir=tmp_path)
    assert rc == 0, out
    for name in HOSTS:
        st = state(name)
        assert st["current"] == MEMO["r1"][name], (name, st)
        assert st["ActiveState"] == "active", journal(name)
        assert "SPECDEPLOY_FLEET_RELEASE" not in host(name).check_output(f"systemctl show -p Environment {UNIT}")
        generate(name)
    rows = report(tmp_path, "rollback-summary.json")["hosts"]
    assert {r["host"]: (r["release_before"], r["release_after"], r["result"]) for r in rows} == \
        {h: (MEMO["r2"][h], MEMO["r1"][h], "changed") for h in HOSTS}


def test_status_matches_after_rollback(tmp_path):
    check_status_matches(tmp_path)
