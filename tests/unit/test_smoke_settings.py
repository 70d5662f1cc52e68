"""One definition of the smoke gate's settings (smoke.SETTINGS): the server role's defaults and argument specs,
smoke_decode's options and documentation, and server_plan's smoke arguments all carry its values. The start
timeout disagreed before (1800 s in the role, 300 s in the module)."""
import os

import yaml

from ansible_collections.specdeploy.sglang.plugins.module_utils import server_plan as sp
from ansible_collections.specdeploy.sglang.plugins.module_utils import smoke
from ansible_collections.specdeploy.sglang.plugins.modules import smoke_decode

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _yaml(*parts):
    with open(os.path.join(ROOT, *parts)) as handle:
        return yaml.safe_load(handle)


def test_role_defaults_and_argument_specs_carry_the_settings():
    defaults = _yaml("roles", "server", "defaults", "main.yml")
    specs = _yaml("roles", "server", "meta", "argument_specs.yml")["argument_specs"]["main"]["options"]
    for key, value in smoke.SETTINGS.items():
        name = "server_smoke_" + key
        assert defaults[name] == value, name
        assert specs[name].get("default") == value, name


def test_smoke_decode_options_and_docs_carry_the_settings():
    doc = yaml.safe_load(smoke_decode.DOCUMENTATION)["options"]
    for key in ("timeout", "prompts", "max_new_tokens", "runs", "expect_substrings"):
        assert doc[key]["default"] == smoke.SETTINGS[key], key
    assert doc["timeout"]["default"] == 1800


def test_server_plan_smoke_args_default_to_the_settings():
    args = sp.smoke_args({"sglang_version": "0.5.23", "model_path": "/m"}, {"model_path": "/m"}, None, {}, "sglang-a.service")
    assert args["timeout"] == smoke.SETTINGS["timeout"] and args["prompts"] == smoke.SETTINGS["prompts"]
    assert args["expect"] == {"model_path": "/m"}      # expect_keys defaults to the role's list
    assert sp.SMOKE_DEFAULTS is smoke.SETTINGS
