/* SPDX-License-Identifier: MIT */
/* Error recording and checked allocation (see include/fvstar/error.h). */
#include "fvstar/error.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/alloc.h"

#define FV_ERRMSG_MAX 1024

static _Thread_local char errmsg[FV_ERRMSG_MAX];

fv_err_t fv_error(fv_err_t code, const char *src, int line, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(errmsg, sizeof errmsg, fmt, ap);
	va_end(ap);
	if (getenv("FV_DEBUG_TRACE"))
		fv_error_trace(code, src, line);
	return code;
}

fv_err_t fv_error_trace(fv_err_t code, const char *src, int line)
{
	if (getenv("FV_DEBUG_TRACE")) {
		size_t n = strlen(errmsg);
		if (n + 1 < sizeof errmsg)
			snprintf(errmsg + n, sizeof errmsg - n, "\n  (from %s:%d)", src, line);
	}
	return code;
}

const char *fv_errmsg(void)
{
	return errmsg[0] ? errmsg : "no error message recorded";
}

void fv_error_clear(void)
{
	errmsg[0] = '\0';
}

const char *fv_errname(fv_err_t code)
{
	switch (code) {
	case FV_OK: return "ok";
	case FV_ERR_IO: return "i/o error";
	case FV_ERR_FORMAT: return "format error";
	case FV_ERR_MESH: return "invalid mesh";
	case FV_ERR_ARG: return "bad argument";
	case FV_ERR_MEM: return "out of memory";
	case FV_ERR_RUNTIME: return "runtime error";
	case FV_ERR_NUMERIC: return "numerical error";
	}
	return "unknown error";
}

static fv_err_t alloc_size(size_t count, size_t size, const char *what, size_t *bytes)
{
	if (size && count > SIZE_MAX / size)
		return FV_ERROR(FV_ERR_MEM, "%s: %zu x %zu bytes overflows", what, count, size);
	*bytes = count * size;
	return FV_OK;
}

fv_err_t fv_malloc(void *pptr, size_t count, size_t size, const char *what)
{
	size_t bytes = 0;
	void *p;
	FV_CALL(alloc_size(count, size, what, &bytes));
	fv_alloc_note(bytes, what);
	p = malloc(bytes ? bytes : 1);
	FV_CHECK(p, FV_ERR_MEM, "out of memory allocating %zu bytes for %s", bytes, what);
	*(void **)pptr = p;
	return FV_OK;
}

fv_err_t fv_calloc(void *pptr, size_t count, size_t size, const char *what)
{
	void *p;
	if (!size || count <= SIZE_MAX / size)
		fv_alloc_note(count * size, what);
	p = calloc(count ? count : 1, size ? size : 1);
	FV_CHECK(p, FV_ERR_MEM, "out of memory allocating %zu x %zu bytes for %s", count, size, what);
	*(void **)pptr = p;
	return FV_OK;
}

fv_err_t fv_realloc(void *pptr, size_t count, size_t size, const char *what)
{
	size_t bytes = 0;
	void *p;
	FV_CALL(alloc_size(count, size, what, &bytes));
	fv_alloc_note(bytes, what);
	p = realloc(*(void **)pptr, bytes ? bytes : 1);
	FV_CHECK(p, FV_ERR_MEM, "out of memory growing %s to %zu bytes", what, bytes);
	*(void **)pptr = p;
	return FV_OK;
}
