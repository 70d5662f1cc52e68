#!/usr/bin/env python3
"""Generate the role, module and playbook reference (docs/reference.md) from their specs.

Sources (nothing is written by hand between the markers):
  roles/*/meta/argument_specs.yml      every entry point of every role
  plugins/modules/*.py                 DOCUMENTATION and RETURN of every module (read with ast, not imported)
  playbooks/meta/argument_specs.yml    the playbooks' inputs

and the table of spec keys and the SGLang flags they render in docs/interfaces.md, from the flags engine's one
spec-to-flags table (plugins/module_utils/sglang_engine/common.py SPEC_FLAGS, read with ast, not imported); every key
of that table must also be in the spec's example there.

  tools/gen_reference.py           rewrite the blocks between the markers in docs/reference.md and docs/interfaces.md
  tools/gen_reference.py --check   exit 1 and show a diff when either is out of date (make lint)
  --readme FILE                    another file holding the reference markers (the tests use it; alone, the
                                   interfaces table is left out unless --interfaces names a file too)
  --interfaces FILE                another file holding the spec table markers
"""
import argparse
import ast
import difflib
import json
import os
import re
import sys

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BEGIN = "<!-- BEGIN GENERATED REFERENCE (generated in the source repository; do not edit by hand) -->"
END = "<!-- END GENERATED REFERENCE -->"
SPEC_BEGIN = "<!-- BEGIN GENERATED SPEC FLAGS (from common.SPEC_FLAGS; do not edit by hand) -->"
SPEC_END = "<!-- END GENERATED SPEC FLAGS -->"
COMMON = os.path.join("plugins", "module_utils", "sglang_engine", "common.py")
SPEC_HEADING = "## The structured spec"


class RefError(Exception):
    pass


def markup(text):
    """Ansible doc markup -> Markdown."""
    if text is None:
        return ""
    if isinstance(text, (list, tuple)):
        text = " ".join(str(t) for t in text)
    text = str(text)
    text = re.sub(r"RV\(([^()]*)\)", r"`\1`", text)
    text = re.sub(r"P\(([^()#]*)#([^()]*)\)", r"`\1` (\2)", text)
    text = re.sub(r"[CVOE]\(([^()]*)\)", r"`\1`", text)
    text = re.sub(r"[IB]\(([^()]*)\)", r"*\1*", text)
    text = re.sub(r"[UM]\(([^()]*)\)", r"\1", text)
    text = re.sub(r"L\(([^,()]*),\s*([^()]*)\)", r"[\1](\2)", text)
    return " ".join(text.split()).replace("|", "\\|")


def fmt_default(opt):
    if "default" not in opt:
        return ""
    val = opt["default"]
    if val is None:
        return "`null`"
    text = json.dumps(val, separators=(", ", ": "), default=str)
    if len(text) > 60:
        text = text[:57] + "..."
    return "`" + text.replace("|", "\\|") + "`"


def fmt_type(opt):
    t = opt.get("type", "str")
    if t == "list" and opt.get("elements"):
        t = f"list of {opt['elements']}"
    if opt.get("choices"):
        t += " (" + ", ".join(f"`{c}`" for c in opt["choices"]) + ")"
    return t


def option_rows(options, prefix=""):
    rows = []
    for name in sorted(options or {}):
        opt = options[name] or {}
        full = prefix + name
        req = "yes" if opt.get("required") else ""
        rows.append(f"| `{full}` | {fmt_type(opt)} | {req} | {fmt_default(opt)} | {markup(opt.get('description'))} |")
        sub = opt.get("options") or opt.get("suboptions")
        if sub:
            sep = "[]." if opt.get("type") == "list" else "."
            rows.extend(option_rows(sub, full + sep))
    return rows


def options_table(options):
    if not options:
        return ["No options."]
    return ["| option | type | required | default | description |", "|---|---|---|---|---|",
            *option_rows(options)]


def return_rows(ret, prefix=""):
    rows = []
    for name in sorted(ret or {}):
        val = ret[name] or {}
        full = prefix + name
        rows.append(f"| `{full}` | {val.get('type', '')} | {markup(val.get('returned', ''))} | {markup(val.get('description'))} |")
        if val.get("contains"):
            rows.extend(return_rows(val["contains"], full + "."))
    return rows


def load_yaml(path):
    try:
        with open(path, encoding="utf-8") as f:
            return yaml.safe_load(f) or {}
    except (OSError, yaml.YAMLError) as e:
        raise RefError(f"{os.path.relpath(path, ROOT)}: cannot read: {e}")


def roles_section():
    out = ["### Roles", ""]
    roles_dir = os.path.join(ROOT, "roles")
    names = sorted(d for d in os.listdir(roles_dir)) if os.path.isdir(roles_dir) else []
    found = False
    for role in names:
        spec_path = os.path.join(roles_dir, role, "meta", "argument_specs.yml")
        if not os.path.exists(spec_path):
            continue
        found = True
        specs = load_yaml(spec_path).get("argument_specs") or {}
        for entry in sorted(specs, key=lambda e: (e != "main", e)):
            spec = specs[entry] or {}
            title = f"`specdeploy.sglang.{role}`" + ("" if entry == "main" else f" (entry point `{entry}`)")
            out += [f"#### Role {title}", "", markup(spec.get("short_description")), ""]
            for para in spec.get("description") or []:
                out += [markup(para), ""]
            out += options_table(spec.get("options"))
            out.append("")
    if not found:
        out += ["No roles in this build.", ""]
    return out


def module_docs(path):
    try:
        tree = ast.parse(open(path, encoding="utf-8").read(), path)
    except SyntaxError as e:
        raise RefError(f"{os.path.relpath(path, ROOT)}: {e}")
    docs = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            if node.targets[0].id in ("DOCUMENTATION", "RETURN", "EXAMPLES") and isinstance(node.value, ast.Constant):
                docs[node.targets[0].id] = node.value.value
    if "DOCUMENTATION" not in docs:
        raise RefError(f"{os.path.relpath(path, ROOT)}: no DOCUMENTATION string")
    try:
        doc = yaml.safe_load(docs["DOCUMENTATION"]) or {}
        ret = yaml.safe_load(docs.get("RETURN") or "") or {}
    except yaml.YAMLError as e:
        raise RefError(f"{os.path.relpath(path, ROOT)}: DOCUMENTATION/RETURN is not YAML: {e}")
    return doc, ret


def modules_section():
    out = ["### Modules", ""]
    mod_dir = os.path.join(ROOT, "plugins", "modules")
    files = sorted(f for f in os.listdir(mod_dir) if f.endswith(".py") and f != "__init__.py") \
        if os.path.isdir(mod_dir) else []
    if not files:
        return out + ["No modules in this build.", ""]
    for fname in files:
        doc, ret = module_docs(os.path.join(mod_dir, fname))
        name = doc.get("module", fname[:-3])
        out += [f"#### Module `specdeploy.sglang.{name}`", "", markup(doc.get("short_description")), ""]
        for para in doc.get("description") or []:
            out.append(f"- {markup(para)}")
        out += ["", "Options:", ""] + options_table(doc.get("options")) + [""]
        if ret:
            out += ["Returns:", "", "| key | type | returned | description |", "|---|---|---|---|",
                    *return_rows(ret), ""]
    return out


def playbooks_section():
    out = ["### Playbooks", ""]
    path = os.path.join(ROOT, "playbooks", "meta", "argument_specs.yml")
    if not os.path.exists(path):
        return out + ["No playbook argument specs.", ""]
    specs = load_yaml(path).get("argument_specs") or {}
    for entry in sorted(specs):
        spec = specs[entry] or {}
        out += [f"#### Playbook `specdeploy.sglang.{entry}`", "", markup(spec.get("short_description")), ""]
        for para in spec.get("description") or []:
            out += [markup(para), ""]
        out += options_table(spec.get("options")) + [""]
    return out


def generate():
    lines = [BEGIN, "", "# Reference", "",
             "Generated from the roles' `meta/argument_specs.yml`, the modules' `DOCUMENTATION`/`RETURN` "
             "and `playbooks/meta/argument_specs.yml`, in the collection's source repository (its lint fails "
             "when this file is out of date).", ""]
    lines += playbooks_section() + roles_section() + modules_section()
    while lines and lines[-1] == "":
        lines.pop()
    return "\n".join(lines + ["", END])


def splice(readme, block, begin=BEGIN, end=END):
    if readme.count(begin) != 1 or readme.count(end) != 1 or readme.index(begin) > readme.index(end):
        raise RefError("the file must contain the markers exactly once, in order:\n  " + begin + "\n  " + end)
    head = readme[:readme.index(begin)]
    tail = readme[readme.index(end) + len(end):]
    return head + block + tail


def spec_flags():
    """common.SPEC_FLAGS: (spec key, SGLang flag, SGLang field) rows."""
    path = os.path.join(ROOT, COMMON)
    try:
        with open(path, encoding="utf-8") as f:
            tree = ast.parse(f.read(), path)
        for node in tree.body:
            if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "SPEC_FLAGS" for t in node.targets):
                return ast.literal_eval(node.value)
    except (OSError, SyntaxError, ValueError) as e:
        raise RefError(f"{COMMON}: {e}") from e
    raise RefError(f"{COMMON}: no SPEC_FLAGS assignment")


def example_keys(text):
    """The keys (speculative.* nested) of the yaml example under the structured spec's heading."""
    at = text.find(SPEC_HEADING)
    start = text.find("```yaml\n", at)
    if at < 0 or start < 0:
        raise RefError(f"no ```yaml example under '{SPEC_HEADING}'")
    body = text[start + len("```yaml\n"):text.index("```", start + 7)]
    try:
        doc = yaml.safe_load(body)
    except yaml.YAMLError as e:
        raise RefError(f"the spec example does not parse: {e}") from e
    keys = set()
    for k, v in doc.items():
        keys.add(k)
        if isinstance(v, dict):
            keys.update(f"{k}.{sub}" for sub in v)
    return keys


def spec_flags_block(text):
    rows = spec_flags()
    missing = [k for k, _f, _d in rows if k not in example_keys(text)]
    if missing:
        raise RefError(f"keys of {COMMON} SPEC_FLAGS missing from the spec example: {', '.join(missing)}")
    lines = [SPEC_BEGIN, "", "The flag each spec key renders (`speculative.verify: tree` adds its tree flavor's own flags). The",
             "static layer judges these completely; a flag from `extra_args` is checked for existence and type and its",
             "compatibility is left to SGLang.", "",
             "| spec key | SGLang flag | SGLang field |", "|---|---|---|"]
    lines += [f"| `{key}` | `{flag}` | `{dest}` |" for key, flag, dest in rows]
    return "\n".join(lines + ["", SPEC_END])


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--check", action="store_true", help="fail with a diff when the reference is out of date")
    p.add_argument("--readme", default=None, help="file with the markers (default docs/reference.md)")
    p.add_argument("--interfaces", default=None, help="file with the spec table markers (default docs/interfaces.md)")
    args = p.parse_args(argv)
    if args.interfaces is None and args.readme is None:
        args.interfaces = os.path.join(ROOT, "docs", "interfaces.md")
    args.readme = args.readme or os.path.join(ROOT, "docs", "reference.md")
    jobs = [(args.readme, lambda text: splice(text, generate()))]
    if args.interfaces:
        jobs.append((args.interfaces, lambda text: splice(text, spec_flags_block(text), SPEC_BEGIN, SPEC_END)))
    rc = 0
    for path, make in jobs:
        rc = max(rc, one_file(path, make, args.check))
    return rc


def one_file(path, make, check):
    name = os.path.relpath(path, ROOT) if path.startswith(ROOT) else path
    try:
        with open(path, encoding="utf-8") as f:
            current = f.read()
        new = make(current)
    except (RefError, OSError) as e:
        print(f"gen_reference: error: {name}: {e}", file=sys.stderr)
        return 2
    if check:
        if new != current:
            sys.stdout.writelines(difflib.unified_diff(current.splitlines(True), new.splitlines(True),
                                                       name, name + " (generated)"))
            print(f"gen_reference: {name} is out of date; run `make reference`", file=sys.stderr)
            return 1
        print(f"gen_reference: {name} is up to date")
        return 0
    if new != current:
        with open(path, "w", encoding="utf-8") as f:
            f.write(new)
        print(f"gen_reference: {name} updated")
    else:
        print(f"gen_reference: {name} already up to date")
    return 0


if __name__ == "__main__":
    sys.exit(main())
