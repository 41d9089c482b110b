#!/usr/bin/env python3
"""Checks stopsheetd's answers against its own OpenRPC document, with the `jsonschema` package
(an implementation independent of the daemon's), and the document against OpenRPC's meta-schema.

    validate.py (ANSWERS.jsonl | DIR)...

The meta-schema: OpenRPC's `meta-schema.json`, beside json-schema-tools' schema it refers to
(`json-schema-tools-meta-schema.json`), in the directory named by STOPSHEET_OPENRPC_SCHEMAS (CI's
`.ci/run` names the copy kept beside the clone); there a missing copy is a failure. Without that variable,
Tests/Fixtures/openrpc/ (where the repository keeps no copy; its README says where they come from),
and when they are not there the document is not checked against them and the summary says NOT
CHECKED; everything else is. ANSWERS: lines of `{"method": M, "result": R}`
(an answer to a call of M) or `{"notification": N, "params": P}`, as the tests' clients record
them (STOPSHEET_ANSWER_LOG); a directory stands for every *.jsonl file in it. The document is
what `rpc.discover` answered among them (every copy the same). Each result is checked against its method's result schema and each notification's params against
its `x-notifications` entry, every object schema of the document made strict first
(`additionalProperties: false`): a member the document does not declare fails. Prints one line per
failure and a summary; exits 1 on any failure, 2 when there is nothing to check. Answers of
methods the document does not have (a test server's own) are left out."""

import copy
import glob
import json
import os
import sys

import jsonschema
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT7

# OpenRPC's meta-schema refers to json-schema-tools' schema of a JSON Schema by its URL; the copy
# beside it stands in, so nothing is fetched.
TOOLS_URL = "https://meta.json-schema.tools"
SCHEMAS_VARIABLE = "STOPSHEET_OPENRPC_SCHEMAS"


def meta_schema_directory():
    """Where the two schemas are, and whether they must be there."""
    if os.environ.get(SCHEMAS_VARIABLE):
        return os.environ[SCHEMAS_VARIABLE], True
    return os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "Fixtures", "openrpc"), False


def strict(schema):
    """The schema with every object that lists its properties closed to others."""
    if isinstance(schema, dict):
        schema = {key: strict(value) for key, value in schema.items()}
        if schema.get("type") == "object" and "properties" in schema:
            schema.setdefault("additionalProperties", False)
        return schema
    if isinstance(schema, list):
        return [strict(value) for value in schema]
    return schema


def answer_files(paths):
    for path in paths:
        if os.path.isdir(path):
            yield from sorted(glob.glob(os.path.join(path, "*.jsonl")))
        else:
            yield path


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    directory, required = meta_schema_directory()
    meta_path = os.path.join(directory, "meta-schema.json")
    meta = json.load(open(meta_path)) if os.path.exists(meta_path) else None
    records = []
    for path in answer_files(argv[1:]):
        for number, line in enumerate(open(path), 1):
            records.append((f"{os.path.basename(path)}:{number}", json.loads(line)))
    documents = [record["result"] for _, record in records if record.get("method") == "rpc.discover"]
    if not documents:
        print("no rpc.discover answer among the answers: nothing to check against", file=sys.stderr)
        return 2
    document = documents[0]
    failures = [f"rpc.discover answered {len(documents)} documents that differ"] if any(d != document for d in documents) else []
    if meta is None and required:
        failures.append(f"document: no OpenRPC meta-schema at {meta_path} ({SCHEMAS_VARIABLE} names that directory)")

    if meta is not None:
        tools = Resource.from_contents(json.load(open(os.path.join(directory, "json-schema-tools-meta-schema.json"))),
                                       default_specification=DRAFT7)
        registry = Registry().with_resources([(TOOLS_URL, tools), (TOOLS_URL + "/", tools)])
        jsonschema.Draft7Validator.check_schema(meta)
        for error in jsonschema.Draft7Validator(meta, registry=registry).iter_errors(document):
            failures.append(f"document: {error.json_path}: {error.message}")

    components = strict(document.get("components", {}))
    def validator(schema):
        # The document's own components, so that `#/components/schemas/…` resolves.
        root = dict(strict(schema), components=components)
        jsonschema.Draft7Validator.check_schema(root)
        return jsonschema.Draft7Validator(root)

    results = {method["name"]: validator(method["result"]["schema"]) for method in document["methods"]}
    notifications = {entry["name"]: validator(entry["params"]) for entry in document.get("x-notifications", [])}

    checked, foreign = {}, 0
    for where, record in records:
        if "notification" in record:
            name, value, table = record["notification"], record["params"], notifications
        else:
            name, value, table = record["method"], record["result"], results
        if name == "rpc.discover":
            continue  # OpenRPC's own, checked against the meta-schema above
        if name not in table:
            if table is notifications:
                failures.append(f"{where}: notification {name} is not in the document")
            foreign += 1
            continue
        checked[name] = checked.get(name, 0) + 1
        for error in table[name].iter_errors(value):
            failures.append(f"{where}: {name}: {error.json_path}: {error.message}")

    for failure in failures[:50]:
        print(failure)
    counts = ", ".join(f"{name} {count}" for name, count in sorted(checked.items()))
    document_ok = not any(f.startswith("document") for f in failures)
    verdict = ('yes' if document_ok else 'no') if meta is not None else (
        "no (the copy is missing)" if required else f"NOT CHECKED (no copy at {meta_path}; set {SCHEMAS_VARIABLE})")
    print(f"document valid against the OpenRPC meta-schema: {verdict}; "
          f"{sum(checked.values())} answers and notifications checked ({counts}); {foreign} of other servers' methods left out; "
          f"{len(failures)} failures")
    if failures:
        return 1
    return 0 if checked else 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
