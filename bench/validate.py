#!/usr/bin/env python3
"""The Python reference for `tasks validate`: the `jsonschema` package's Draft202012Validator against the project's
published schema, on the same file.

    python3 bench/validate.py SCHEMA.json ARCHIVE.json

json.load of the whole file, then every error is collected (iter_errors, as `tasks validate` reports every problem).
No format checker (the schema's patterns already check UUIDs and dates). Exit 0 when valid, 1 with the first errors.
Note what a schema cannot check that `tasks validate` does: unique ids, references that resolve, counts that agree.
"""
import json
import sys

from jsonschema import Draft202012Validator


def main(schema_path, archive_path):
    with open(schema_path, "rb") as f:
        schema = json.load(f)
    with open(archive_path, "rb") as f:
        document = json.load(f)
    validator = Draft202012Validator(schema)
    errors = list(validator.iter_errors(document))
    for error in errors[:10]:
        print(f"{'/'.join(map(str, error.absolute_path))}: {error.message[:200]}", file=sys.stderr)
    if errors:
        print(f"{len(errors)} errors", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: validate.py SCHEMA.json ARCHIVE.json")
    sys.exit(main(sys.argv[1], sys.argv[2]))
