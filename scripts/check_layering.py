#!/usr/bin/env python3
"""Checks kboost's layering: a file may include only headers of its own layer or of a layer below.

Layers, lowest first: core (0) < kernels (1) < io (2) < engine (3) < apps and bindings (4, the CLI and
the language entry points: the C++ umbrella header bindings/cpp/kboost.hpp, the C ABI; they do not
include each other). Every project include
in the library folders must be spelled `#include <kboost/<layer>/...>`; a quoted project include
(`#include "core/..."`) is reported too, because it only resolves through the source tree and
bypasses the include layout the build (and an install) provides. The one exception is apps/, which
is not part of the library's include tree: it includes its own private headers by file name
(`#include "commands.hpp"`).
`detail/` headers are private to their layer: a file in layer L may include <kboost/L/detail/...>
but not <kboost/M/detail/...> of another layer M, and apps/ and bindings/ include no detail/ header
at all. A header another layer needs is public (a layer's top folder).

usage: scripts/check_layering.py [<source dir>]   (default: the folder above this script)
       scripts/check_layering.py --self-test      (the rules on a small made-up tree)
Exit status 0 when there is no violation, 1 otherwise (each one listed as file:line: edge).
"""
import pathlib
import re
import sys
import tempfile

RANKS = {"core": 0, "kernels": 1, "io": 2, "engine": 3, "apps": 4, "bindings": 4}
SUFFIXES = {".hpp", ".cpp", ".h", ".cc", ".cxx", ".hxx", ".inl"}
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')
ENTRY_POINTS = {"apps", "bindings"}  # not library layers: they see only public headers

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


def include_violations(rel, layer, spelled, path, target, prefixed):
    """Messages for one include of `path` (a header of layer `target`) from file `rel` in `layer`."""
    found = []
    if not prefixed:
        hint = f'"{path.split("/")[-1]}"' if target == layer == "apps" else f"<kboost/{target}/...>"
        found.append(f"unprefixed project include {spelled} (use {hint})")
    if RANKS[target] > RANKS[layer]:
        found.append(f"upward include {layer} -> {target}: {spelled}")
    elif target != layer and target in ENTRY_POINTS and layer in ENTRY_POINTS:
        found.append(f"include between entry points {layer} -> {target}: {spelled}")
    if "detail" in path.split("/")[:-1]:
        if layer in ENTRY_POINTS:
            found.append(f"{layer}/ includes a detail/ header: {spelled} (make it public, or add a public function)")
        elif target != layer:
            found.append(f"include of another layer's detail/ {layer} -> {target}: {spelled} (make it public)")
    return found


def file_violations(root, f, layer):
    """Violation messages ("file:line: ...") of one source file `f` of `layer`."""
    rel = f.relative_to(root).as_posix()
    violations = []
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
        spelled = m.group(1) + m.group(2) + ('"' if m.group(1) == '"' else ">")
        for message in include_violations(rel, layer, spelled, m.group(2), *found):
            violations.append(f"{rel}:{lineno}: {message}")
    return violations


def check(root):
    """List of violation messages for the source tree at `root`."""
    violations = []
    for layer, _ in sorted(RANKS.items(), key=lambda kv: kv[1]):
        folder = root / layer
        if not folder.is_dir():
            continue
        for f in sorted(folder.rglob("*")):
            if f.is_file() and f.suffix in SUFFIXES:
                violations.extend(file_violations(root, f, layer))
    return violations


# --self-test: a made-up tree, every file named for what the checker must say about it (the line
# numbers are those of the include).
SELF_TEST_TREE = {
    "core/detail/buffer.hpp": "#pragma once\n",
    "core/buffer_user.hpp": "#include <kboost/core/detail/buffer.hpp>\n",                 # own layer: fine
    "io/reads_core_detail.cpp": "#include <kboost/core/detail/buffer.hpp>\n",             # refused
    "engine/detail/table.hpp": "#pragma once\n",
    "engine/other.cpp": "\n#include <kboost/kernels/detail/cox.hpp>\n",                  # refused
    "kernels/reads_io.hpp": "#include <kboost/io/reader.hpp>\n",                          # refused: upward
    "apps/main.cpp": '#include "app.hpp"\n#include <kboost/engine/detail/table.hpp>\n',  # refused: detail
    "apps/app.hpp": "#pragma once\n",
    "bindings/cpp/kboost.hpp": "#include <kboost/engine/booster.hpp>\n#include <kboost/apps/app.hpp>\n",
}
SELF_TEST_EXPECTED = [
    "kernels/reads_io.hpp:1: upward include kernels -> io: <kboost/io/reader.hpp>",
    "io/reads_core_detail.cpp:1: include of another layer's detail/ io -> core: "
    "<kboost/core/detail/buffer.hpp> (make it public)",
    "engine/other.cpp:2: include of another layer's detail/ engine -> kernels: "
    "<kboost/kernels/detail/cox.hpp> (make it public)",
    "apps/main.cpp:2: apps/ includes a detail/ header: <kboost/engine/detail/table.hpp> "
    "(make it public, or add a public function)",
    "bindings/cpp/kboost.hpp:2: include between entry points bindings -> apps: <kboost/apps/app.hpp>",
]


def self_test():
    """0 when check() reports exactly SELF_TEST_EXPECTED on SELF_TEST_TREE, else 1 (with the difference)."""
    with tempfile.TemporaryDirectory() as tmp:
        root = pathlib.Path(tmp).resolve()
        for rel, text in SELF_TEST_TREE.items():
            (root / rel).parent.mkdir(parents=True, exist_ok=True)
            (root / rel).write_text(text, encoding="utf-8")
        got = check(root)
    if got == SELF_TEST_EXPECTED:
        print(f"check_layering self-test: the {len(got)} expected violation(s), nothing else")
        return 0
    for line in sorted(set(SELF_TEST_EXPECTED) - set(got)):
        print(f"missed:     {line}")
    for line in sorted(set(got) - set(SELF_TEST_EXPECTED)):
        print(f"unexpected: {line}")
    if sorted(got) == sorted(SELF_TEST_EXPECTED):
        print("same violations in another order:", *got, sep="\n  ")
    return 1


def main(argv):
    if argv[1:] == ["--self-test"]:
        return self_test()
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
