#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Check that the CMake and waf builds of the rdma module list the same files.

The module builds with CMake (CMakeLists.txt, examples/CMakeLists.txt; ns-3 >= 3.36 and
standalone) and with waf (wscript; ns-3 <= 3.35). Both keep explicit file lists, ns-3 style. This
script fails, naming each offending file, unless

  * both builds list the same model/helper sources, headers, tests and examples,
  * every listed file exists, and
  * every model/*.cc, model/*.h, helper/*.cc, helper/*.h, examples/*.cc and test/rdma-*-test.cc
    on disk is listed, and
  * no model file includes a helper header (model code never includes helpers).

Usage: check-build-lists.py [MODULE_DIR]   (default: the folder above this script)
Exit status 0 when consistent, 1 otherwise.
"""

import os
import re
import sys

CATEGORIES = ("sources", "headers", "tests", "examples")

# Files named in build files: model/x.cc, helper/x.h, test/x.cc, examples/x.cc, benchmarks/x.cc
PATH_RE = re.compile(r"(?<![\w./-])((?:model|helper|test|examples|benchmarks)/[\w.+-]+\.(?:cc|h))")


def strip_comments(text, comment="#"):
    """Drop everything from `comment` to the end of each line, outside quoted strings."""
    out = []
    for line in text.splitlines():
        quote = None
        for i, ch in enumerate(line):
            if quote:
                if ch == quote:
                    quote = None
            elif ch in "\"'":
                quote = ch
            elif ch == comment:
                line = line[:i]
                break
        out.append(line)
    return "\n".join(out)


def categorize(paths):
    """Sort module-relative paths into CATEGORIES; returns dict of sets plus the other paths."""
    result = {c: set() for c in CATEGORIES}
    others = set()
    for path in paths:
        folder, name = path.split("/", 1)
        if folder in ("model", "helper") and name.endswith(".cc"):
            result["sources"].add(path)
        elif folder in ("model", "helper") and name.endswith(".h"):
            result["headers"].add(path)
        elif folder == "test" and name.endswith(".cc"):
            result["tests"].add(path)
        elif folder == "examples" and name.endswith(".cc"):
            result["examples"].add(path)
        else:
            others.add(path)
    return result, others


def cmake_lists(module_dir):
    """Files listed by CMakeLists.txt and examples/CMakeLists.txt, as module-relative paths."""
    paths = set()
    top = os.path.join(module_dir, "CMakeLists.txt")
    with open(top, encoding="utf-8") as f:
        paths.update(PATH_RE.findall(strip_comments(f.read())))
    examples = os.path.join(module_dir, "examples", "CMakeLists.txt")
    if os.path.exists(examples):
        with open(examples, encoding="utf-8") as f:
            text = strip_comments(f.read())
        # SOURCE_FILES there are relative to examples/
        for block in re.findall(r"build_lib_example\s*\((.*?)\)", text, re.S):
            m = re.search(r"SOURCE_FILES\s+(.*?)(?:\s(?:HEADER_FILES|LIBRARIES_TO_LINK|NAME)\b|$)",
                          block, re.S)
            if m:
                for name in m.group(1).split():
                    if name.endswith(".cc"):
                        paths.add("examples/" + name)
    return paths


def waf_lists(module_dir):
    """Files listed by wscript (quoted module-relative paths)."""
    with open(os.path.join(module_dir, "wscript"), encoding="utf-8") as f:
        text = strip_comments(f.read())
    paths = set()
    for literal in re.findall(r"'([^'\n]*)'|\"([^\"\n]*)\"", text):
        value = literal[0] or literal[1]
        if PATH_RE.fullmatch(value):
            paths.add(value)
    return paths


def on_disk(module_dir):
    """Files that must be listed: model/helper sources and headers, examples/*.cc,
    test/rdma-*-test.cc."""
    found = set()
    for folder in ("model", "helper"):
        directory = os.path.join(module_dir, folder)
        if os.path.isdir(directory):
            for name in os.listdir(directory):
                if name.endswith((".cc", ".h")):
                    found.add(folder + "/" + name)
    examples_dir = os.path.join(module_dir, "examples")
    if os.path.isdir(examples_dir):
        for name in os.listdir(examples_dir):
            if name.endswith(".cc"):
                found.add("examples/" + name)
    test_dir = os.path.join(module_dir, "test")
    if os.path.isdir(test_dir):
        for name in os.listdir(test_dir):
            if re.fullmatch(r"rdma-.+-test\.cc", name):
                found.add("test/" + name)
    return found


def on_disk_helper_headers(module_dir):
    """The helper/*.h files of the module."""
    folder = os.path.join(module_dir, "helper")
    return [os.path.join(folder, n) for n in os.listdir(folder) if n.endswith(".h")]


def main(argv):
    module_dir = os.path.abspath(argv[1] if len(argv) > 1 else
                                 os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    errors = []

    cmake_paths = cmake_lists(module_dir)
    waf_paths = waf_lists(module_dir)
    cmake, cmake_other = categorize(cmake_paths)
    waf, _ = categorize(waf_paths)

    for category in CATEGORIES:
        if not cmake[category] and not waf[category]:
            errors.append("no %s listed in either build" % category)
        for path in sorted(cmake[category] - waf[category]):
            errors.append("%s: listed in CMakeLists.txt (%s) but missing from wscript"
                          % (path, category))
        for path in sorted(waf[category] - cmake[category]):
            errors.append("%s: listed in wscript (%s) but missing from CMakeLists.txt"
                          % (path, category))

    listed = cmake_paths | waf_paths
    for path in sorted(listed):
        if not os.path.isfile(os.path.join(module_dir, path)):
            errors.append("%s: listed in the build but does not exist" % path)

    for path in sorted(on_disk(module_dir) - listed):
        errors.append("%s: exists but is listed in neither CMakeLists.txt nor wscript" % path)
    # Model code never includes helpers (ns-3's layering: helpers wire models, not the reverse).
    helper_headers = {os.path.basename(p) for p in on_disk_helper_headers(module_dir)}
    for name in sorted(os.listdir(os.path.join(module_dir, "model"))):
        with open(os.path.join(module_dir, "model", name), encoding="utf-8") as f:
            for number, line in enumerate(f, 1):
                m = re.match(r'\s*#\s*include\s*"(?:ns3/)?([\w.-]+)"', line)
                if m and m.group(1) in helper_headers:
                    errors.append("model/%s:%d: includes the helper header %s"
                                  % (name, number, m.group(1)))

    if errors:
        for error in errors:
            print("check-build-lists: " + error, file=sys.stderr)
        print("check-build-lists: %d problem(s) in %s" % (len(errors), module_dir), file=sys.stderr)
        return 1
    counts = ", ".join("%d %s" % (len(cmake[c]), c) for c in CATEGORIES)
    extra = (" (+ CMake only: %s)" % ", ".join(sorted(cmake_other))) if cmake_other else ""
    print("check-build-lists: CMakeLists.txt and wscript agree: %s%s" % (counts, extra))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
