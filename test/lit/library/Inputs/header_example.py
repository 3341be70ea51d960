#!/usr/bin/env python3
"""header_example.py HEADER: prints the usage example of the C API header's
opening comment (the lines indented under ' *   ') as a C program."""
import sys

lines = [l[5:] for l in open(sys.argv[1]) if l.startswith(" *   ")]
print('#include <stdio.h>\n#include "ptxlint/ptxlint.h"\n'
      'int main(void) {\n  const char *text = ".version 8.6\\n"; size_t len = 12;')
print("\n".join("  " + l.rstrip() for l in lines))
print("  return 0;\n}")
