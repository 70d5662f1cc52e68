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

from ansible_collections.specdeploy.sglang.plugins.module_utils import inputs

ARGUMENT_SPEC = dict(
    dest_dir=dict(type="path", required=True),
    files=dict(type="dict", required=True),
    mode=dict(type="raw", default="0644"),
)


def plain(value):
    """A hostvars/fact value (AnsibleUnsafe strings, HostVars, lazy dicts) as plain dicts and lists: the form
    the pure functions of module_utils take (shared by the rollout and status_report actions)."""
    if hasattr(value, "items"):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return value


def file_mode(value):
    """An octal mode string ('0644') or int within 0-0777: report files get no setuid, setgid or sticky bit."""
    try:
        return inputs.KINDS["mode"](value)
    except inputs.InputError as exc:
        raise ValueError("mode %s" % exc)


def write_files(dest_dir, files, mode=0o644):
    """Write {name: text} under dest_dir, each atomically. Returns the paths whose content changed."""
    if not os.path.isdir(dest_dir):
        raise ValueError("report directory %s does not exist" % dest_dir)
    changed = []
    for name in sorted(files):
        try:
            inputs.plain_name(name, "report file name")
        except inputs.InputError as exc:
            raise ValueError(str(exc))
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
        problems = inputs.option_problems(args, inputs.ACTION_RULES["report_files"])
        if problems:
            raise AnsibleActionFail("report_files: %s" % "; ".join(problems))
        try:
            written = write_files(args["dest_dir"], args["files"], file_mode(args["mode"]))
        except (OSError, ValueError) as exc:
            raise AnsibleActionFail("report_files: %s" % exc)
        # a report, not a change to any host: never "changed" (the summary is rewritten after every host)
        result.update(changed=False, written=written,
                      paths=[os.path.join(args["dest_dir"], n) for n in sorted(args["files"])])
        return result
