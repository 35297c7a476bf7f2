"""Every operation and parameter of the OpenAPI document has a counterpart in the client's OPERATIONS,
or is named here with why not. The document's table (voicedraft._document_operations) is generated
from the server's contracts by `npm run generate:clients`, so an endpoint or query parameter added
to the API fails this test (no service needed) until the client follows it or says why it does not."""

import re
import unittest
from typing import Dict, List, Mapping, Tuple

from voicedraft import OPERATIONS, Operation
from voicedraft._document_operations import DOCUMENT_OPERATIONS, DocumentOperation

NOT_IN_THIS_CLIENT: Dict[str, str] = {
    "createOpenAiTranscription": "OpenAI-compatible: call it with the openai package",
    "deleteAccount": "only the app's signed-in session may delete an account (API keys get 403)",
    "createInvitation": "only the app's signed-in session may invite someone (API keys get 403)",
    "createPairingCode": "only the app's signed-in session may pair a phone (API keys get 403)",
    "listSignedInDevices": "only the app's signed-in session may list its devices (API keys get 403)",
    "signOutDevice": "only the app's signed-in session may sign a device out (API keys get 403)",
}

#: (operationId, parameter): query parameters and headers the client does not send, and why.
PARAMETERS_NOT_SENT: Dict[Tuple[str, str], str] = {}


def client_name(operation_id: str) -> str:
    """The client's name of an operation: its operationId in snake_case (listDictionary -> list_dictionary)."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", operation_id).lower()


def missing_counterparts(document: Mapping[str, DocumentOperation], client: Mapping[str, Operation]) -> List[str]:
    """Every operation or parameter of the document the client neither has nor names as left out."""
    problems: List[str] = []
    for op_id, doc_op in document.items():
        op = client.get(client_name(op_id))
        if op is None:
            if op_id not in NOT_IN_THIS_CLIENT:
                problems.append(f"{op_id} ({doc_op.method} {doc_op.path}): no {client_name(op_id)} in OPERATIONS")
            continue
        if (op.method, op.path) != (doc_op.method, doc_op.path):
            problems.append(f"{op_id}: the client calls {op.method} {op.path}, the document has {doc_op.method} {doc_op.path}")
        sent = set(op.query) | {h.lower() for h in op.headers}
        for name in doc_op.query + doc_op.headers:
            if name not in sent and name.lower() not in sent and (op_id, name) not in PARAMETERS_NOT_SENT:
                problems.append(f"{op_id}: parameter {name} has no counterpart in the client")
        for name in doc_op.required_query:
            if name not in op.query:
                problems.append(f"{op_id}: required query {name} is not sent")
    return problems


class DocumentOperationsTest(unittest.TestCase):
    def test_every_operation_and_parameter_has_a_counterpart(self) -> None:
        self.assertEqual(missing_counterparts(DOCUMENT_OPERATIONS, OPERATIONS), [])

    def test_what_is_named_as_left_out_is_in_the_document_and_not_in_the_client(self) -> None:
        for op_id in NOT_IN_THIS_CLIENT:
            self.assertIn(op_id, DOCUMENT_OPERATIONS)
            self.assertNotIn(client_name(op_id), OPERATIONS)
        for op_id, name in PARAMETERS_NOT_SENT:
            doc_op = DOCUMENT_OPERATIONS[op_id]
            self.assertIn(name, doc_op.query + doc_op.headers)
            self.assertNotIn(name, OPERATIONS[client_name(op_id)].query)

    def test_the_check_notices_a_new_operation_parameter_or_path(self) -> None:
        listing = DOCUMENT_OPERATIONS["listDictionary"]
        added = dict(DOCUMENT_OPERATIONS, archiveNotes=DocumentOperation("POST", "/api/v1/archive"))
        self.assertRegex(" ".join(missing_counterparts(added, OPERATIONS)), "archiveNotes .*no archive_notes")
        with_param = dict(DOCUMENT_OPERATIONS, listDictionary=listing._replace(query=listing.query + ("sort",)))
        self.assertRegex(" ".join(missing_counterparts(with_param, OPERATIONS)), "listDictionary: parameter sort")
        moved = dict(DOCUMENT_OPERATIONS, listDictionary=listing._replace(path="/api/v1/dictionary/entries"))
        self.assertRegex(" ".join(missing_counterparts(moved, OPERATIONS)), "listDictionary: the client calls GET /api/v1/dictionary,")


if __name__ == "__main__":
    unittest.main()
