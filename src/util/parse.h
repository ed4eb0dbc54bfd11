/* SPDX-License-Identifier: MIT */
/* A cursor over a text buffer for the mesh readers: tokens, integers and
 * reals with the line number kept for error messages. Never reads past the
 * end of the buffer, which need not be NUL-terminated. */
#ifndef FVSTAR_PARSE_H
#define FVSTAR_PARSE_H

#include <stddef.h>
#include <stdint.h>

#include "fvstar/error.h"

typedef struct fv_cursor {
	const char *p;      /* next character */
	const char *end;    /* one past the last character */
	long line;          /* 1-based line of p */
	const char *name;   /* file name for messages */
} fv_cursor_t;

void fv_cursor_init(fv_cursor_t *c, const char *buf, size_t len, const char *name);
/* Skips blanks (not newlines). */
void fv_cursor_skip_blanks(fv_cursor_t *c);
/* Skips blanks and newlines; returns 0 at the end of the buffer. */
int fv_cursor_skip_space(fv_cursor_t *c);
/* Moves to the start of the next line. */
void fv_cursor_next_line(fv_cursor_t *c);
/* True at the end of a line (or buffer), after blanks and a trailing
 * '%' comment (SU2) when comments is set. */
int fv_cursor_at_eol(fv_cursor_t *c);
/* The next whitespace-delimited token (across newlines); its length in *len.
 * Raises FV_ERR_FORMAT at the end of the buffer, naming what was expected. */
fv_err_t fv_cursor_token(fv_cursor_t *c, const char **tok, size_t *len, const char *what);
/* Integers and reals, across whitespace and newlines. what names the field
 * in the message ("number of nodes"). */
fv_err_t fv_cursor_long(fv_cursor_t *c, long long *v, const char *what);
fv_err_t fv_cursor_idx(fv_cursor_t *c, long long lo, long long hi, int32_t *v, const char *what);
fv_err_t fv_cursor_double(fv_cursor_t *c, double *v, const char *what);
/* Same, but only on the current line: a missing value is an error. */
fv_err_t fv_cursor_long_inline(fv_cursor_t *c, long long *v, const char *what);
fv_err_t fv_cursor_double_inline(fv_cursor_t *c, double *v, const char *what);
/* A count: an integer, refused with its line when negative or above max
 * (limit_why, if not NULL, says where the limit comes from). */
fv_err_t fv_cursor_count(fv_cursor_t *c, int inline_only, long long max, const char *limit_why, long long *v,
			 const char *what);
/* Coordinates: finite and at most FV_COORD_MAX in absolute value. Larger
 * ones are no length a mesh holds, and the areas and volumes computed from
 * them overflow (x^3 near 1e308) or keep no digit of the cell's size. */
#define FV_COORD_MAX 1e12
fv_err_t fv_cursor_coord(fv_cursor_t *c, int inline_only, double *v, const char *what);
/* The same check on a value read otherwise, the cursor naming the line. */
fv_err_t fv_check_coord(const fv_cursor_t *c, double x, const char *what);
/* "name:line: truncated: the file ends at line L, before what". */
fv_err_t fv_cursor_truncated(const fv_cursor_t *c, const char *what);
/* Does the rest of the current line start with word (after blanks)? */
int fv_cursor_match(fv_cursor_t *c, const char *word);

/* Length of the token at the cursor, at most 32: print it with "%.*s". */
int fv_cursor_shown_len(const fv_cursor_t *c);

/* An FV_ERR_FORMAT error "name:line: message". */
fv_err_t fv_cursor_error(const fv_cursor_t *c, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 2, 3)))
#endif
	;

/* Opens path for reading if it is a regular file; a directory, named pipe,
 * device or socket is refused at once, naming what it is (a FIFO never
 * blocks: it is opened with O_NONBLOCK and checked with fstat). The
 * descriptor (blocking again) in *fd; the size in *size if not NULL. */
fv_err_t fv_open_regular(const char *path, int *fd, long long *size);
/* Reads a whole regular file (fv_open_regular) into a malloc'd buffer
 * (NUL-terminated). */
fv_err_t fv_read_file(const char *path, char **buf, size_t *len);

#endif
