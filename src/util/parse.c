/* SPDX-License-Identifier: MIT */
/* Text cursor for the mesh readers (see parse.h). Hand-written number
 * parsing: strtod needs a NUL-terminated string and is slow on 10^8 tokens. */
#include "util/parse.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void fv_cursor_init(fv_cursor_t *c, const char *buf, size_t len, const char *name)
{
	c->p = buf;
	c->end = buf + len;
	c->line = 1;
	c->name = name ? name : "(buffer)";
}

fv_err_t fv_cursor_error(const fv_cursor_t *c, const char *fmt, ...)
{
	char msg[768];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	return fv_error(FV_ERR_FORMAT, __FILE__, __LINE__, "%s:%ld: %s", c->name, c->line, msg);
}

fv_err_t fv_cursor_truncated(const fv_cursor_t *c, const char *what)
{
	fv_cursor_t at = *c;
	/* at the end after a final newline, the line reached is the one
	 * before (a line > 1 has a newline before the end) */
	if (at.p >= at.end && at.line > 1 && at.end[-1] == '\n')
		at.line--;
	return fv_cursor_error(&at, "truncated: the file ends at line %ld, before %s", at.line, what);
}

static int is_blank(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\f' || ch == '\v';
}

int fv_cursor_shown_len(const fv_cursor_t *c)
{
	int n = 0;
	while (c->p + n < c->end && n < 32 && !is_blank(c->p[n]) && c->p[n] != '\n')
		n++;
	return n;
}

void fv_cursor_skip_blanks(fv_cursor_t *c)
{
	while (c->p < c->end && is_blank(*c->p))
		c->p++;
}

int fv_cursor_skip_space(fv_cursor_t *c)
{
	while (c->p < c->end) {
		if (*c->p == '\n')
			c->line++;
		else if (!is_blank(*c->p))
			return 1;
		c->p++;
	}
	return 0;
}

void fv_cursor_next_line(fv_cursor_t *c)
{
	const char *nl = memchr(c->p, '\n', (size_t)(c->end - c->p));
	if (nl) {
		c->p = nl + 1;
		c->line++;
	} else {
		c->p = c->end;
	}
}

int fv_cursor_at_eol(fv_cursor_t *c)
{
	fv_cursor_skip_blanks(c);
	return c->p >= c->end || *c->p == '\n' || *c->p == '%';
}

fv_err_t fv_cursor_token(fv_cursor_t *c, const char **tok, size_t *len, const char *what)
{
	const char *s;
	if (!fv_cursor_skip_space(c))
		return fv_cursor_truncated(c, what);
	s = c->p;
	while (c->p < c->end && !is_blank(*c->p) && *c->p != '\n')
		c->p++;
	*tok = s;
	*len = (size_t)(c->p - s);
	return FV_OK;
}

/* Parses an integer at c->p; the token must end at a blank, newline or
 * the end of the buffer. */
static fv_err_t parse_long(fv_cursor_t *c, long long *v, const char *what)
{
	const char *s = c->p;
	int neg = 0;
	unsigned long long x = 0;
	if (s < c->end && (*s == '-' || *s == '+'))
		neg = *s++ == '-';
	if (s >= c->end || *s < '0' || *s > '9')
		return fv_cursor_error(c, "expected an integer for %s, found '%.*s'", what,
				       fv_cursor_shown_len(c), c->p);
	while (s < c->end && *s >= '0' && *s <= '9') {
		if (x > (unsigned long long)INT64_MAX / 10 ||
		    x * 10 + (unsigned)(*s - '0') > (unsigned long long)INT64_MAX)
			return fv_cursor_error(c, "%s %.*s is beyond the limit of a 64-bit integer (%lld)", what,
					       fv_cursor_shown_len(c), c->p, (long long)INT64_MAX);
		x = x * 10 + (unsigned)(*s++ - '0');
	}
	if (s < c->end && !is_blank(*s) && *s != '\n')
		return fv_cursor_error(c, "expected an integer for %s, found trailing '%c'", what, *s);
	c->p = s;
	*v = neg ? -(long long)x : (long long)x;
	return FV_OK;
}

static const double pow10_tab[] = {
	1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

/* Parses a real. Fast path: up to 19 significant digits and a small
 * exponent, exact within one rounding; otherwise strtod on a copy. */
static fv_err_t parse_double(fv_cursor_t *c, double *v, const char *what)
{
	const char *s = c->p, *start = c->p;
	int neg = 0, ndig = 0, exp10 = 0, any = 0;
	unsigned long long mant = 0;
	if (s < c->end && (*s == '-' || *s == '+'))
		neg = *s++ == '-';
	while (s < c->end && *s >= '0' && *s <= '9') {
		any = 1;
		if (ndig < 19) {
			mant = mant * 10 + (unsigned)(*s - '0');
			if (mant)
				ndig++;
		} else {
			exp10++;
		}
		s++;
	}
	if (s < c->end && *s == '.') {
		s++;
		while (s < c->end && *s >= '0' && *s <= '9') {
			any = 1;
			if (ndig < 19) {
				mant = mant * 10 + (unsigned)(*s - '0');
				if (mant)
					ndig++;
				exp10--;
			}
			s++;
		}
	}
	if (any && s < c->end && (*s == 'e' || *s == 'E' || *s == 'd' || *s == 'D')) {
		int eneg = 0, e = 0, edig = 0;
		s++;
		if (s < c->end && (*s == '-' || *s == '+'))
			eneg = *s++ == '-';
		while (s < c->end && *s >= '0' && *s <= '9') {
			if (e < 100000)
				e = e * 10 + (*s - '0');
			s++;
			edig++;
		}
		if (!edig)
			any = 0;
		exp10 += eneg ? -e : e;
	}
	if (!any || (s < c->end && !is_blank(*s) && *s != '\n')) {
		/* nan, inf, or garbage: let strtod decide on a bounded copy */
		char buf[64];
		size_t n = 0;
		char *endp;
		while (start + n < c->end && n < sizeof buf - 1 && !is_blank(start[n]) && start[n] != '\n')
			n++;
		memcpy(buf, start, n);
		buf[n] = '\0';
		errno = 0;
		*v = strtod(buf, &endp);
		if (n == 0 || *endp != '\0')
			return fv_cursor_error(c, "expected a real number for %s, found '%s'", what, buf);
		if (!isfinite(*v))
			return fv_cursor_error(c, "%s is not finite ('%s')", what, buf);
		c->p = start + n;
		return FV_OK;
	}
	if (mant == 0) {
		*v = neg ? -0.0 : 0.0;
	} else if (exp10 >= -22 && exp10 <= 22 && mant < (1ULL << 53)) {
		double x = (double)mant;
		x = exp10 < 0 ? x / pow10_tab[-exp10] : x * pow10_tab[exp10];
		*v = neg ? -x : x;
	} else {
		char buf[64];
		size_t n = (size_t)(s - start);
		if (n >= sizeof buf)
			n = sizeof buf - 1;
		memcpy(buf, start, n);
		buf[n] = '\0';
		for (size_t i = 0; i < n; i++)
			if (buf[i] == 'd' || buf[i] == 'D')
				buf[i] = 'e';
		*v = strtod(buf, NULL);
		if (!isfinite(*v))
			return fv_cursor_error(c, "%s is not finite ('%s')", what, buf);
	}
	c->p = s;
	return FV_OK;
}

fv_err_t fv_cursor_long(fv_cursor_t *c, long long *v, const char *what)
{
	if (!fv_cursor_skip_space(c))
		return fv_cursor_truncated(c, what);
	return parse_long(c, v, what);
}

fv_err_t fv_cursor_idx(fv_cursor_t *c, long long lo, long long hi, int32_t *v, const char *what)
{
	long long x;
	FV_CALL(fv_cursor_long(c, &x, what));
	if (x < lo || x > hi)
		return fv_cursor_error(c, "%s %lld out of range [%lld, %lld]", what, x, lo, hi);
	*v = (int32_t)x;
	return FV_OK;
}

fv_err_t fv_cursor_double(fv_cursor_t *c, double *v, const char *what)
{
	if (!fv_cursor_skip_space(c))
		return fv_cursor_truncated(c, what);
	return parse_double(c, v, what);
}

/* A record's line ends before what: truncated when nothing but blank
 * space follows to the end of the file. */
static fv_err_t line_ends(const fv_cursor_t *c, const char *what)
{
	fv_cursor_t look = *c;
	if (look.p < look.end && *look.p == '%')
		return fv_cursor_error(c, "line ends before %s", what);
	if (!fv_cursor_skip_space(&look))
		return fv_cursor_truncated(&look, what);
	return fv_cursor_error(c, "line ends before %s", what);
}

fv_err_t fv_cursor_long_inline(fv_cursor_t *c, long long *v, const char *what)
{
	if (fv_cursor_at_eol(c))
		return line_ends(c, what);
	return parse_long(c, v, what);
}

fv_err_t fv_cursor_double_inline(fv_cursor_t *c, double *v, const char *what)
{
	if (fv_cursor_at_eol(c))
		return line_ends(c, what);
	return parse_double(c, v, what);
}

fv_err_t fv_cursor_count(fv_cursor_t *c, int inline_only, long long max, const char *limit_why, long long *v,
			 const char *what)
{
	FV_CALL(inline_only ? fv_cursor_long_inline(c, v, what) : fv_cursor_long(c, v, what));
	if (*v < 0)
		return fv_cursor_error(c, "%s %lld is negative (a count is 0 or more)", what, *v);
	if (*v > max)
		return fv_cursor_error(c, "%s %lld is beyond the limit of %lld%s%s%s", what, *v, max,
				       limit_why ? " (" : "", limit_why ? limit_why : "", limit_why ? ")" : "");
	return FV_OK;
}

fv_err_t fv_check_coord(const fv_cursor_t *c, double x, const char *what)
{
	if (!(fabs(x) <= FV_COORD_MAX))
		return fv_cursor_error(c, "%s %g is beyond the limit of %g in absolute value (areas and volumes "
				       "computed from it would overflow or lose every digit; scale the mesh)",
				       what, x, FV_COORD_MAX);
	return FV_OK;
}

fv_err_t fv_cursor_coord(fv_cursor_t *c, int inline_only, double *v, const char *what)
{
	FV_CALL(inline_only ? fv_cursor_double_inline(c, v, what) : fv_cursor_double(c, v, what));
	return fv_check_coord(c, *v, what);
}

int fv_cursor_match(fv_cursor_t *c, const char *word)
{
	size_t n = strlen(word);
	fv_cursor_skip_blanks(c);
	return (size_t)(c->end - c->p) >= n && memcmp(c->p, word, n) == 0;
}

/* What a path is when it is not a regular file, for the message. */
static const char *file_kind(mode_t mode)
{
	if (S_ISDIR(mode))
		return "a directory";
	if (S_ISFIFO(mode))
		return "a named pipe (FIFO)";
	if (S_ISCHR(mode))
		return "a character device";
	if (S_ISBLK(mode))
		return "a block device";
	if (S_ISSOCK(mode))
		return "a socket";
	return "not a regular file";
}

fv_err_t fv_open_regular(const char *path, int *fd_out, long long *size)
{
	struct stat st;
	int fd;
	/* O_NONBLOCK: opening a FIFO for reading would otherwise wait for a
	 * writer, forever; the type is known only once it is open (a stat()
	 * first would race with a rename) */
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	FV_CHECK(fd >= 0, FV_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
	if (fstat(fd, &st) != 0) {
		int e = errno;
		close(fd);
		return FV_ERROR(FV_ERR_IO, "%s: cannot read: %s", path, strerror(e));
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return FV_ERROR(FV_ERR_IO, "%s: is %s, not a regular file: fvstar reads its inputs from files "
				"(save the data into a file and give its path)", path, file_kind(st.st_mode));
	}
	/* back to blocking reads, which regular files ignore anyway */
	(void)fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	*fd_out = fd;
	if (size)
		*size = (long long)st.st_size;
	return FV_OK;
}

fv_err_t fv_read_file(const char *path, char **buf, size_t *len)
{
	long long size;
	int fd;
	char *b;
	size_t n = 0;
	FV_CALL(fv_open_regular(path, &fd, &size));
	if (fv_malloc(&b, (size_t)size + 1, 1, path) != FV_OK) {
		close(fd);
		return FV_ERR_MEM;
	}
	while (n < (size_t)size) {
		ssize_t r = read(fd, b + n, (size_t)size - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			int e = r < 0 ? errno : 0;
			close(fd);
			free(b);
			return FV_ERROR(FV_ERR_IO, "%s: read error (%zu of %lld bytes)%s%s", path, n, size,
					e ? ": " : "", e ? strerror(e) : "");
		}
		n += (size_t)r;
	}
	close(fd);
	b[n] = '\0';
	*buf = b;
	*len = n;
	return FV_OK;
}
