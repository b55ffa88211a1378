#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Code-shape rules of docs/ARCHITECTURE.md ("Code shape"), checked on the clang-formatted sources of app/ and core/:
a function body longer than 80 lines, a source file longer than 500, or a class longer than 400 lines or with more
than 20 data members fails unless scripts/code_shape_allow.txt names it (with the reason in ARCHITECTURE.md).

Clang-format (checked by the clang_format test) puts every function and class defined at namespace scope at column 0
and its closing brace alone at column 0: that is what is read. A class's lines are its body in its header (from
`class Name` to `};`) plus every out-of-line member definition `Name::member(...)` in any file, signature to closing
brace; its data members are the non-static data members declared directly in its body. A value type of plain fields
(no member functions but defaulted ones) is excepted from both class limits. --list prints the problems and exits 0."""
import re, subprocess, sys, pathlib

MAX_FUNCTION, MAX_FILE, MAX_CLASS_LINES, MAX_CLASS_MEMBERS = 80, 500, 400, 20
root = pathlib.Path(__file__).resolve().parent.parent


def blank_comments_and_literals(text):
    """The text with comments, string and character literals replaced by spaces (newlines kept), so that braces,
    semicolons and parentheses are only the code's."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == "R" and text.startswith('R"', i) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            m = re.match(r'R"([^(\s]*)\(', text[i:])
            end = text.find(")" + m.group(1) + '"', i) if m else -1
            j = n if end < 0 else end + len(m.group(1)) + 2
            out.append('"' + re.sub(r"[^\n]", " ", text[i + 1:j - 1]) + '"')
            i = j
        elif c in "\"'":
            if c == "'" and i > 0 and text[i - 1].isalnum():  # a digit separator (1'000)
                out.append(" ")
                i += 1
                continue
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(c + " " * (j - i - 1) + c)
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def matching_brace(text, i):
    """Index of the brace closing the one at text[i]."""
    depth = 0
    for j in range(i, len(text)):
        if text[j] == "{":
            depth += 1
        elif text[j] == "}":
            depth -= 1
            if depth == 0:
                return j
    return len(text) - 1


LABEL_RE = re.compile(r"^\s*(?:(?:public|protected|private)(?:\s+(?:slots|Q_SLOTS))?|signals|Q_SIGNALS)\s*:(?!:)")
MACRO_RE = re.compile(r"^\s*Q_[A-Z_]+\b(\s*\([^()]*(\([^()]*\)[^()]*)*\))?")


def without_labels(chunk):
    while True:
        stripped = LABEL_RE.sub("", chunk, count=1)
        stripped = MACRO_RE.sub("", stripped, count=1)
        if stripped == chunk:
            return chunk.strip()
        chunk = stripped


def top_level(text, stop):
    """Splits `text` at the characters in `stop` that are outside (), <>, [] and {}."""
    parts, depth, start = [], 0, 0
    for i, c in enumerate(text):
        if c in "(<[{":
            depth += 1
        elif c in ")>]}":
            depth = max(0, depth - 1)
        elif c in stop and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return parts


def declares_function(head):
    """Whether a member declaration (without its body) declares a function: a parenthesis at the top level of
    its declarator, before any default initializer."""
    head = re.sub(r"^template\s*<.*?>\s*", "", head, flags=re.S)
    if re.search(r"\boperator\b", head):
        return True
    declarator = top_level(head, "=")[0]
    depth = 0
    for c in declarator:
        if c == "<":
            depth += 1
        elif c == ">":
            depth = max(0, depth - 1)
        elif c == "(" and depth == 0:
            return True
    return False


class ClassInfo:
    def __init__(self, name, path, first, last):
        self.name, self.path, self.first, self.last = name, path, first, last
        self.members, self.functions, self.outside = 0, 0, 0

    def lines(self):
        return self.last - self.first + 1 + self.outside


def read_class_body(clean, open_brace, name, path, line_of, classes):
    """Counts the data members and member functions declared directly in the body that opens at `open_brace`,
    and reads nested classes as classes of their own (`Outer::Inner`)."""
    close = matching_brace(clean, open_brace)
    info = ClassInfo(name, path, line_of(clean.rfind("\n", 0, open_brace) + 1), line_of(close))
    classes.append(info)
    i, chunk, parens = open_brace + 1, "", 0
    while i < close:
        c = clean[i]
        parens += (c == "(") - (c == ")")
        if c == "{" and parens > 0:  # a default argument `= {}`
            j = matching_brace(clean, i)
            chunk, i = chunk + "{}", j + 1
            continue
        if c == "{":
            j = matching_brace(clean, i)
            head = without_labels(chunk)
            nested = re.match(r"(?:template\s*<.*?>\s*)?(class|struct|union|enum)\b\s*(?:class\s+)?(\w*)", head, re.S)
            if nested:
                if nested.group(1) != "enum" and nested.group(2):
                    read_class_body(clean, i, f"{name}::{nested.group(2)}", path, line_of, classes)
                k = clean.find(";", j)  # `struct {...} m_x;` declares a member too
                if not nested.group(2) or nested.group(1) != "enum" and clean[j + 1:k].strip():
                    info.members += len(top_level(clean[j + 1:k], ","))
                chunk, i = "", k + 1
                continue
            if declares_function(head):
                info.functions += 1
                chunk, i = "", j + 1
                continue
            chunk += "{}"  # a brace initializer
            i = j + 1
            continue
        if c == ";":
            head = without_labels(chunk)
            chunk = ""
            i += 1
            if not head or re.match(r"(using|typedef|friend|enum|class|struct|union|template|static_assert)\b", head):
                continue
            if declares_function(head):
                if not re.search(r"=\s*(default|delete)\s*$", head):
                    info.functions += 1
                continue
            if re.search(r"\bstatic\b", top_level(head, "=")[0]):
                continue
            info.members += len(top_level(head, ","))
            continue
        chunk += c
        i += 1
    return close


CLASS_HEAD_RE = re.compile(r"(?:template\s*<.*?>\s*)?(?:class|struct)\s+(?:\[\[[^\]]*\]\]\s*)?(?:[A-Z_]+_EXPORT\s+)?"
                           r"(\w+(?:::\w+)*)(?:\s+final)?\s*(?::[^;{]*)?\{", re.S)


def read_classes(path, text, classes):
    """The classes defined at namespace scope (column 0) in one file, with their nested classes."""
    clean = blank_comments_and_literals(text)
    starts = [0] + [m.end() for m in re.finditer("\n", clean)]

    def line_of(offset):
        lo, hi = 0, len(starts) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if starts[mid] <= offset:
                lo = mid
            else:
                hi = mid - 1
        return lo + 1

    for m in re.finditer(r"^(?:template\s*<[^;{]*>\s*\n)?(?:class|struct) ", clean, re.M):
        head = CLASS_HEAD_RE.match(clean, m.start())
        if head and ";" not in clean[m.start():head.end()]:
            read_class_body(clean, head.end() - 1, head.group(1), path, line_of, classes)


SAMPLE = """class Big : public QObject {
  Q_OBJECT
  Q_PROPERTY(int size READ size)

 public:
  explicit Big(Options options = {}, QWidget* parent = nullptr);
  int size() const { return m_a; }
  static constexpr int kMax = 3;
  struct Part {
    int x, y;
  };

 signals:
  void changed(const QString& text = "{;}");

 private:
  int m_a = 0, m_b{1};  // two; {
  std::function<void(int)> m_f;
  QTimer m_timer{this};
  Part m_part;
};

struct Plain {
  int a;
  double b = 0;
  bool operator==(const Plain&) const = default;
};

void Big::grow() {
  ++m_a;
}
"""


def check_the_reader():
    """The class reader's own test: counts it must give on SAMPLE (the check fails when it miscounts)."""
    found = []
    read_classes("sample.hpp", SAMPLE, found)
    got = {c.name: (c.members, c.functions, c.last - c.first + 1) for c in found}
    want = {"Big": (5, 3, 21), "Big::Part": (2, 0, 3), "Plain": (2, 0, 5)}
    if got != want:
        print(f"code shape: the class reader miscounts its sample: {got}, expected {want}")
        sys.exit(1)


check_the_reader()
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
problems, seen, classes, definitions = [], set(), [], []
for f in files:
    text = (root / f).read_text(errors="replace")
    read_classes(f, text, classes)
    lines = text.split("\n")
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
                definitions.append((f, name, k - i + 1))
                key = f"function {f}:{name}"
                if body > MAX_FUNCTION:
                    seen.add(key)
                if body > MAX_FUNCTION and key not in allow:
                    problems.append(f"{f}:{i + 1}: {name} has {body} lines (limit {MAX_FUNCTION})")
                i = k
        i += 1

# Out-of-line member definitions belong to the class their qualifier names: one in a header (any file may define
# its members), or one defined in the same source file (a class of an anonymous namespace).
by_name = {}
for c in classes:
    by_name.setdefault(c.name, []).append(c)
for f, name, length in definitions:
    parts = re.sub(r"<[^<>]*>", "", name).split("::")
    owner = None
    for start in range(len(parts) - 1):
        candidates = by_name.get("::".join(parts[start:-1]), [])
        local = [c for c in candidates if c.path == f]
        owner = (local or [c for c in candidates if c.path.endswith(".hpp")] or [None])[0]
        if owner:
            break
    if owner:
        owner.outside += length
        owner.functions += 1

for c in classes:
    if c.functions == 0:
        continue  # a value type of plain fields
    key = f"class {c.name}"
    over = []
    if c.lines() > MAX_CLASS_LINES:
        over.append(f"{c.lines()} lines (limit {MAX_CLASS_LINES})")
    if c.members > MAX_CLASS_MEMBERS:
        over.append(f"{c.members} data members (limit {MAX_CLASS_MEMBERS})")
    if over:
        seen.add(key)
        if key not in allow:
            problems.append(f"{c.path}:{c.first}: class {c.name} has {' and '.join(over)}")
    if "--classes" in sys.argv:
        print(f"{c.lines():5} lines {c.members:3} members  {c.name}  ({c.path})")

# an allowed entry that is now within the limits must leave the list, so the list only shrinks
stale = sorted(a for a in allow if a not in seen)
problems += [f"'{a}' is allowed in scripts/code_shape_allow.txt but is within the limits now: remove it" for a in stale]
if "--list" in sys.argv:
    print("\n".join(problems) or "none")
    sys.exit(0)
for p in problems:
    print("code shape:", p)
print(f"code shape: {len(files)} files and {len(classes)} classes read, {len(problems)} over the limits "
      f"(allowed: {len(allow)})")
sys.exit(1 if problems else 0)
