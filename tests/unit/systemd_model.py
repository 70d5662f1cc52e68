"""How systemd reads what the collection writes: a test model of three of its parsers (systemd 252,
src/basic/fileio.c read_line, src/shared/conf-parser.c, src/basic/extract-word.c, src/basic/env-file.c).
A STAND-IN for systemd itself where the unit tests cannot start it (test_systemd_quoting.py also runs the
real `systemd-analyze verify` on the rendered units when the machine has it).

- unit_lines: the logical lines of a unit file. read_line ends a line at LF, CR, CRLF or NUL; a line
  ending in an unescaped backslash continues on the next (comment lines inside a continuation skipped).
- exec_words: ExecStart= value -> argv (extract_first_word with EXTRACT_UNQUOTE|EXTRACT_CUNESCAPE,
  then % specifiers, then $ variables: %% -> %, $$ -> $; an unknown specifier or a bare $NAME fails).
- environment_assignments: Environment= value -> {name: value} (the same unquoting, % specifiers, no $).
- env_file: an EnvironmentFile -> {name: value} (parse_env_file_internal's state machine).
"""
import os
import re

import jinja2
import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def render_role_unit(lines, inst, **overrides):
    """roles/server/templates/sglang.service.j2 rendered with the role's defaults (trim_blocks, as Ansible's
    template lookup does) from server_plan action=lines' answer `lines`, for instance `inst`."""
    defaults = yaml.safe_load(open(os.path.join(ROOT, "roles", "server", "defaults", "main.yml")))
    env = jinja2.Environment(undefined=jinja2.StrictUndefined, trim_blocks=True)
    template = env.from_string(open(os.path.join(ROOT, "roles", "server", "templates", "sglang.service.j2")).read())
    ctx = dict(defaults, ansible_managed="managed", __server_inst=inst, __server_exec_lines=lines["exec_lines"],
               __server_env_lines=lines["env_lines"])
    ctx.update(overrides)
    return template.render(**ctx)


class Unparsable(ValueError):
    pass


def unit_lines(text):
    raw = re.split(r"\r\n|\n|\r|\x00", text)
    out, cont = [], None
    for line in raw:
        stripped = line.strip()
        if cont is not None and stripped[:1] in ("#", ";"):
            continue
        escaped = False
        for ch in line:
            escaped = (not escaped) and ch == "\\"
        if escaped:
            cont = (cont or "") + line[:-1] + " "
            continue
        line = (cont or "") + line
        cont = None
        out.append(line)
    if cont is not None:
        out.append(cont)
    return out


def directives(text):
    """[(section, key, value)] of a unit file, in order (comments and blank lines skipped)."""
    section, out = None, []
    for line in unit_lines(text):
        line = line.strip()
        if not line or line[0] in "#;":
            continue
        if line.startswith("[") and line.endswith("]"):
            section = line[1:-1]
            continue
        key, sep, value = line.partition("=")
        out.append((section, key.strip(), value.strip() if sep else None))
    return out


_CESC = {"a": "\a", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t", "v": "\v", "\\": "\\", '"': '"',
         "'": "'", "s": " "}


def _words(value):
    """extract_first_word(EXTRACT_UNQUOTE|EXTRACT_CUNESCAPE) over the whole value."""
    words, i, n = [], 0, len(value)
    while i < n:
        while i < n and value[i] in " \t":
            i += 1
        if i >= n:
            break
        word, quote = [], None
        while i < n:
            ch = value[i]
            if quote is None and ch in " \t":
                break
            if ch == "\\":
                i += 1
                if i >= n:
                    raise Unparsable("trailing backslash")
                esc = value[i]
                if esc in _CESC:
                    word.append(_CESC[esc])
                elif esc == "x":
                    code = int(value[i + 1:i + 3], 16)
                    if code == 0:
                        raise Unparsable("\\x00")
                    word.append(chr(code))
                    i += 2
                else:
                    raise Unparsable("unknown escape \\%s" % esc)
                i += 1
                continue
            if quote is None and ch in "\"'":
                quote = ch
            elif quote == ch:
                quote = None
            else:
                word.append(ch)
            i += 1
        if quote is not None:
            raise Unparsable("unterminated quote")
        words.append("".join(word))
    return words


def _specifiers(word):
    out, i = [], 0
    while i < len(word):
        if word[i] == "%":
            if word[i + 1:i + 2] != "%":
                raise Unparsable("specifier %%%s would be expanded" % word[i + 1:i + 2])
            out.append("%")
            i += 2
            continue
        out.append(word[i])
        i += 1
    return "".join(out)


def _variables(word):
    out, i = [], 0
    while i < len(word):
        if word[i] == "$":
            if word[i + 1:i + 2] == "$":
                out.append("$")
                i += 2
                continue
            if re.match(r"[{A-Za-z_]", word[i + 1:i + 2]):
                raise Unparsable("$%s would be expanded" % word[i + 1:i + 10])
        out.append(word[i])
        i += 1
    return "".join(out)


def exec_words(value):
    return [_variables(_specifiers(w)) for w in _words(value)]


def environment_assignments(value):
    out = {}
    for word in _words(value):
        word = _specifiers(word)
        name, sep, val = word.partition("=")
        if not sep:
            raise Unparsable("not an assignment: %r" % word)
        out[name] = val
    return out


def env_file(text):
    """systemd's parse_env_file_internal (KEY=value lines; quotes; backslash; comments)."""
    out = {}
    state, key, value, i = "PRE_KEY", [], [], 0
    last_ws = None

    def push():
        out["".join(key)] = "".join(value)

    while i < len(text):
        c = text[i]
        if state == "PRE_KEY":
            if c in "#;":
                state = "COMMENT"
            elif c not in " \t\n\r":
                state, key = "KEY", [c]
        elif state == "KEY":
            if c in "\n\r":
                state, key = "PRE_KEY", []
            elif c == "=":
                state, value = "PRE_VALUE", []
            else:
                key.append(c)
        elif state == "PRE_VALUE":
            if c in "\n\r":
                push()
                state, key = "PRE_KEY", []
            elif c == "'":
                state = "SQ"
            elif c == '"':
                state = "DQ"
            elif c == "\\":
                state = "VALUE_ESCAPE"
            elif c not in " \t":
                state, value, last_ws = "VALUE", [c], None
        elif state == "VALUE":
            if c in "\n\r":
                if last_ws is not None:
                    del value[last_ws:]
                push()
                state, key = "PRE_KEY", []
            elif c == "\\":
                state, last_ws = "VALUE_ESCAPE", None
            else:
                if c in " \t":
                    last_ws = len(value) if last_ws is None else last_ws
                else:
                    last_ws = None
                value.append(c)
        elif state == "VALUE_ESCAPE":
            state = "VALUE"
            if c != "\n":
                value.append(c)
        elif state == "SQ":
            if c == "'":
                state = "PRE_VALUE_DONE"
            else:
                value.append(c)
        elif state == "DQ":
            if c == '"':
                state = "PRE_VALUE_DONE"
            elif c == "\\":
                state = "DQ_ESCAPE"
            else:
                value.append(c)
        elif state == "DQ_ESCAPE":
            state = "DQ"
            if c in '"\\`$':
                value.append(c)
            elif c != "\n":
                value += ["\\", c]
        elif state == "PRE_VALUE_DONE":  # after a closing quote: systemd goes on with the value state
            state = "VALUE"
            continue
        elif state == "COMMENT":
            if c == "\\":
                state = "COMMENT_ESCAPE"
            elif c in "\n\r":
                state = "PRE_KEY"
        elif state == "COMMENT_ESCAPE":
            state = "COMMENT"
        i += 1
    if state in ("PRE_VALUE", "VALUE", "VALUE_ESCAPE", "PRE_VALUE_DONE", "SQ", "DQ", "DQ_ESCAPE"):
        if state in ("SQ", "DQ", "DQ_ESCAPE"):
            raise Unparsable("unterminated quote at the end of the file")
        push()
    return out
