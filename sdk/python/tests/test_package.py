"""The package as shipped: version, standard library only, Python 3.9 syntax. No service needed."""

import ast
import os
import re
import sys
import unittest

import voicedraft

SRC = os.path.join(os.path.dirname(__file__), "..", "src", "voicedraft")
SOURCES = sorted(os.path.join(SRC, f) for f in os.listdir(SRC) if f.endswith(".py"))


class PackageTest(unittest.TestCase):
    def test_the_version_is_the_one_in_pyproject(self) -> None:
        with open(os.path.join(os.path.dirname(__file__), "..", "pyproject.toml"), encoding="utf-8") as f:
            declared = re.search(r'^version = "([^"]+)"', f.read(), re.MULTILINE)
        assert declared is not None
        self.assertEqual(voicedraft.__version__, declared.group(1))

    def test_only_the_standard_library_is_imported(self) -> None:
        if sys.version_info < (3, 10):
            self.skipTest("sys.stdlib_module_names needs Python 3.10")
        for path in SOURCES:
            with open(path, encoding="utf-8") as f:
                tree = ast.parse(f.read())
            for node in ast.walk(tree):
                if isinstance(node, ast.Import):
                    names = [a.name for a in node.names]
                elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                    names = [node.module]
                else:
                    continue
                for name in names:
                    self.assertIn(name.split(".")[0], sys.stdlib_module_names | {"__future__"}, f"{path}: {name}")

    def test_the_sources_parse_as_python_3_9(self) -> None:
        for path in SOURCES:
            with open(path, encoding="utf-8") as f:
                ast.parse(f.read(), filename=path, feature_version=(3, 9))

    def test_every_public_name_is_exported(self) -> None:
        for name in voicedraft.__all__:
            self.assertTrue(hasattr(voicedraft, name), name)
        self.assertTrue(issubclass(voicedraft.IdempotencyConflictError, voicedraft.ConflictError))
        self.assertTrue(issubclass(voicedraft.APITimeoutError, voicedraft.APIConnectionError))


if __name__ == "__main__":
    unittest.main()
