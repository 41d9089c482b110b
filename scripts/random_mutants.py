"""Random one-token mutants for `make mutate RANDOM=N SEED=S` (scripts/mutate.py): bugs no one
chose, drawn with a fixed seed from the code (never a comment or a string literal) of the three
rooms below.

What a mutant changes, one token:
- a comparison: `<` ↔ `<=`, `>` ↔ `>=`, `==` ↔ `!=` (binary, so spaced on both sides: a generic's
  `Array<Int>` and an arrow `->` are not comparisons);
- a logical operator: `&&` ↔ `||`;
- `± 1`: the sign of an addition or subtraction of the literal 1 (`+ 1`, `&-= 1`, …);
- a boolean literal: `true` ↔ `false`;
- `min` ↔ `max` where it is called (`min(a, b)`, `.max { … }`);
- a dropped prefix `!` (`!done` → `done`; a force unwrap `x!` is not a negation);
- a range off by one: `..<` ↔ `...` between two bounds (`a..<b`; a one-sided `a...` is left alone).

Every place is a candidate; a seed draws N of them (Python's `random.Random(seed).sample`, the
same draw for the same seed and the same sources). Lines that are compiler directives (`#if`) are
left out. Tests/Mutations/equivalent.tsv lists mutants that change nothing a caller can see, each
with why; mutate.py skips them (they are drawn, so the rest of a seed's draw does not move)."""

import bisect
import os
import random
import re

ROOMS = {"Sources/StopSheetCore": "Core", "Sources/StopSheetDaemon": "Daemon", "Sources/StopSheetProtocol": "Protocol"}
EQUIVALENT = os.path.join("Tests", "Mutations", "equivalent.tsv")

_LITERAL_OR_COMMENT = re.compile(r'//|/\*|#*"')
_IDENTIFIER = re.compile(r"[A-Za-z0-9_$]")
# Swift's operator tokens: a run of operator characters; a dot only where the operator starts with one.
_OPERATOR = re.compile(r"\.[-/=+!*%<>&|^~?.]*|[-/=+!*%<>&|^~?]+")
_SWAPS = {"<": "<=", "<=": "<", ">": ">=", ">=": ">", "==": "!=", "!=": "==", "&&": "||", "||": "&&"}
_SIGNS = {"+": "-", "-": "+", "&+": "&-", "&-": "&+", "+=": "-=", "-=": "+=", "&+=": "&-=", "&-=": "&+="}
_RANGES = {"..<": "...", "...": "..<"}
_GENERIC_CLAUSE = re.compile(r"\s*(?:(?:@\w+|public|private|fileprivate|internal|static|mutating|nonisolated)\s+)*"
                             r"(?:extension|struct|enum|class|protocol|func|init|subscript)\b.*?\bwhere\b")
_WORDS = re.compile(r"\b(true|false|min|max)\b")


def _skip_string(text, start):
    """`start` is at a string literal's first character (`#` of a raw string, or its quote).
    Returns the index just after the literal, interpolations and nested literals included."""
    hashes = 0
    while text.startswith("#", start + hashes):
        hashes += 1
    i = start + hashes
    delimiter = '"""' if text.startswith('"""', i) else '"'
    i += len(delimiter)
    closing = delimiter + "#" * hashes
    escape = "\\" + "#" * hashes
    while i < len(text):
        if text.startswith(escape, i):
            i += len(escape)
            if text.startswith("(", i):
                i = _skip_interpolation(text, i + 1)
            else:
                i += 1
        elif text.startswith(closing, i):
            return i + len(closing)
        else:
            i += 1
    return len(text)


def _skip_interpolation(text, i):
    """Past the `)` that closes an interpolation whose `(` is just before `i`."""
    depth = 1
    while i < len(text) and depth:
        if text[i] == '"' or (text[i] == "#" and re.match(r'#+"', text[i:])):
            i = _skip_string(text, i)
            continue
        depth += {"(": 1, ")": -1}.get(text[i], 0)
        i += 1
    return i


def code_only(text):
    """`text` with every comment and string literal blanked (spaces; line breaks kept), so that
    what is left is code, at the same offsets."""
    out = list(text)

    def blank(begin, end):
        for k in range(begin, end):
            if out[k] != "\n":
                out[k] = " "

    i = 0
    while True:
        start = _LITERAL_OR_COMMENT.search(text, i)
        if not start:
            break
        i = start.start()
        if text.startswith("//", i):
            end = text.find("\n", i)
            end = len(text) if end < 0 else end
        elif text.startswith("/*", i):
            depth, end = 1, i + 2
            while end < len(text) and depth:
                if text.startswith("/*", end):
                    depth, end = depth + 1, end + 2
                elif text.startswith("*/", end):
                    depth, end = depth - 1, end + 2
                else:
                    end += 1
        else:
            end = _skip_string(text, i)
        blank(i, end)
        i = end
    return "".join(out)


def candidates_in(path, text):
    """Every mutant of one file: dicts of file, line, column (1-based), offset, token, replacement
    and the kind of change."""
    code = code_only(text)
    found = []
    line_starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def add(offset, token, replacement, kind):
        line = bisect.bisect_right(line_starts, offset)
        source_line = text[line_starts[line - 1]:].split("\n", 1)[0]
        if source_line.lstrip().startswith("#"):
            return
        declaration = _GENERIC_CLAUSE.match(source_line)
        if declaration and offset - line_starts[line - 1] > declaration.end():
            return  # a generic `where` clause: `Element != UInt8` is no Swift
        found.append({"file": path, "line": line, "column": offset - line_starts[line - 1] + 1, "offset": offset,
                      "token": token, "replacement": replacement, "kind": kind})

    for match in _OPERATOR.finditer(code):
        token, begin, end = match.group(), match.start(), match.end()
        before = code[begin - 1] if begin > 0 else "\n"
        after = code[end] if end < len(code) else "\n"
        spaced = before in " \t" and after in " \t"
        if token in _SWAPS and spaced:
            add(begin, token, _SWAPS[token], "logical" if token in ("&&", "||") else "comparison")
        elif token in _SIGNS and spaced and re.match(r"\s*1(?![\w.])", code[end:]):
            add(begin, token, _SIGNS[token], "plus-minus-one")
        elif token in _RANGES and (_IDENTIFIER.match(before) or before == ")") and (_IDENTIFIER.match(after) or after == "("):
            add(begin, token, _RANGES[token], "range")
        elif token == "!" and not (_IDENTIFIER.match(before) or before in ")]?!>") and (_IDENTIFIER.match(after) or after in "(."):
            add(begin, token, "", "negation")
    for match in _WORDS.finditer(code):
        word, begin = match.group(), match.start()
        if word in ("true", "false"):
            add(begin, word, "false" if word == "true" else "true", "boolean")
        elif re.match(r"\s*[({]", code[match.end():]):
            add(begin, word, "max" if word == "min" else "min", "min-max")
    return sorted(found, key=lambda c: c["offset"])


def room_of(path):
    return next(room for prefix, room in ROOMS.items() if path.startswith(prefix + "/"))


def all_candidates(root):
    """Every mutant of the three rooms, in a fixed order (path, then offset)."""
    found = []
    for prefix in sorted(ROOMS):
        for directory, subdirectories, names in os.walk(os.path.join(root, prefix)):
            subdirectories.sort()
            for name in sorted(names):
                if name.endswith(".swift"):
                    full = os.path.join(directory, name)
                    with open(full, encoding="utf-8") as f:
                        found += candidates_in(os.path.relpath(full, root), f.read())
    found.sort(key=lambda c: (c["file"], c["offset"]))
    return found


def mutated_line(candidate, text):
    """The candidate's line, before and after, stripped: how equivalent.tsv names a mutant."""
    start = text.rfind("\n", 0, candidate["offset"]) + 1
    end = text.find("\n", candidate["offset"])
    end = len(text) if end < 0 else end
    at = candidate["offset"] - start
    line = text[start:end]
    after = line[:at] + candidate["replacement"] + line[at + len(candidate["token"]):]
    return line.strip(), after.strip()


def load_equivalent(root):
    """equivalent.tsv: file, the line as it is, the line mutated (both stripped), why the change
    is invisible. Returns {(file, line, mutated): reason}."""
    listed = {}
    path = os.path.join(root, EQUIVALENT)
    if not os.path.exists(path):
        return listed
    for number, fields in tsv_rows(path):
        if len(fields) != 4 or not fields[3].strip():
            raise ValueError(f"{path}:{number}: want four tab-separated fields (file, line, mutated line, reason)")
        listed[(fields[0], fields[1], fields[2])] = fields[3]
    return listed


def tsv_rows(path):
    """The rows of one of Tests/Mutations' lists (mutations.tsv, equivalent.tsv) as (line number,
    tab-separated fields), blank lines and `#` comments left out."""
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if line.strip() and not line.startswith("#"):
                yield number, line.split("\t")


def draw(root, count, seed):
    """`count` mutants drawn with `seed`, in file order, each with its room, id, and the reason
    it is equivalent when equivalent.tsv lists it."""
    candidates = all_candidates(root)
    chosen = random.Random(seed).sample(candidates, min(count, len(candidates)))
    chosen.sort(key=lambda c: (c["file"], c["offset"]))
    equivalent = load_equivalent(root)
    texts = {}
    for mutant in chosen:
        if mutant["file"] not in texts:
            with open(os.path.join(root, mutant["file"]), encoding="utf-8") as f:
                texts[mutant["file"]] = f.read()
        before, after = mutated_line(mutant, texts[mutant["file"]])
        mutant["room"] = room_of(mutant["file"])
        mutant["id"] = f"{mutant['file']}:{mutant['line']}:{mutant['column']} {mutant['token']} → {mutant['replacement'] or '(nothing)'}"
        mutant["equivalent"] = equivalent.get((mutant["file"], before, after))
    return chosen


def plant(mutant, text):
    """The file's text with the mutant planted; refuses when the token is not where it was drawn."""
    at, token = mutant["offset"], mutant["token"]
    if text[at:at + len(token)] != token:
        raise ValueError(f"{mutant['id']}: the file changed since the draw")
    return text[:at] + mutant["replacement"] + text[at + len(token):]
