"""tools/gen_reference.py: README reference generated from specs; --check fails on drift."""
import importlib.util
import os
import textwrap

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
spec = importlib.util.spec_from_file_location("gen_reference", os.path.join(ROOT, "tools", "gen_reference.py"))
gen = importlib.util.module_from_spec(spec)
spec.loader.exec_module(gen)


@pytest.mark.parametrize("src,out", [
    ("Set C(foo) to V(bar) with O(baz)", "Set `foo` to `bar` with `baz`"),
    ("I(italic) and B(bold)", "*italic* and *bold*"),
    ("see L(the docs, https://x.invalid/a)", "see [the docs](https://x.invalid/a)"),
    (["two", "lines"], "two lines"),
    ("a | b", "a \\| b"),
])
def test_markup(src, out):
    assert gen.markup(src) == out


def make_tree(tmp_path, readme_body):
    (tmp_path / "tools").mkdir()
    role = tmp_path / "roles" / "demo" / "meta"
    role.mkdir(parents=True)
    (role / "argument_specs.yml").write_text(textwrap.dedent("""\
        argument_specs:
          main:
            short_description: Demo role
            options:
              demo_items:
                type: list
                elements: dict
                default: []
                description: Items.
                options:
                  name: {type: str, required: true, description: Item name.}
        """))
    mods = tmp_path / "plugins" / "modules"
    mods.mkdir(parents=True)
    (mods / "demo_mod.py").write_text(textwrap.dedent('''\
        DOCUMENTATION = r"""
        module: demo_mod
        short_description: Demo module
        description: [Does C(things).]
        options:
          url: {description: Base URL., type: str, required: true}
        """
        RETURN = r"""
        passed: {description: Whether it passed., returned: always, type: bool}
        """
        '''))
    readme = tmp_path / "README.md"
    readme.write_text(readme_body)
    return readme


def run(monkeypatch, tmp_path, *args):
    monkeypatch.setattr(gen, "ROOT", str(tmp_path))
    return gen.main([*args, "--readme", str(tmp_path / "README.md")])


def test_generate_then_check_then_drift(monkeypatch, tmp_path, capsys):
    readme = make_tree(tmp_path, f"# Title\n\nintro\n\n{gen.BEGIN}\nold\n{gen.END}\n\ntrailer\n")
    assert run(monkeypatch, tmp_path, "--check") == 1          # stale block is reported
    assert run(monkeypatch, tmp_path) == 0                     # regenerated
    text = readme.read_text()
    assert text.startswith("# Title\n\nintro\n") and text.endswith("\n\ntrailer\n")
    assert "#### Role `specdeploy.sglang.demo`" in text
    assert "| `demo_items[].name` | str | yes |" in text
    assert "#### Module `specdeploy.sglang.demo_mod`" in text and "- Does `things`." in text
    assert "| `passed` | bool | always | Whether it passed. |" in text
    assert run(monkeypatch, tmp_path, "--check") == 0          # now in sync
    spec = tmp_path / "roles" / "demo" / "meta" / "argument_specs.yml"
    spec.write_text(spec.read_text().replace("Items.", "Changed items."))
    capsys.readouterr()
    assert run(monkeypatch, tmp_path, "--check") == 1          # a spec change without regenerating
    assert "+| `demo_items` | list of dict |  | `[]` | Changed items. |" in capsys.readouterr().out


def test_missing_markers_is_an_error(monkeypatch, tmp_path, capsys):
    make_tree(tmp_path, "# no markers\n")
    assert run(monkeypatch, tmp_path, "--check") == 2
    assert "markers" in capsys.readouterr().err


def test_broken_spec_names_the_file(monkeypatch, tmp_path, capsys):
    make_tree(tmp_path, f"{gen.BEGIN}\n{gen.END}\n")
    (tmp_path / "roles" / "demo" / "meta" / "argument_specs.yml").write_text("argument_specs: {main: [}\n")
    assert run(monkeypatch, tmp_path) == 2
    assert "roles/demo/meta/argument_specs.yml" in capsys.readouterr().err


INTERFACES = """# Interfaces

## The structured spec (`sglang_spec`)
```yaml
model_path: /m
speculative:
  algorithm: DFLASH
extra_args: []
```

{begin}
old
{end}

## next
"""


def test_spec_table_generated_from_spec_flags(monkeypatch, tmp_path, capsys):
    """docs/interfaces.md's spec table comes from common.SPEC_FLAGS; a key the spec example lacks is an error."""
    make_tree(tmp_path, f"{gen.BEGIN}\n{gen.END}\n")
    common = tmp_path / gen.COMMON
    common.parent.mkdir(parents=True)
    common.write_text('import re\nSPEC_FLAGS = (\n    ("model_path", "--model-path", "model_path"),\n'
                      '    ("speculative.algorithm", "--speculative-algorithm", "speculative_algorithm"),\n)\n')
    doc = tmp_path / "interfaces.md"
    doc.write_text(INTERFACES.format(begin=gen.SPEC_BEGIN, end=gen.SPEC_END))

    def run_i(*args):
        monkeypatch.setattr(gen, "ROOT", str(tmp_path))
        return gen.main([*args, "--readme", str(tmp_path / "README.md"), "--interfaces", str(doc)])

    assert run_i("--check") == 1
    assert run_i() == 0
    text = doc.read_text()
    assert "| `speculative.algorithm` | `--speculative-algorithm` | `speculative_algorithm` |" in text
    assert text.endswith("## next\n") and "\nold\n" not in text
    assert run_i("--check") == 0
    common.write_text(common.read_text().replace("\n)\n", "\n    (\"tp_size\", \"--tp-size\", \"tp_size\"),\n)\n"))
    capsys.readouterr()
    assert run_i("--check") == 2
    assert "SPEC_FLAGS missing from the spec example: tp_size" in capsys.readouterr().err
