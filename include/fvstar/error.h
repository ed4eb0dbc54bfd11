/* SPDX-License-Identifier: MIT */
/* The one error convention of fvstar: functions return fv_err_t, FV_CALL
 * propagates, FV_CHECK raises with a message naming file, line or key. */
#ifndef FVSTAR_ERROR_H
#define FVSTAR_ERROR_H

#include <stddef.h>
#include <stdlib.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum fv_err {
	FV_OK = 0,
	FV_ERR_IO,       /* a file could not be opened, read or written */
	FV_ERR_FORMAT,   /* a file's contents break its format */
	FV_ERR_MESH,     /* the mesh is invalid (topology or geometry) */
	FV_ERR_ARG,      /* a bad argument, option or key */
	FV_ERR_MEM,      /* out of memory or over an index limit */
	FV_ERR_RUNTIME,  /* StarPU, CUDA or MPI failed */
	FV_ERR_NUMERIC   /* NaN, divergence */
} fv_err_t;

/* Records the message of a new error and returns code. The message is kept
 * per thread until the next fv_error(); fv_errmsg() returns it. */
fv_err_t fv_error(fv_err_t code, const char *src, int line, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 4, 5)))
#endif
	;
/* Appends "  (from src:line)" to the current message when FV_DEBUG_TRACE
 * is set in the environment; returns code. */
fv_err_t fv_error_trace(fv_err_t code, const char *src, int line);
const char *fv_errmsg(void);
const char *fv_errname(fv_err_t code);
void fv_error_clear(void);

#define FV_ERROR(code, ...) fv_error((code), __FILE__, __LINE__, __VA_ARGS__)

#define FV_CHECK(cond, code, ...)                                          \
	do {                                                               \
		if (!(cond))                                               \
			return fv_error((code), __FILE__, __LINE__, __VA_ARGS__); \
	} while (0)

#define FV_CALL(expr)                                                      \
	do {                                                               \
		fv_err_t fv_call_err_ = (expr);                            \
		if (fv_call_err_ != FV_OK)                                 \
			return fv_error_trace(fv_call_err_, __FILE__, __LINE__); \
	} while (0)

/* Like FV_CALL, but jumps to a cleanup label with err set. */
#define FV_CALL_GOTO(err, label, expr)                                     \
	do {                                                               \
		(err) = (expr);                                            \
		if ((err) != FV_OK) {                                      \
			fv_error_trace((err), __FILE__, __LINE__);         \
			goto label;                                        \
		}                                                          \
	} while (0)

/* Like FV_CHECK, but jumps to a cleanup label with err set. */
#define FV_CHECK_GOTO(err, label, cond, code, ...)                         \
	do {                                                               \
		if (!(cond)) {                                             \
			(err) = fv_error((code), __FILE__, __LINE__, __VA_ARGS__); \
			goto label;                                        \
		}                                                          \
	} while (0)

/* Allocation that raises FV_ERR_MEM naming what was being allocated. */
fv_err_t fv_malloc(void *pptr, size_t count, size_t size, const char *what);
fv_err_t fv_calloc(void *pptr, size_t count, size_t size, const char *what);
fv_err_t fv_realloc(void *pptr, size_t count, size_t size, const char *what);
#define FV_FREE(p) do { free(p); (p) = NULL; } while (0)

#ifdef __cplusplus
}
#endif
#endif
