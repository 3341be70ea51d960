/* The C API from C: lint a module given as a string. */
#include <ptxlint/ptxlint.h>

#include <stdio.h>
#include <string.h>

int main(void) {
  const char *text = ".version 8.0\n.target sm_90a\n.address_size 64\n"
                     ".entry k()\n{\n\tret\n}\n";
  ptxlint_result *r = ptxlint_lint_string("c.ptx", text, strlen(text), NULL);
  if (!r) {
    printf("error: %s\n", ptxlint_last_error());
    return 1;
  }
  for (size_t i = 0; i < ptxlint_result_count(r); ++i)
    printf("c.ptx:%u:%u: [%s] %s\n", ptxlint_diag_line(r, i),
           ptxlint_diag_column(r, i), ptxlint_diag_code(r, i),
           ptxlint_diag_message(r, i));
  int ok = ptxlint_result_errors(r) == 1; /* the missing ';' */
  ptxlint_result_destroy(r);
  printf(ok ? "consumer_c: ok\n" : "consumer_c: unexpected result\n");
  return ok ? 0 : 1;
}
