/*===- ptxlint.h - The C API of libptxlint ---------------------------------===*
 *
 * A small, stable C interface for generators written in other languages
 * (Python through ctypes, Rust through bindgen...). Every object is an opaque
 * handle that the caller destroys; no C++ exception ever crosses it: a failing
 * call returns NULL or a negative value and ptxlint_last_error() (per thread)
 * says why. Strings returned are owned by the handle they come from and live
 * as long as it does. Handles may be used from several threads as long as
 * one handle is not used by two threads at once.
 *
 *   ptxlint_options *o = ptxlint_options_create();
 *   ptxlint_options_set_target(o, "sm_90a", 0);
 *   ptxlint_result *r = ptxlint_lint_string("k.ptx", text, len, o);
 *   for (size_t i = 0; i < ptxlint_result_count(r); ++i)
 *     printf("%u:%u %s [%s]\n", ptxlint_diag_line(r, i),
 *            ptxlint_diag_column(r, i), ptxlint_diag_message(r, i),
 *            ptxlint_diag_code(r, i));
 *   ptxlint_result_destroy(r);
 *   ptxlint_options_destroy(o);
 *
 *===----------------------------------------------------------------------===*/
#ifndef PTXLINT_C_API_H
#define PTXLINT_C_API_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PTXLINT_C_API_VERSION 1

/* Severities, as in ptxlint::Severity. */
enum {
  PTXLINT_IGNORED = 0,
  PTXLINT_NOTE = 1,
  PTXLINT_REMARK = 2,
  PTXLINT_WARNING = 3,
  PTXLINT_ERROR = 4,
  PTXLINT_FATAL = 5
};

typedef struct ptxlint_options ptxlint_options;
typedef struct ptxlint_result ptxlint_result;

/* "0.1.0" */
const char *ptxlint_version(void);
/* The last failure of a call on this thread ("" when none). */
const char *ptxlint_last_error(void);

ptxlint_options *ptxlint_options_create(void);
void ptxlint_options_destroy(ptxlint_options *opts);
/* Target / PTX version for modules without .target / .version; override != 0
 * lets them replace the module's own directives. Return 0, or -1 (an
 * unknown target such as "sm_zz"). */
int ptxlint_options_set_target(ptxlint_options *opts, const char *target,
                               int override_module);
int ptxlint_options_set_ptx_version(ptxlint_options *opts, unsigned major,
                                    unsigned minor, int override_module);
/* Severity of one rule by code ("Q101") or name; PTXLINT_IGNORED disables. */
int ptxlint_options_set_severity(ptxlint_options *opts, const char *rule,
                                 int severity);

/* Which front end reads the input. PTXLINT_LANG_AUTO (the default): by the
 * name's extension, as the command does (".ptx", or a CUDA C++ one such as
 * ".cu", ".cuh", ".h", ".hpp": then the inline PTX of its asm statements is
 * linted); PTX for any other name. Return 0, or -1 for another value. */
enum { PTXLINT_LANG_AUTO = 0, PTXLINT_LANG_PTX = 1, PTXLINT_LANG_CUDA = 2 };
int ptxlint_options_set_language(ptxlint_options *opts, int language);

/* Lint a module (or, see ptxlint_options_set_language, a CUDA C++ source)
 * given as text (need not be NUL-terminated) or a file. opts may be NULL.
 * NULL on failure (unreadable file, a folder, out of memory). */
ptxlint_result *ptxlint_lint_string(const char *name, const char *text,
                                    size_t length, const ptxlint_options *opts);
ptxlint_result *ptxlint_lint_file(const char *path, const ptxlint_options *opts);

/* Rewrite a module for its target (see ptxlint/Lower.h); the rewritten text
 * is ptxlint_result_text(), the refusals are its diagnostics. */
ptxlint_result *ptxlint_lower_string(const char *name, const char *text,
                                     size_t length, const ptxlint_options *opts);

void ptxlint_result_destroy(ptxlint_result *result);
size_t ptxlint_result_count(const ptxlint_result *result);
unsigned ptxlint_result_errors(const ptxlint_result *result);
unsigned ptxlint_result_warnings(const ptxlint_result *result);
/* Clang-style text of every diagnostic (no colour). */
const char *ptxlint_result_render(ptxlint_result *result);
/* Lowering only: the rewritten module ("" for a lint result). */
const char *ptxlint_result_text(const ptxlint_result *result);

/* Diagnostic i (0 <= i < count); out of range: -1 / 0 / "". */
int ptxlint_diag_severity(const ptxlint_result *result, size_t i);
const char *ptxlint_diag_code(const ptxlint_result *result, size_t i);
const char *ptxlint_diag_message(const ptxlint_result *result, size_t i);
unsigned ptxlint_diag_line(const ptxlint_result *result, size_t i);   /* 1-based */
unsigned ptxlint_diag_column(const ptxlint_result *result, size_t i); /* 1-based, UTF-8 characters */
uint32_t ptxlint_diag_begin(const ptxlint_result *result, size_t i);  /* byte offset */
uint32_t ptxlint_diag_end(const ptxlint_result *result, size_t i);
size_t ptxlint_diag_note_count(const ptxlint_result *result, size_t i);
const char *ptxlint_diag_note(const ptxlint_result *result, size_t i, size_t n);
size_t ptxlint_diag_fix_count(const ptxlint_result *result, size_t i);
/* Fix-it n of diagnostic i: replace [begin, end) by the text. */
const char *ptxlint_diag_fix_text(const ptxlint_result *result, size_t i, size_t n);
uint32_t ptxlint_diag_fix_begin(const ptxlint_result *result, size_t i, size_t n);
uint32_t ptxlint_diag_fix_end(const ptxlint_result *result, size_t i, size_t n);

#ifdef __cplusplus
}
#endif
#endif
