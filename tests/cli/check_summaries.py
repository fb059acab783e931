#!/usr/bin/env python3
"""Validates ppl summaries against docs/summary.schema.json (JSON Schema draft 2020-12, Debian's
python3-jsonschema). A .jsonl file (a sweep's results) is checked line by line, every other file as one document.
Prints one line per file; exit 1 when any document fails, 2 on a usage error.
  check_summaries.py SCHEMA FILE...
"""
import json
import sys

import jsonschema


def main(argv):
    if len(argv) < 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    with open(argv[1]) as f:
        schema = json.load(f)
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    failed = 0
    for path in argv[2:]:
        with open(path) as f:
            if path.endswith(".jsonl"):
                docs = [(f"{path}:{n}", json.loads(line)) for n, line in enumerate(f, 1) if line.strip()]
            else:
                docs = [(path, json.load(f))]
        if not docs:
            print(f"FAIL {path}: no documents")
            failed += 1
        for where, doc in docs:
            errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.absolute_path))
            for e in errors[:5]:
                place = "/".join(str(p) for p in e.absolute_path) or "(top)"
                print(f"FAIL {where}: {place}: {e.message}")
            failed += bool(errors)
        if all(not list(validator.iter_errors(d)) for _, d in docs):
            kinds = sorted({d.get("job", "?") for _, d in docs})
            print(f"ok   {path}: {len(docs)} document(s), job {', '.join(kinds)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
