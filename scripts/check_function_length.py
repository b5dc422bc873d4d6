#!/usr/bin/env python3
"""Lists the functions of kboost's library and CLI folders that are longer than a limit (default 80
lines, from the line of the opening brace to the closing one).

A function here is a brace block opened on a line that looks like a definition: a parenthesised
parameter list before the brace (or on the lines just above it), not a control statement, a
namespace, a class or an initialiser. Lambdas and local classes count as part of the function that
holds them. Comments, string and character literals are blanked before braces are counted.

Functions that are still too long are listed in PENDING (how many per file); a file with more
than that, or any other file with one, fails. Shorten a function, then lower its count.

Declarative tables are exempt: a function whose body is marked with the comment
`// declarative table` on its first line (one entry per line, no logic) is not counted.

usage: scripts/check_function_length.py [--limit N] [<source dir>]
Exit status 0 when no function is over the limit, 1 otherwise (each one listed as file:line: name, length).
"""
import argparse
import pathlib
import re
import sys

FOLDERS = ("core", "kernels", "io", "engine", "apps", "bindings")
SUFFIXES = {".hpp", ".cpp", ".h"}
NOT_FUNCTIONS = re.compile(r"^\s*(if|for|while|switch|catch|do|else|namespace|struct|class|union|enum|return)\b")
TABLE_MARK = "// declarative table"
# Functions over the limit that are still to be split into named stages: file -> how many.
PENDING = {
}


def blank_literals(text):
    """`text` with comments, string and character literals replaced by spaces (newlines kept)."""
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
        elif c == 'R' and text.startswith('R"', i):
            m = re.match(r'R"([^(]*)\(', text[i:])
            end = text.find(")" + (m.group(1) if m else "") + '"', i)
            j = n if end < 0 else end + len(m.group(1) if m else "") + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(" " * (min(j + 1, n) - i))
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def head_before(lines, lineno, col):
    """The text of the statement that ends with the brace at (lineno, col): up to three lines back."""
    parts = [lines[lineno][:col]]
    k = lineno - 1
    while k >= 0 and k >= lineno - 3 and not re.search(r"[;{}]\s*$", lines[k]):
        parts.insert(0, lines[k])
        k -= 1
    return " ".join(p.strip() for p in parts)


def long_functions(path, limit):
    raw = path.read_text(encoding="utf-8", errors="replace")
    lines = blank_literals(raw).split("\n")
    raw_lines = raw.split("\n")
    stack = []  # (kind, start line) per open brace; kind "fn" for a function body
    found = []
    for lineno, line in enumerate(lines):
        for col, ch in enumerate(line):
            if ch == "{":
                head = head_before(lines, lineno, col)
                inside_fn = any(kind == "fn" for kind, _ in stack)
                is_fn = (not inside_fn and ")" in head and not NOT_FUNCTIONS.search(head)
                         and not re.search(r"(=|return|\[\]|\bnew)\s*[^)]*$", head.split(")")[-1])
                         and not head.rstrip().endswith("="))
                stack.append(("fn" if is_fn else "block", lineno))
            elif ch == "}" and stack:
                kind, start = stack.pop()
                if kind != "fn":
                    continue
                length = lineno - start + 1
                exempt = TABLE_MARK in raw_lines[start] or (start + 1 < len(raw_lines) and TABLE_MARK in raw_lines[start + 1])
                if length > limit and not exempt:
                    name = re.sub(r"\s+", " ", head_before(lines, start, lines[start].find("{")))[-90:]
                    found.append((start + 1, name, length))
    return found


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--limit", type=int, default=80)
    ap.add_argument("root", nargs="?", default=str(pathlib.Path(__file__).resolve().parent.parent))
    args = ap.parse_args(argv[1:])
    root = pathlib.Path(args.root).resolve()
    count, failed = 0, False
    for folder in FOLDERS:
        for f in sorted((root / folder).rglob("*")):
            if not (f.is_file() and f.suffix in SUFFIXES):
                continue
            rel = f.relative_to(root).as_posix()
            found = long_functions(f, args.limit)
            allowed = PENDING.get(rel, 0) if args.limit == 80 else 0
            for line, name, length in found:
                print(f"{rel}:{line}: {length} lines: {name}" + (" (pending)" if len(found) <= allowed else ""))
            count += len(found)
            failed = failed or len(found) > allowed
    print(f"check_function_length: {count} function(s) over {args.limit} lines under {root}"
          + ("" if failed else " (all of them pending)" if count else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
