"""Validate a SARIF log against the SARIF 2.1.0 JSON schema, then check the
properties GitHub code scanning relies on. Usage: validate_sarif.py SCHEMA LOG"""
import json
import sys

import jsonschema

schema = json.load(open(sys.argv[1]))
log = json.load(open(sys.argv[2]))
validator_cls = jsonschema.validators.validator_for(schema)
validator_cls.check_schema(schema)
errors = sorted(validator_cls(schema).iter_errors(log), key=lambda e: list(e.path))
for e in errors:
    print("schema error at /%s: %s" % ("/".join(map(str, e.path)), e.message))
if errors:
    sys.exit(1)

run = log["runs"][0]
rules = run["tool"]["driver"]["rules"]
ids = [r["id"] for r in rules]
assert len(ids) == len(set(ids)), "duplicate rule ids"
for res in run["results"]:
    assert res["ruleId"] in ids, res["ruleId"]
    assert ids[res["ruleIndex"]] == res["ruleId"], "ruleIndex does not match"
    region = res["locations"][0]["physicalLocation"]["region"]
    assert region["startColumn"] >= 1 and region["endColumn"] > region["startColumn"] \
        or region["endLine"] > region["startLine"], region
    assert res["partialFingerprints"], "no fingerprint"
print("valid SARIF 2.1.0: %d rules, %d results" % (len(rules), len(run["results"])))
