"""Run a command (an ansible-playbook) in a process group of its own; watch <root>/releases on a lab host
(podman exec, every ~0.2 s) and SIGKILL the whole group the moment a release directory appears there - the
moment an older version left a release directory without its release.json. Prints one JSON object: the
release id, whether its release.json was there when the directory was first seen, what else the listing
held, the polls made. Test helper of the server scenario (side_effect.yml, case H).

usage: kill_at_release.py HOST ROOT LOG -- COMMAND...
"""
import json
import os
import signal
import subprocess
import sys
import time

LIST = ("import json, os\n"
        "b = %r\n"
        "names = os.listdir(b) if os.path.isdir(b) else []\n"
        "print(json.dumps({n: os.path.exists(os.path.join(b, n, 'release.json')) for n in names}))\n")


def listing(host, base):
    out = subprocess.run(["podman", "exec", host, "python3", "-c", LIST % base], capture_output=True, text=True,
                         timeout=60)
    return json.loads(out.stdout) if out.returncode == 0 and out.stdout.strip() else None


def main():
    host, root, log = sys.argv[1:4]
    command = sys.argv[sys.argv.index("--") + 1:]
    base = os.path.join(root, "releases")
    before = set(listing(host, base) or {})
    with open(log, "w") as out:
        proc = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    polls, hidden_seen = 0, set()
    deadline = time.time() + 1200
    while time.time() < deadline:
        seen = listing(host, base)
        polls += 1
        if seen is not None:
            hidden_seen.update(n for n in seen if n.startswith("."))
            new = sorted(n for n in seen if not n.startswith(".") and n not in before)
            if new:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
                print(json.dumps({"killed": True, "release_id": new[0], "record_at_first_sight": seen[new[0]],
                                  "listing_at_first_sight": seen, "hidden_seen": sorted(hidden_seen),
                                  "polls": polls, "playbook_rc": proc.returncode}))
                return 0
        if proc.poll() is not None:
            sys.exit("the playbook ended (rc %s) before a release directory appeared under %s; see %s"
                     % (proc.returncode, base, log))
        time.sleep(0.2)
    os.killpg(proc.pid, signal.SIGKILL)
    sys.exit("no release directory appeared under %s within 1200 s" % base)


if __name__ == "__main__":
    sys.exit(main())
