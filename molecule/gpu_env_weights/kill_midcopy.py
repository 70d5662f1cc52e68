"""Wait until PART exists and is non-empty, then SIGKILL the process that has it open (the staging
module). Prints {"pid", "part_bytes"}. Test helper of the gpu_env_weights scenario."""
import json
import os
import signal
import sys
import time

part = sys.argv[1]
deadline = time.time() + 120
while time.time() < deadline:
    if os.path.exists(part) and os.path.getsize(part) > 0:
        for pid in filter(str.isdigit, os.listdir("/proc")):
            try:
                fds = os.listdir("/proc/%s/fd" % pid)
            except OSError:
                continue
            for fd in fds:
                try:
                    if os.readlink("/proc/%s/fd/%s" % (pid, fd)) == part:
                        os.kill(int(pid), signal.SIGKILL)
                        time.sleep(0.2)
                        print(json.dumps({"pid": int(pid), "part_bytes": os.path.getsize(part)}))
                        sys.exit(0)
                except OSError:
                    continue
    time.sleep(0.001)
sys.exit("%s never appeared mid-copy" % part)
