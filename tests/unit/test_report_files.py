"""report_files (the action that writes a run's summaries on the controller) and server_plan's
controller-side action=lines."""
import os
import stat

import pytest

from ansible_collections.specdeploy.sglang.plugins.action.report_files import write_files
from ansible_collections.specdeploy.sglang.plugins.module_utils import server_plan as sp


def test_files_are_written_whole_with_their_mode_and_an_unchanged_one_is_left(tmp_path):
    written = write_files(str(tmp_path), {"deploy-summary.md": "# deploy\n", "deploy-summary.json": '{"hosts": []}'})
    assert sorted(os.path.basename(p) for p in written) == ["deploy-summary.json", "deploy-summary.md"]
    assert (tmp_path / "deploy-summary.md").read_text() == "# deploy\n"
    assert stat.S_IMODE((tmp_path / "deploy-summary.md").stat().st_mode) == 0o644
    ino = (tmp_path / "deploy-summary.md").stat().st_ino
    # the next host's rewrite: the md is the same (left alone), the json changed (replaced by a rename)
    written = write_files(str(tmp_path), {"deploy-summary.md": "# deploy\n", "deploy-summary.json": '{"hosts": [1]}'})
    assert [os.path.basename(p) for p in written] == ["deploy-summary.json"]
    assert (tmp_path / "deploy-summary.md").stat().st_ino == ino
    assert (tmp_path / "deploy-summary.json").read_text() == '{"hosts": [1]}'
    assert sorted(os.listdir(tmp_path)) == ["deploy-summary.json", "deploy-summary.md"]   # no temporary left


@pytest.mark.parametrize("name", ["../evil", "sub/file.md", "", ".."])
def test_a_name_with_a_directory_part_is_refused_and_nothing_is_written(tmp_path, name):
    with pytest.raises(ValueError, match="not a plain file name"):
        write_files(str(tmp_path), {name: "x"})
    assert os.listdir(tmp_path) == []


def test_a_missing_report_directory_is_named(tmp_path):
    with pytest.raises(ValueError, match="report directory .*nope does not exist"):
        write_files(str(tmp_path / "nope"), {"a.md": "x"})


def test_unit_lines_refuse_a_secret_looking_env_on_the_controller_as_on_the_host():
    validation = {"argv": ["--model-path", "/m"], "env": {"HF_TOKEN": "x" * 4}}
    with pytest.raises(sp.PlanError, match="HF_TOKEN look like secrets"):
        sp.unit_lines(["/py", "-m", "sglang.launch_server"], validation, {"name": "main"})
