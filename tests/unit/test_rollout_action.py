"""The rollout action through ansible-playbook (two hosts on the local connection, each with a release tree
of its own): links read on the host through server_plan action=links, the host's state as its fact across
plays, a failure's message, rows decided per host, the summary written with a host not reached, and the
same summary content as the Jinja rows before (fixtures/rollout_summary/canary_failed.json)."""
import json
import os
import subprocess
import sys

import pytest

from ansible_collections.specdeploy.sglang.plugins.module_utils import release as rel
from ansible_collections.specdeploy.sglang.plugins.module_utils import release_record as rr

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.path.dirname(sys.executable)

PLAYBOOK = """
- hosts: sglang_servers
  gather_facts: false
  tasks:
    - specdeploy.sglang.rollout: {step: before, root: "{{ root }}", report_dir: "{{ out }}"}
    - ansible.builtin.assert:
        that: ansible_facts.specdeploy_rollout.links_before.tiny.current == 'aaaa000011112222'
- hosts: "{{ groups['sglang_servers'][:1] }}"
  gather_facts: false
  vars: {__rollout_report: deploy, __fleet_report_dir: "{{ out }}"}
  tasks:
    - block:
        - ansible.builtin.fail: {msg: "smoke decode failed: accept length 1.0 below 1.5"}
          name: Smoke gate of the new release
      rescue:
        - specdeploy.sglang.rollout:
            step: failed
            task: "{{ ansible_failed_task.name }}"
            result: "{{ ansible_failed_result }}"
      always:
        - specdeploy.sglang.rollout:
            step: after
            root: "{{ root }}"
            results: {tiny: {changed: true, failed: true}}
            write: false
        - ansible.builtin.include_tasks: "{{ playbooks }}/tasks/summary.yml"
- hosts: sglang_servers
  gather_facts: false
  vars: {__rollout_report: deploy, __fleet_report_dir: "{{ out }}", __rollout_print: true}
  tasks:
    - ansible.builtin.include_tasks: "{{ playbooks }}/tasks/summary.yml"
    - ansible.builtin.assert:
        that:
          - __fleet_summary.failed_hosts == ['fleet-1']
          - "__fleet_summary.summary.counts == {'failed, still on the release before': 1, 'not reached': 1}"
"""


def _host(root, smoke):
    rid = "aaaa000011112222"
    os.makedirs(os.path.join(root, "releases", rid))
    rr.write(rr.path_of(root, rid), {"release_id": rid, "instance": "tiny", "status": "active", "argv": [],
                                     "inputs": {"spec": {"model_path": "/m"}}, "smoke": smoke})
    rel.activate(root, "tiny", rid)


@pytest.mark.skipif(not os.path.exists(os.path.join(BIN, "ansible-playbook")), reason="no ansible-playbook beside python")
def test_a_failed_canary_through_the_action_writes_the_same_summary(tmp_path):
    for host in ("fleet-1", "fleet-2"):
        _host(str(tmp_path / host), {"passed": True, "accept_length": 2.0, "tokens_per_s": 5.0})
    (tmp_path / "out").mkdir()
    inv = tmp_path / "inventory.ini"
    inv.write_text("[sglang_servers]\n" + "".join(
        "%s ansible_connection=local ansible_python_interpreter=%s root=%s server_instances='[{\"name\": \"tiny\"}]'\n"
        % (h, sys.executable, tmp_path / h) for h in ("fleet-1", "fleet-2")))
    (tmp_path / "play.yml").write_text(PLAYBOOK)
    env = dict(os.environ, ANSIBLE_COLLECTIONS_PATH=os.environ.get("ANSIBLE_COLLECTIONS_PATH")
               or os.path.join(ROOT, ".lab", "collections"), ANSIBLE_FORCE_COLOR="0", ANSIBLE_NOCOLOR="1")
    run = subprocess.run([os.path.join(BIN, "ansible-playbook"), "-i", str(inv), str(tmp_path / "play.yml"),
                          "-e", "out=%s" % (tmp_path / "out"), "-e", "playbooks=%s" % os.path.join(ROOT, "playbooks")],
                         capture_output=True, text=True, env=env, cwd=str(tmp_path))
    assert run.returncode == 0, run.stdout + run.stderr
    got = json.loads((tmp_path / "out" / "deploy-summary.json").read_text())
    with open(os.path.join(ROOT, "tests", "unit", "fixtures", "rollout_summary", "canary_failed.json")) as handle:
        want = json.load(handle)["summary_json"]
    want["hosts"][0]["error"] = "Smoke gate of the new release: smoke decode failed: accept length 1.0 below 1.5"
    assert got == want
    assert "| fleet-2 | tiny | - | - | not reached | - | - |" in run.stdout


LOST_PLAYBOOK = """
- hosts: sglang_servers
  gather_facts: false
  tasks:
    - specdeploy.sglang.rollout: {step: before, root: "{{ root }}", report_dir: "{{ out }}"}
    - ansible.builtin.meta: end_host
      when: ansible_facts.specdeploy_rollout.unreachable
- hosts: sglang_servers
  gather_facts: false
  vars: {__rollout_report: deploy, __fleet_report_dir: "{{ out }}"}
  tasks:
    - specdeploy.sglang.rollout: {step: gate, report_dir: "{{ out }}"}
    - ansible.builtin.set_fact: {ansible_connection: ssh, ansible_host: 127.0.0.1, ansible_port: 1}
      when: inventory_hostname == 'h-lost'
    - ansible.builtin.ping:
    - specdeploy.sglang.rollout: {step: after, root: "{{ root }}", write: false}
- hosts: sglang_servers
  gather_facts: false
  vars: {__rollout_report: deploy, __fleet_report_dir: "{{ out }}", __rollout_print: true}
  tasks:
    - ansible.builtin.include_tasks: "{{ playbooks }}/tasks/summary.yml"
"""


@pytest.mark.skipif(not os.path.exists(os.path.join(BIN, "ansible-playbook")), reason="no ansible-playbook beside python")
def test_hosts_unreachable_or_lost_during_their_gate_are_in_the_summary(tmp_path):
    """h-down refuses every connection (ssh to a closed port): unreachable when its state is read, recorded and
    ended (not dropped); h-lost is reachable until its round began (step=gate), then its connection goes;
    h-ok passes. The summary, written from the hosts still in the run, says each; the run fails naming the
    lost ones. With --limit h-down (no host of the run reachable) the summary is still written."""
    for host in ("h-down", "h-lost", "h-ok"):
        _host(str(tmp_path / host), {"passed": True, "accept_length": 2.0, "tokens_per_s": 5.0})
    inv = tmp_path / "inventory.ini"
    inv.write_text("[sglang_servers]\n" + "".join(
        "%s %s ansible_python_interpreter=%s root=%s server_instances='[{\"name\": \"tiny\"}]'\n"
        % (h, "ansible_connection=ssh ansible_host=127.0.0.1 ansible_port=1" if h == "h-down" else
           "ansible_connection=local", sys.executable, tmp_path / h) for h in ("h-down", "h-lost", "h-ok")))
    (tmp_path / "play.yml").write_text(LOST_PLAYBOOK)
    env = dict(os.environ, ANSIBLE_COLLECTIONS_PATH=os.environ.get("ANSIBLE_COLLECTIONS_PATH")
               or os.path.join(ROOT, ".lab", "collections"), ANSIBLE_FORCE_COLOR="0", ANSIBLE_NOCOLOR="1",
               ANSIBLE_HOST_KEY_CHECKING="False")

    def run(out, *args):
        (tmp_path / out).mkdir()
        proc = subprocess.run([os.path.join(BIN, "ansible-playbook"), "-i", str(inv), str(tmp_path / "play.yml"),
                               "-e", "out=%s" % (tmp_path / out), "-e", "playbooks=%s" % os.path.join(ROOT, "playbooks"),
                               *args], capture_output=True, text=True, env=env, cwd=str(tmp_path))
        rows = json.loads((tmp_path / out / "deploy-summary.json").read_text())["hosts"]
        return proc, {r["host"]: r for r in rows}

    proc, rows = run("all")
    out = proc.stdout + proc.stderr
    assert proc.returncode != 0, out
    assert rows["h-down"]["result"] == "unreachable before its round" and rows["h-down"]["release_before"] is None
    assert "127.0.0.1" in rows["h-down"]["error"], rows      # the connection's own error (ssh's words vary)
    assert rows["h-lost"]["result"] == "lost during its gate: running release unknown", rows
    assert rows["h-lost"]["release_before"] == "aaaa000011112222" and rows["h-lost"]["release_after"] is None
    assert rows["h-ok"]["result"] == "unchanged", rows
    assert ("h-down: unreachable before its round; h-lost: lost during its gate: running release unknown. "
            "Summary: ") in out, out
    proc, rows = run("alone", "--limit", "h-down")
    assert proc.returncode != 0 and list(rows) == ["h-down"], proc.stdout
    assert rows["h-down"]["result"] == "unreachable before its round"
