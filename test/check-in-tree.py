#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Check what ns-3 reads from this module's files when it is built in an ns-3 source tree.

A standalone build (against an installed ns-3) never runs ns-3's own CMake code or its
test-runner, so two in-tree pitfalls are invisible there. This script fails, naming the
offending text, unless

  * the dependencies ns-3 finds in CMakeLists.txt are the modules build_lib() links against.
    ns-3 (3.36 and later, build-support/macros-and-definitions.cmake) reads the module's
    CMakeLists.txt as plain text, comments included, with the regular expression
    "{lib[^}]*[^obj]}", and treats every match as a module the module depends on: any stray
    match in a comment makes configure print "The CMakeLists.txt file for module ... was
    not found" and list a module that "cannot be built";
  * the ns-3 TestSuite and TestCase names in test/rdma-test-suite.cc contain none of the
    characters ns-3's TestCase::AddTestCase rejects (" / \\ | ?), which make test-runner print
    "Invalid test name".

Usage: check-in-tree.py [MODULE_DIR]   (default: the folder above this script)
Exit status 0 when clean, 1 otherwise.
"""

import os
import re
import sys

# ns-3.37 build-support/macros-and-definitions.cmake, macro get_cmakelists_contents: CMake's
# [^}] matches newlines too, as Python's does.
NS3_DEPENDENCY_RE = re.compile(r"{lib[^}]*[^obj]}")
# ns-3.37 src/core/model/test.cc, TestCase::AddTestCase
NS3_BAD_TEST_NAME_CHARS = '"/\\|?'


def scanned_dependencies(cmakelists):
    """The module names ns-3's textual scan finds in a CMakeLists.txt, in order."""
    names = []
    for match in NS3_DEPENDENCY_RE.findall(cmakelists):
        name = match.replace("{lib${name", "").replace("{lib", "").replace("}", "")
        names.append(name)
    return names


def linked_dependencies(cmakelists):
    """The lib<module> variables of build_lib's LIBRARIES_TO_LINK, without the comments."""
    code = "\n".join(line.split("#", 1)[0] for line in cmakelists.splitlines())
    match = re.search(r"LIBRARIES_TO_LINK\s+((?:\$\{lib[\w-]+\}\s*)+)", code)
    if not match:
        return []
    return re.findall(r"\$\{lib([\w-]+)\}", match.group(1))


def test_names(source):
    """(kind, name) of every TestSuite("...") and TestCase("...") construction."""
    names = []
    for kind, literal in re.findall(r"\b(TestSuite|TestCase)\s*\(\s*((?:\"(?:[^\"\\]|\\.)*\"\s*)+)",
                                    source):
        parts = re.findall(r"\"((?:[^\"\\]|\\.)*)\"", literal)
        names.append((kind, "".join(parts)))
    return names


def main(argv):
    module_dir = argv[1] if len(argv) > 1 else os.path.dirname(os.path.dirname(
        os.path.abspath(__file__)))
    errors = []

    with open(os.path.join(module_dir, "CMakeLists.txt"), encoding="utf-8") as f:
        cmakelists = f.read()
    scanned = scanned_dependencies(cmakelists)
    linked = linked_dependencies(cmakelists)
    if not linked:
        errors.append("CMakeLists.txt: no LIBRARIES_TO_LINK list of lib<module> variables found")
    for name in scanned:
        if name not in linked:
            errors.append("CMakeLists.txt: ns-3's dependency scan finds the module %r, which "
                          "build_lib does not link (LIBRARIES_TO_LINK: %s); reword the text"
                          % (name, ", ".join(linked)))

    suite_file = os.path.join(module_dir, "test", "rdma-test-suite.cc")
    with open(suite_file, encoding="utf-8") as f:
        names = test_names(f.read())
    if not names:
        errors.append("test/rdma-test-suite.cc: no TestSuite(\"...\") or TestCase(\"...\") found")
    for kind, name in names:
        bad = sorted(set(c for c in name if c in NS3_BAD_TEST_NAME_CHARS))
        if bad:
            errors.append("test/rdma-test-suite.cc: the %s name %r contains %s, which ns-3 "
                          "rejects as an invalid test name (not allowed: %s)"
                          % (kind, name, " ".join(repr(c) for c in bad),
                             " ".join(NS3_BAD_TEST_NAME_CHARS)))

    for error in errors:
        print(error, file=sys.stderr)
    if not errors:
        print("check-in-tree: ns-3 finds the dependencies %s and the test names %s"
              % (", ".join(scanned), ", ".join(repr(n) for _, n in names)))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
