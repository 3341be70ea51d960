#!/usr/bin/env python3
# A stand-in for ptxlint that never reports anything: seed-bugs.test runs the
# harness with it to show that "caught" comes from ptxlint's output.
import json
print(json.dumps({"version": 1, "diagnostics": [], "summary": {}}))
