"""LAB-ONLY test helper of the gpu_env_weights scenario, run on the controller: wait until the lab host
CONTAINER has at least one file of the model in STAGING (dot files such as the copied record are not counted) (the controller's copy to it is under way) but
not all EXPECTED of them, then kill the host (`podman kill`: every process in it dies at once, as in a
power loss; its disk survives). Prints {"container", "files_at_kill"}; fails if the copy finished first."""
import json
import subprocess
import sys
import time

container, staging, expected = sys.argv[1], sys.argv[2], int(sys.argv[3])
deadline = time.time() + 300
while time.time() < deadline:
    ls = subprocess.run(["podman", "exec", container, "find", staging, "-type", "f"],
                        capture_output=True, text=True)
    files = [x for x in ls.stdout.split() if x and not x.rsplit("/", 1)[-1].startswith(".")]
    if len(files) >= expected:
        sys.exit("the copy to %s finished before it could be killed: %s" % (container, files))
    if files:
        subprocess.run(["podman", "kill", container], check=True, capture_output=True)
        print(json.dumps({"container": container, "files_at_kill": sorted(files)}))
        sys.exit(0)
    time.sleep(0.1)
sys.exit("no file of the copy to %s appeared in %s" % (container, staging))
