#!/usr/bin/env python3
"""Checks kboost's layering: a file may include only headers of its own layer or of a layer below.

Layers, lowest first: core (0) < kernels (1) < io (2) < engine (3) < apps and bindings (4, the CLI and
the C ABI; they do not include each other). Every project include
in the library folders must be spelled `#include <kboost/<layer>/...>`; a quoted project include
(`#include "core/..."`) is reported too, because it only resolves through the source tree and
bypasses the include layout the build (and an install) provides. The one exception is apps/, which
is not part of the library's include tree: it includes its own private headers by file name
(`#include "commands.hpp"`). `detail/` headers belong to their layer like the others.

usage: scripts/check_layering.py [<source dir>]   (default: the folder above this script)
Exit status 0 when there is no violation, 1 otherwise (each one listed as file:line: edge).
"""
import pathlib
import re
import sys

RANKS = {"core": 0, "kernels": 1, "io": 2, "engine": 3, "apps": 4, "bindings": 4}
SUFFIXES = {".hpp", ".cpp", ".h", ".cc", ".cxx", ".hxx", ".inl"}
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')


def layer_of_include(path):
    """(layer, prefixed) of an include path naming a project header, else None."""
    parts = path.split("/")
    if len(parts) >= 3 and parts[0] == "kboost" and parts[1] in RANKS:
        return parts[1], True
    if len(parts) >= 2 and parts[0] in RANKS:
        return parts[0], False
    return None


def layer_of_file(root, path):
    """Layer folder of `path` (a file under `root`), else None."""
    try:
        first = path.resolve().relative_to(root).parts[0]
    except (ValueError, IndexError):
        return None
    return first if first in RANKS else None


def check(root):
    """List of violation messages for the source tree at `root`."""
    violations = []
    for layer, rank in sorted(RANKS.items(), key=lambda kv: kv[1]):
        folder = root / layer
        if not folder.is_dir():
            continue
        for f in sorted(folder.rglob("*")):
            if not f.is_file() or f.suffix not in SUFFIXES:
                continue
            rel = f.relative_to(root).as_posix()
            text = f.read_text(encoding="utf-8", errors="replace")
            for lineno, line in enumerate(text.splitlines(), 1):
                m = INCLUDE.match(line)
                if not m:
                    continue
                found = layer_of_include(m.group(2))
                if found is None and m.group(1) == '"':
                    # a quoted include beside the file (or ../): which layer does it reach?
                    beside = f.parent / m.group(2)
                    target = layer_of_file(root, beside) if beside.is_file() else None
                    if target is not None and not (target == layer == "apps"):
                        found = (target, False)
                if found is None:
                    continue  # system or third-party header, or an apps/ header from apps/
                target, prefixed = found
                spelled = m.group(1) + m.group(2) + ('"' if m.group(1) == '"' else ">")
                if not prefixed:
                    hint = (f'"{m.group(2).split("/")[-1]}"' if target == layer == "apps"
                            else f"<kboost/{target}/...>")
                    violations.append(f"{rel}:{lineno}: unprefixed project include {spelled} (use {hint})")
                if RANKS[target] > rank:
                    violations.append(f"{rel}:{lineno}: upward include {layer} -> {target}: {spelled}")
    return violations


def main(argv):
    root = pathlib.Path(argv[1] if len(argv) > 1 else pathlib.Path(__file__).resolve().parent.parent).resolve()
    missing = [layer for layer in RANKS if not (root / layer).is_dir()]
    if len(missing) == len(RANKS):
        print(f"check_layering: no layer folder under {root}", file=sys.stderr)
        return 2
    violations = check(root)
    for v in violations:
        print(v)
    print(f"check_layering: {len(violations)} violation(s) under {root}")
    return 1 if violations else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
