"""The client's OPERATIONS table against the running service's GET /api/v1/openapi.json."""

import dataclasses
import json
import re
import unittest
import urllib.request
from typing import Any, Dict, List, Optional

from voicedraft import OPERATIONS, Operation

from ._service import get_service

Schema = Dict[str, Any]


def _deref(doc: Schema, schema: Optional[Schema]) -> Optional[Schema]:
    hops = 0
    while schema is not None and "$ref" in schema and hops < 20:
        node: Any = doc
        for key in schema["$ref"].lstrip("#/").split("/"):
            node = node.get(key) if isinstance(node, dict) else None
        schema, hops = node, hops + 1
    return schema


def _variants(doc: Schema, schema: Optional[Schema]) -> List[Schema]:
    resolved = _deref(doc, schema)
    if resolved is None:
        return []
    branches = resolved.get("anyOf", []) + resolved.get("oneOf", []) + resolved.get("allOf", [])
    return [resolved] + [v for b in branches for v in _variants(doc, b)]


def _field(doc: Schema, schema: Optional[Schema], dotted: str) -> Optional[Schema]:
    current = schema
    for step in dotted.split("."):
        name = step[:-2] if step.endswith("[]") else step
        current = next((s["properties"][name] for s in _variants(doc, current) if name in s.get("properties", {})), None)
        if current is not None and step.endswith("[]"):
            current = next((s["items"] for s in _variants(doc, current) if "items" in s), None)
        if current is None:
            return None
    return current


def _required(doc: Schema, schema: Optional[Schema]) -> List[str]:
    return [r for s in _variants(doc, schema) for r in s.get("required", [])]


def disagreements(doc: Schema, name: str, op: Operation) -> List[str]:
    """Every way one row of OPERATIONS disagrees with the document (empty: in sync)."""
    where = f"{name} ({op.method} {op.path})"
    operation = doc.get("paths", {}).get(op.path, {}).get(op.method.lower())
    if operation is None:
        return [f"{where}: the service documents no such operation"]
    problems = []
    parameters = operation.get("parameters", [])

    def params(kind: str) -> List[Schema]:
        return [p for p in parameters if p.get("in") == kind]

    path_names = re.findall(r"\{(\w+)\}", op.path)
    problems += [f"{where}: path parameter {p['name']} is not filled" for p in params("path") if p["name"] not in path_names]
    documented_query = [p["name"] for p in params("query")]
    problems += [f"{where}: query {q} is not documented" for q in op.query if q not in documented_query]
    problems += [
        f"{where}: required query {p['name']} is not sent" for p in params("query") if p.get("required") and p["name"] not in op.query
    ]
    documented_headers = [p["name"].lower() for p in params("header")]
    problems += [f"{where}: header {h} is not documented" for h in op.headers if h.lower() not in documented_headers]

    media_type = "multipart/form-data" if op.multipart else "application/json"
    body_schema = operation.get("requestBody", {}).get("content", {}).get(media_type, {}).get("schema")
    if op.body:
        if body_schema is None:
            problems.append(f"{where}: no {media_type} request body is documented")
        else:
            problems += [f"{where}: request field {f} is not documented" for f in op.body if _field(doc, body_schema, f) is None]
            def sent(r: str) -> bool:
                return any(f == r or f.startswith(f"{r}.") or f.startswith(f"{r}[]") for f in op.body)

            problems += [f"{where}: required request field {r} is not sent" for r in _required(doc, body_schema) if not sent(r)]
    elif op.raw_body:
        binary = [t for t, c in operation.get("requestBody", {}).get("content", {}).items() if c.get("schema", {}).get("format") == "binary"]
        if not binary:
            problems.append(f"{where}: the client sends raw bytes, the document has no binary request body")
    elif operation.get("requestBody", {}).get("required"):
        problems.append(f"{where}: the service requires a request body the client does not send")

    successes = sorted(s for s in operation.get("responses", {}) if re.fullmatch(r"2\d\d", s))
    response = operation["responses"][successes[0]] if successes else {}
    response_schema = response.get("content", {}).get("application/json", {}).get("schema")
    if response_schema is None:
        # A binary answer (a recording, the export) or none (204): the client reads no JSON fields.
        if op.response:
            problems.append(f"{where}: no JSON success response is documented")
    else:
        problems += [f"{where}: response field {f} is not documented" for f in op.response if _field(doc, response_schema, f) is None]
    return problems


class OpenApiSyncTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        with urllib.request.urlopen(f"{get_service().base_url}/api/v1/openapi.json", timeout=30) as res:
            cls.doc = json.load(res)

    def test_every_operation_agrees_with_the_document(self) -> None:
        for name, op in OPERATIONS.items():
            with self.subTest(operation=name):
                self.assertEqual(disagreements(self.doc, name, op), [])

    def test_the_check_notices_wrong_path_method_query_and_fields(self) -> None:
        listing = OPERATIONS["list_dictionary"]
        add = OPERATIONS["add_dictionary_entry"]
        replace = dataclasses.replace
        self.assertEqual(len(disagreements(self.doc, "x", replace(listing, path="/api/v1/dictionaries"))), 1)
        self.assertEqual(len(disagreements(self.doc, "x", replace(listing, method="POST"))), 1)
        self.assertRegex(" ".join(disagreements(self.doc, "x", replace(listing, query=("limit", "page")))), "query page")
        self.assertRegex(
            " ".join(disagreements(self.doc, "x", replace(listing, response=("entries[].misspeling",)))), r"entries\[\]\.misspeling"
        )
        self.assertRegex(" ".join(disagreements(self.doc, "x", replace(add, body=("misspelling", "correct")))), r"request field correct\b")
        self.assertRegex(" ".join(disagreements(self.doc, "x", replace(add, body=("misspelling",)))), "required request field correct_spelling")
        self.assertRegex(
            " ".join(disagreements(self.doc, "x", replace(OPERATIONS["delete_dictionary_entry"], query=()))), "required query misspelling"
        )


if __name__ == "__main__":
    unittest.main()

