#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Code-shape rules of docs/ARCHITECTURE.md ("Code shape"), checked on the clang-formatted sources of app/ and core/:
a function body longer than 80 lines, or a source file longer than 500, fails unless scripts/code_shape_allow.txt
names it (with the reason in ARCHITECTURE.md). Clang-format (checked by the clang_format test) puts every
function defined at namespace scope at column 0 and its closing brace alone at column 0: that is what is read."""
import re, subprocess, sys, pathlib

MAX_FUNCTION, MAX_FILE = 80, 500
root = pathlib.Path(__file__).resolve().parent.parent
allow = set()
allow_file = root / "scripts" / "code_shape_allow.txt"
if allow_file.exists():
    for line in allow_file.read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            allow.add(line)

files = subprocess.run(["git", "ls-files", "app", "core"], cwd=root, capture_output=True, text=True).stdout.split()
files = [f for f in files if f.endswith((".cpp", ".hpp"))]
start_re = re.compile(r"^[A-Za-z_].*\)\s*(const\s*)?(noexcept\s*)?(override\s*)?(->.*)?\{\s*$|^[A-Za-z_].*[^;]\s*$")
name_re = re.compile(r"([A-Za-z_][A-Za-z0-9_:~<>]*(?:operator[^\(]*)?)\s*\(")
problems, seen = [], set()
for f in files:
    lines = (root / f).read_text(errors="replace").split("\n")
    if len(lines) - 1 > MAX_FILE:
        key = f"file {f}"
        seen.add(key)
        if key not in allow:
            problems.append(f"{f}: {len(lines) - 1} lines (limit {MAX_FILE})")
    i = 0
    while i < len(lines):
        line = lines[i]
        # a definition starts at column 0 (not a comment, preprocessor, namespace, class or brace)
        if line and line[0].isalpha() and not line.startswith(("namespace", "class ", "struct ", "enum ", "using ",
                                                                "template", "extern ", "typedef", "static_assert")):
            j = i
            sig = line
            while j < len(lines) and not lines[j].rstrip().endswith("{") and not lines[j].rstrip().endswith(";") \
                    and j - i < 8:
                j += 1
                sig += " " + lines[j].strip() if j < len(lines) else ""
            if j < len(lines) and lines[j].rstrip().endswith("{") and "(" in sig and "=" not in sig.split("(")[0]:
                k = j + 1
                while k < len(lines) and lines[k] != "}":
                    k += 1
                body = k - j - 1
                m = name_re.search(sig)
                name = m.group(1) if m else sig[:40]
                key = f"function {f}:{name}"
                if body > MAX_FUNCTION:
                    seen.add(key)
                if body > MAX_FUNCTION and key not in allow:
                    problems.append(f"{f}:{i + 1}: {name} has {body} lines (limit {MAX_FUNCTION})")
                i = k
        i += 1
# an allowed entry that is now within the limits must leave the list, so the list only shrinks
stale = sorted(a for a in allow if a not in seen)
problems += [f"'{a}' is allowed in scripts/code_shape_allow.txt but is within the limits now: remove it" for a in stale]
if "--list" in sys.argv:
    print("\n".join(problems) or "none")
    sys.exit(0)
for p in problems:
    print("code shape:", p)
print(f"code shape: {len(files)} files read, {len(problems)} over the limits (allowed: {len(allow)})")
sys.exit(1 if problems else 0)
