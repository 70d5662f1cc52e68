# -*- coding: utf-8 -*-
# Copyright: specdeploy.sglang contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Action for report_files: write the run's report files (summary.md, summary.json, ...) on the
controller, from this process.

deploy.yml and rollback.yml rewrite their summary after every host, so it is complete when a rollout
stops at a host. Through ansible.builtin.copy delegated to localhost each file cost a module start on
the controller (about 1.2 s per file on a 2-core machine); written here it costs a file write. Each file
is written to a temporary file in the same directory and renamed over the old one, so a reader never
sees half a summary. The module file holds the docs.
"""
from __future__ import annotations

import os
import tempfile

from ansible.errors import AnsibleActionFail
from ansible.module_utils.common.text.converters import to_bytes
from ansible.plugins.action import ActionBase

ARGUMENT_SPEC = dict(
    dest_dir=dict(type="path", required=True),
    files=dict(type="dict", required=True),
    mode=dict(type="raw", default="0644"),
)


def write_files(dest_dir, files, mode=0o644):
    """Write {name: text} under dest_dir, each atomically. Returns the paths whose content changed."""
    if not os.path.isdir(dest_dir):
        raise ValueError("report directory %s does not exist" % dest_dir)
    changed = []
    for name in sorted(files):
        if not name or os.path.basename(name) != name or name in (".", ".."):
            raise ValueError("report file name %r is not a plain file name" % (name,))
        path = os.path.join(dest_dir, name)
        data = to_bytes(files[name] if files[name] is not None else "")
        try:
            with open(path, "rb") as fh:
                same = fh.read() == data
        except OSError:
            same = False
        if same:
            os.chmod(path, mode)
            continue
        fd, tmp = tempfile.mkstemp(dir=dest_dir, prefix="." + name + ".")
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
            os.chmod(tmp, mode)
            os.replace(tmp, path)
        except BaseException:
            if os.path.exists(tmp):
                os.unlink(tmp)
            raise
        changed.append(path)
    return changed


class ActionModule(ActionBase):
    TRANSFERS_FILES = False
    _supports_check_mode = True
    _supports_async = False

    def run(self, tmp=None, task_vars=None):
        result = super().run(tmp, task_vars)
        _spec, args = self.validate_argument_spec(argument_spec=ARGUMENT_SPEC)
        mode = args["mode"]
        try:
            mode = int(mode, 8) if isinstance(mode, str) else int(mode)
        except ValueError:
            raise AnsibleActionFail("report_files: mode %r is not an octal file mode such as '0644'" % (mode,))
        try:
            written = write_files(args["dest_dir"], args["files"], mode)
        except (OSError, ValueError) as exc:
            raise AnsibleActionFail("report_files: %s" % exc)
        # a report, not a change to any host: never "changed" (the summary is rewritten after every host)
        result.update(changed=False, written=written,
                      paths=[os.path.join(args["dest_dir"], n) for n in sorted(args["files"])])
        return result
