#!/usr/bin/env python3
# json_schema.py SCHEMA FILE - validate the JSON document FILE against the
# JSON Schema SCHEMA with python3's jsonschema (the schema is checked
# first); exit 0 valid, 1 invalid (every error on stderr, with its path),
# 2 bad usage or a file that is not JSON.
import json
import sys

import jsonschema

if len(sys.argv) != 3:
    sys.stderr.write("usage: json_schema.py SCHEMA FILE\n")
    sys.exit(2)
with open(sys.argv[1]) as f:
    schema = json.load(f)
try:
    with open(sys.argv[2]) as f:
        doc = json.load(f)
except ValueError as e:
    sys.stderr.write("%s: not JSON: %s\n" % (sys.argv[2], e))
    sys.exit(2)
cls = jsonschema.validators.validator_for(schema)
cls.check_schema(schema)
errors = sorted(cls(schema).iter_errors(doc), key=lambda e: list(e.absolute_path))
for e in errors:
    sys.stderr.write("%s: %s: %s\n" % (sys.argv[2], "/".join(map(str, e.absolute_path)) or "(top)",
                                       e.message))
sys.exit(1 if errors else 0)
