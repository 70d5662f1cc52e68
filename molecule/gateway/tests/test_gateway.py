"""Gateway scenario, in order (each step builds on the last).

After converge (deploy R1: the gateway installed on gateway-1, node-1..3 registered once each passed its gate):
  1. the gateway runs hardened as its own user, routes to exactly the fleet's three instances, all
     healthy, and a real /generate through it decodes;
  2. deploy R2 under a bounded load through the gateway, drain on: every worker leaves and rejoins,
     no request fails;
  3. status.yml lists the gateway's workers next to the fleet's releases;
  4. the gateway stopped: a deploy stops before any host restarts, naming the gateway (then the
     gateway is started again and the fleet added back);
  5. the same deploy (R3) with drain off (gateway_drain=false): what the clients see, measured the same way;
  6. rollback (to R2) under load, drain on: no request fails;
  7. a release whose canary fails its gate (R4), under load: the canary is rolled back and rejoins, the
     other hosts are untouched, no request fails;
  8. the gateway goes away mid-rollout (R6: stopped once the canary's server role has begun, after its drain):
     the canary passes its gate but cannot rejoin, the rollout stops there, and the summary reports
     each host's state (the canary on R6 and why it failed, the others not reached and untouched).
The load loop (files/load.py) runs on gateway-1 (it shares the hosts' loopback); it is started once the
rollout play begins (the playbook's output says so) and stops by itself after a fixed count.
Figures of every load run are printed and written to <ephemeral dir>/gateway-load.json.
"""
import json
import os
import subprocess
import time

import testinfra

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))   # molecule/gateway
ROOT = os.path.dirname(os.path.dirname(HERE))
NODES = ["node-1", "node-2", "node-3"]
URLS = {"node-%d" % i: "http://127.0.0.1:3000%d" % i for i in (1, 2, 3)}
GW = "gateway-1"
GW_URL = "http://127.0.0.1:8000"
# 600 at 2/s: 300 s, longer than a 3-host rollout under load here (203-280 s measured on 2026-12-02). With
# 300 (150 s) the loop ended before node-3 rejoined, and the drain tests could not see it come back.
LOAD_COUNT = int(os.environ.get("GATEWAY_LOAD_COUNT", "600"))
LOAD_RATE = float(os.environ.get("GATEWAY_LOAD_RATE", "2"))
FIGURES = {}


def host(name):
    return testinfra.get_host(f"podman://{name}")


def gw_json(path):
    out = host(GW).check_output(
        "python3 -c \"import urllib.request;print(urllib.request.urlopen('%s%s',timeout=10).read().decode())\""
        % (GW_URL, path))
    return json.loads(out)


def workers():
    return {w["url"]: w for w in gw_json("/workers")["workers"]}


def unit(name):
    show = host(name).check_output("systemctl show -p ActiveState -p ActiveEnterTimestamp sglang-main.service")
    return dict(line.split("=", 1) for line in show.splitlines() if "=" in line)


def current(name):
    return os.path.basename(host(name).check_output("readlink /opt/specdeploy/instances/main/current").strip())


def inventory():
    return os.environ.get("MOLECULE_INVENTORY_FILE") or os.path.join(os.environ["MOLECULE_EPHEMERAL_DIRECTORY"],
                                                                     "inventory")


def run(playbook, *args, load=True, wait_for="PLAY [Roll ", on_output=None):
    """Run a playbook as a user does; with load, start the load loop once the rollout play begins.
    on_output: (text, action): action() runs once, as soon as the rollout play has printed text."""
    report_dir = os.path.join(os.environ["MOLECULE_EPHEMERAL_DIRECTORY"], "reports-" + str(len(FIGURES)))
    env = dict(os.environ, SPECDEPLOY_REPORT_DIR=report_dir, ANSIBLE_FORCE_COLOR="0", PYTHONUNBUFFERED="1")
    log = os.path.join(os.environ["MOLECULE_EPHEMERAL_DIRECTORY"], "run-%d.log" % len(FIGURES))
    started = time.monotonic()
    with open(log, "w") as out:
        proc = subprocess.Popen(["ansible-playbook", "-i", inventory(), os.path.join(ROOT, "playbooks", playbook),
                                 *args], cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, text=True)
        loader = None
        while load and proc.poll() is None:
            with open(log) as f:
                if wait_for in f.read():
                    break
            time.sleep(0.5)
        if load:
            loader = subprocess.Popen(
                ["podman", "exec", GW, "python3", "/usr/local/lib/specdeploy-load.py", "--url", GW_URL,
                 "--metrics", "http://127.0.0.1:29000/metrics", "--count", str(LOAD_COUNT), "--rate", str(LOAD_RATE)],
                stdout=subprocess.PIPE, text=True)
        while on_output and proc.poll() is None:
            with open(log) as f:
                text = f.read()
                if "PLAY [Roll " in text and on_output[0] in text.split("PLAY [Roll ", 1)[1]:
                    on_output[1]()
                    break
            time.sleep(0.5)
        rc = proc.wait(timeout=3600)
        took = time.monotonic() - started
        figures = json.loads(loader.communicate(timeout=900)[0]) if loader else None
    with open(log) as f:
        output = f.read()
    return rc, output, figures, took


def record(case, rc, figures, took):
    f = dict(figures, playbook_rc=rc, playbook_s=round(took, 1))
    f["retries"] = (f["retries_after"] - f["retries_before"]) if None not in (
        f.get("retries_before"), f.get("retries_after")) else None
    FIGURES[case] = f
    path = os.path.join(os.environ["MOLECULE_EPHEMERAL_DIRECTORY"], "gateway-load.json")
    with open(path, "w") as out:
        json.dump(FIGURES, out, indent=1)
    print("\n== %s: sent %d, ok %d, failed %d, p50 %ss, p99 %ss, gateway retries %s, playbook %ss rc %d"
          % (case, f["sent"], f["ok"], f["failed"], f["p50_s"], f["p99_s"], f["retries"], f["playbook_s"], rc))
    for t in f["transitions"]:
        print("   t=%7.2fs %s %s" % (t["t"], t["worker"], t["event"]))
    for e in f["errors"]:
        print("   failed at t=%.2fs: %s" % (e["t"], e["error"]))
    return f


def left_and_rejoined(f, url):
    events = [t for t in f["transitions"] if t["worker"] == url]
    out_at = next((t["t"] for t in events if t["event"] != "in"), None)
    back_at = next((t["t"] for t in events if t["event"] == "in" and out_at is not None and t["t"] > out_at), None)
    return out_at, back_at


def rejoin_all():
    """A restarted gateway starts with no worker (registration is by its API): add the fleet back."""
    script = ("import json,time,urllib.request\n"
              "B='%s'\n"
              "for i in range(60):\n"
              "    try:\n"
              "        urllib.request.urlopen(B+'/workers',timeout=5); break\n"
              "    except OSError: time.sleep(1)\n"
              "for u in %r:\n"
              "    urllib.request.urlopen(urllib.request.Request(B+'/workers',data=json.dumps({'url':u}).encode(),"
              "headers={'Content-Type':'application/json'}),timeout=10)\n"
              "for i in range(120):\n"
              "    w=json.loads(urllib.request.urlopen(B+'/workers',timeout=5).read())['workers']\n"
              "    if sum(1 for x in w if x['is_healthy'] and x['status']=='ready')==%d: break\n"
              "    time.sleep(1)\n") % (GW_URL, sorted(URLS.values()), len(URLS))
    subprocess.run(["podman", "exec", "-i", GW, "python3", "-"], input=script, text=True, check=True, timeout=300)
    assert set(workers()) == set(URLS.values())


def test_the_gateway_routes_to_the_fleet():
    gw = host(GW)
    svc = gw.service("specdeploy-gateway.service")
    assert svc.is_running and svc.is_enabled
    show = gw.check_output("systemctl show -p User -p NoNewPrivileges -p ProtectSystem specdeploy-gateway.service")
    assert "User=specdeploy-gateway" in show and "NoNewPrivileges=yes" in show and "ProtectSystem=strict" in show
    pid = gw.check_output("systemctl show -p MainPID --value specdeploy-gateway.service").strip()
    assert gw.check_output("ps -o user= -p %s" % pid).strip().startswith("specdeploy")
    reg = workers()
    assert set(reg) == set(URLS.values()), reg
    assert all(w["is_healthy"] and w["status"] == "ready" for w in reg.values()), reg
    out = json.loads(gw.check_output(
        "python3 -c \"import json,urllib.request;r=urllib.request.Request('%s/generate',data=json.dumps("
        "{'text':'The quick brown fox','sampling_params':{'temperature':0,'max_new_tokens':8}}).encode(),"
        "headers={'Content-Type':'application/json'});print(urllib.request.urlopen(r,timeout=120).read().decode())\""
        % GW_URL))
    assert out["meta_info"]["completion_tokens"] > 0
    # the load loop of the next steps
    subprocess.run(["podman", "cp", os.path.join(HERE, "files", "load.py"), GW + ":/usr/local/lib/specdeploy-load.py"],
                   check=True)


def test_deploy_with_drain_loses_no_request():
    before = {n: unit(n)["ActiveEnterTimestamp"] for n in NODES}
    rc, output, figures, took = run("deploy.yml", "-e", "lab_release=2")
    f = record("deploy, drain on", rc, figures, took)
    assert rc == 0, output[-3000:]
    assert all(unit(n)["ActiveEnterTimestamp"] != before[n] for n in NODES)
    assert f["failed"] == 0, f["errors"]
    for url in URLS.values():
        out_at, back_at = left_and_rejoined(f, url)
        assert out_at is not None and back_at is not None, (url, f["transitions"])
        assert any(t["worker"] == url and t["event"] == "draining" for t in f["transitions"]), url
    assert set(workers()) == set(URLS.values())


def test_status_lists_the_gateways_workers_next_to_the_releases():
    rc, output, _, _ = run("status.yml", load=False)
    assert rc == 0, output[-3000:]
    report_dir = os.path.join(os.environ["MOLECULE_EPHEMERAL_DIRECTORY"], "reports-" + str(len(FIGURES)))
    with open(os.path.join(report_dir, "gateway-status.json")) as f:
        (gw,) = json.load(f)
    assert gw["gateway"] == GW and gw["unknown"] == [] and gw["missing"] == []
    rows = {w["url"]: w for w in gw["workers"]}
    assert set(rows) == set(URLS.values())
    for node, url in URLS.items():
        assert rows[url]["host"] == node and rows[url]["healthy"] and rows[url]["release"] == current(node)


def test_unreachable_gateway_stops_the_run_before_any_restart():
    host(GW).check_output("systemctl stop specdeploy-gateway.service")
    before = {n: unit(n)["ActiveEnterTimestamp"] for n in NODES}
    try:
        rc, output, _, _ = run("deploy.yml", "-e", "lab_release=5",
                               "--skip-tags", "gateway_service", load=False)
    finally:
        host(GW).check_output("systemctl start specdeploy-gateway.service")
        rejoin_all()
    assert rc != 0
    assert "does not answer" in output and "no host of this batch was drained or restarted" in output, output[-3000:]
    assert {n: unit(n)["ActiveEnterTimestamp"] for n in NODES} == before


def test_deploy_without_drain_shows_what_drain_prevents():
    rc, output, figures, took = run("deploy.yml", "-e", "lab_release=3", "-e", "gateway_drain=false")
    f = record("deploy, drain off", rc, figures, took)
    assert rc == 0, output[-3000:]
    # nothing drained: the gateway kept routing to each instance while it restarted
    assert not any(t["event"] == "draining" for t in f["transitions"]), f["transitions"]
    drained = FIGURES["deploy, drain on"]
    assert f["failed"] > drained["failed"] or (f["retries"] or 0) > (drained["retries"] or 0), (f, drained)


def test_rollback_with_drain_loses_no_request():
    rc, output, figures, took = run("rollback.yml", wait_for="PLAY [Roll back")
    f = record("rollback, drain on", rc, figures, took)
    assert rc == 0, output[-3000:]
    assert f["failed"] == 0, f["errors"]
    for url in URLS.values():
        assert None not in left_and_rejoined(f, url), (url, f["transitions"])


def test_failed_canary_is_rolled_back_and_rejoins_with_no_request_lost():
    cur = {n: current(n) for n in NODES}
    before = {n: unit(n)["ActiveEnterTimestamp"] for n in NODES}
    rc, output, figures, took = run("deploy.yml", "-e", "lab_release=4", "-e", "lab_canary_fault=true")
    f = record("deploy, canary fails its gate, drain on", rc, figures, took)
    assert rc != 0
    assert "The rollout stops here" in output
    assert {n: current(n) for n in NODES} == cur
    assert unit("node-1")["ActiveEnterTimestamp"] != before["node-1"]
    assert all(unit(n)["ActiveEnterTimestamp"] == before[n] for n in NODES[1:])
    assert f["failed"] == 0, f["errors"]
    assert None not in left_and_rejoined(f, URLS["node-1"]), f["transitions"]
    reg = workers()
    assert set(reg) == set(URLS.values()) and all(w["is_healthy"] for w in reg.values()), reg


def test_a_gateway_that_dies_mid_rollout_stops_it_with_each_hosts_state_reported():
    cur = {n: current(n) for n in NODES}
    before = {n: unit(n)["ActiveEnterTimestamp"] for n in NODES}
    report_dir = os.path.join(os.environ["MOLECULE_EPHEMERAL_DIRECTORY"], "reports-" + str(len(FIGURES)))
    # node-1 (the canary) has been drained when the server role starts in the rollout play (the stage
    # play before it runs the role's checks too): the gateway goes away then, for good. (A crash alone is
    # not that: the unit restarts on failure, and after a SIGKILL at this point the gateway was back in 2 s,
    # node-1 rejoined it and the rollout finished, rc 0; measured 2026-12-02.)
    died = []

    def kill():
        host(GW).check_output("systemctl stop specdeploy-gateway.service")
        died.append(time.monotonic())
    try:
        rc, output, _, _ = run("deploy.yml", "-e", "lab_release=6", load=False,
                               on_output=("TASK [specdeploy.sglang.server : ", kill))
    finally:
        host(GW).check_output("systemctl restart specdeploy-gateway.service")
        rejoin_all()
    assert died, "the server role never started on the canary"
    assert rc != 0
    assert "The rollout stops here" in output or "NO MORE HOSTS LEFT" in output, output[-3000:]
    with open(os.path.join(report_dir, "deploy-summary.json")) as f:
        rows = {r["host"]: r for r in json.load(f)["hosts"]}
    # the canary: restarted into R6, gated, serving it, and reported as failed because it could not rejoin
    assert unit("node-1")["ActiveEnterTimestamp"] != before["node-1"]
    assert current("node-1") != cur["node-1"] and rows["node-1"]["release_after"] == current("node-1")
    assert rows["node-1"]["result"] == "failed", rows["node-1"]
    assert "rejoining the gateways" in rows["node-1"]["error"] and GW in rows["node-1"]["error"], rows["node-1"]
    assert host("node-1").check_output(
        "python3 -c \"import urllib.request;o=urllib.request.build_opener(urllib.request.ProxyHandler({}));"
        "print(o.open('%s/health',timeout=60).status)\"" % URLS["node-1"]).strip() == "200"
    # the others: never drained, restarted or moved
    for n in NODES[1:]:
        assert rows[n]["result"] == "not reached", rows[n]
        assert unit(n)["ActiveEnterTimestamp"] == before[n] and current(n) == cur[n]
