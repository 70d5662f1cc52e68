"""tools/molecule_lanes.py: the failure digest make test prints last (CI keeps only the tail of its log)."""
import importlib.util
import os

_PATH = os.path.join(os.path.dirname(__file__), "..", "..", "tools", "molecule_lanes.py")
_SPEC = importlib.util.spec_from_file_location("molecule_lanes", _PATH)
lanes = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(lanes)

# what a failed testinfra verify leaves in a scenario log: Molecule's timestamps, colours and frame
LOG = (
    "[1m02s]   \x1b[2m│\x1b[0m tests/test_fleet.py .F\n"
    "[1m03s]   \x1b[2m│\x1b[0m E           AssertionError: node-3 did not rejoin\n"
    "[1m03s]   \x1b[2m│\x1b[0m E           assert None is not None\n"
    "[1m03s]   \x1b[2m│\x1b[0m tests/test_fleet.py:168: AssertionError\n"
    "[1m03s]   \x1b[2m│\x1b[0m FAILED - RETRYING: [localhost]: Wait for instance(s) deletion to complete\n"
    "[1m04s]   \x1b[2m│\x1b[0m =========================== short test summary info\n"
    "[1m04s]   \x1b[2m│\x1b[0m FAILED tests/test_fleet.py::test_rollback_returns_every_host - Asse\n"
    "[1m05s] \x1b[32mfleet\x1b[0m ➜ \x1b[33mverify\x1b[0m: \x1b[31mExecuted: Failed\x1b[0m\n"
)


def test_the_digest_names_the_failed_test_and_its_assertion(tmp_path):
    log = tmp_path / "fleet.log"
    log.write_text(LOG, encoding="utf-8")
    lines = lanes.digest(str(log))
    assert "FAILED tests/test_fleet.py::test_rollback_returns_every_host - Asse" in lines
    assert "E           AssertionError: node-3 did not rejoin" in lines
    assert lines[-1] == "fleet ➜ verify: Executed: Failed"
    assert not any("tests/test_fleet.py .F" in line or "RETRYING" in line for line in lines)
