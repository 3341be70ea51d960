"""Load a JSON file as `doc` and print the value of a Python expression on it.
Usage: json_query.py FILE EXPR"""
import json
import sys

doc = json.load(open(sys.argv[1]))
print(eval(sys.argv[2], {"doc": doc}))
