"""Stand-in for ansible-test's pip bootstrap script (get-pip), which it downloads from
ci-files.testing.ansible.com, a host these machines cannot reach.

`make sanity` copies this to ~/.ansible/test/cache/get_pip_<version>.py with PIP_WHEEL set to a pip
wheel fetched from PyPI. Like get-pip.py it runs `pip install --upgrade --force-reinstall <args>` from
that wheel, dropping get-pip's own --no-setuptools/--no-wheel options.
"""
import sys

PIP_WHEEL = "@PIP_WHEEL@"

sys.path.insert(0, PIP_WHEEL)
from pip._internal.cli.main import main as pip_main  # noqa: E402  (import from the wheel)

args = [a for a in sys.argv[1:] if a not in ("--no-setuptools", "--no-wheel")]
sys.exit(pip_main(["install", "--upgrade", "--force-reinstall"] + args))
