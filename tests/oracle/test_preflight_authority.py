"""The authority preflight against the real SGLang 0.5.23 venv: `specdeploy preflight --authority` on
inventories/production's linear hosts (filled in as its comments ask) (one distinct spec for two instances), cold then warm from the
cache, and a variant SGLang itself refuses (DFLASH resets eagle_topk 4 to 1: an override error)."""
import os
import subprocess
import sys

import pytest
import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOOL = os.path.join(ROOT, "bin", "specdeploy_cli.py")
sys.path.insert(0, os.path.join(ROOT, "tests", "support"))
import production_example  # noqa: E402
PYTHON = os.environ.get("SPECDEPLOY_SGLANG_PYTHON") or os.path.join(ROOT, ".lab", "sglang-venv", "bin", "python")


@pytest.fixture(autouse=True)
def _kit():
    # the suite fails, not skips, without SGLang's venv (make lab-kit builds it)
    if not os.path.exists(PYTHON):
        pytest.fail("no SGLang venv at %s: run `make lab-kit`" % PYTHON)


def authority(inv, cache):
    return subprocess.run([sys.executable, TOOL, "preflight", "-i", str(inv), "--group", "dflash_linear", "--authority",
                           "--authority-python", "0.5.23=%s" % PYTHON, "--authority-cache", str(cache)],
                          capture_output=True, text=True, check=False, cwd=ROOT, timeout=1200)


def test_authority_resolves_each_distinct_spec_once_then_reads_the_cache(tmp_path):
    inv = production_example.filled_copy(tmp_path / "inv" / "production")
    p = authority(inv, tmp_path / "cache")
    assert p.returncode == 0, p.stdout + p.stderr
    for label in ("pro6000-b1/main", "pro6000-b2/main"):
        line = next(x for x in p.stdout.splitlines() if x.startswith("OK    %s: " % label))
        assert "DFLASH draft_tokens=16 topk=1" in line and "[SGLang 0.5.23 " in line, p.stdout
    assert "(authority: 1 SGLang process(es) run, 1 answer(s) from the cache" in p.stdout, p.stdout
    p = authority(inv, tmp_path / "cache")
    assert p.returncode == 0 and "(authority: 0 SGLang process(es) run, 2 answer(s) from the cache" in p.stdout, p.stdout


def test_authority_fails_what_sglang_rewrites(tmp_path):
    inv = tmp_path / "inv" / "production"
    production_example.filled_copy(inv)
    (inv / "host_vars" / "pro6000-b1.yml").write_text(yaml.safe_dump({"server_instances": [{
        "name": "main", "cuda_visible_devices": "0,1",
        "spec": "{{ prod_spec_base | combine({'speculative': prod_dflash_linear | combine({'eagle_topk': 4})}) }}"}]}))
    p = authority(inv, tmp_path / "cache")
    assert p.returncode == 1, p.stdout + p.stderr
    fail = next(x for x in p.stdout.splitlines() if x.startswith("FAIL  pro6000-b1/main: "))
    assert "eagle_topk" in fail and "[SGLang 0.5.23 " in fail, p.stdout
    assert any(x.startswith("OK    pro6000-b2/main: ") for x in p.stdout.splitlines()), p.stdout


def test_extra_args_sglang_refuses_pass_static_with_the_note_and_fail_the_authority(tmp_path):
    """extra_args beyond what the spec renders: valid flags (existence and type pass statically) that SGLang refuses
    together. The static preflight passes and says SGLang judges them; the authority fails with SGLang's message."""
    inv = tmp_path / "inv" / "production"
    production_example.filled_copy(inv)
    (inv / "host_vars" / "pro6000-b1.yml").write_text(yaml.safe_dump({"server_instances": [{
        "name": "main", "cuda_visible_devices": "0,1",
        "spec": "{{ prod_spec_base | combine({'speculative': prod_dflash_linear, "
                "'extra_args': ['--ssl-keyfile', '/etc/specdeploy/key.pem']}) }}"}]}))
    p = subprocess.run([sys.executable, TOOL, "preflight", "-i", str(inv), "--group", "dflash_linear"],
                       capture_output=True, text=True, check=False, cwd=ROOT, timeout=600)
    assert p.returncode == 0, p.stdout + p.stderr
    ok = next(x for x in p.stdout.splitlines() if x.startswith("OK    pro6000-b1/main: "))
    assert "[judged by SGLang: the static rules do not model flags --ssl-keyfile]" in ok, p.stdout
    p = authority(inv, tmp_path / "cache")
    assert p.returncode == 1, p.stdout + p.stderr
    fail = next(x for x in p.stdout.splitlines() if x.startswith("FAIL  pro6000-b1/main: "))
    assert "--ssl-keyfile requires --ssl-certfile" in fail and "[SGLang 0.5.23 " in fail, p.stdout
    # a misspelt flag fails the static preflight already (existence in the release's parser)
    (inv / "host_vars" / "pro6000-b1.yml").write_text(yaml.safe_dump({"server_instances": [{
        "name": "main", "cuda_visible_devices": "0,1",
        "spec": "{{ prod_spec_base | combine({'speculative': prod_dflash_linear, "
                "'extra_args': ['--ssl-keyfiel', '/etc/specdeploy/key.pem']}) }}"}]}))
    p = subprocess.run([sys.executable, TOOL, "preflight", "-i", str(inv), "--group", "dflash_linear"],
                       capture_output=True, text=True, check=False, cwd=ROOT, timeout=600)
    assert p.returncode == 1 and "FAIL  pro6000-b1/main: [PARSE_UNRECOGNIZED]" in p.stdout, p.stdout
