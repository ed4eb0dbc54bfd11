/* SPDX-License-Identifier: MIT */
/* The reader of wind-tunnel surface pressures in Tecplot ASCII point form
 * (the ONERA M6 file of AGARD AR-138 test 2308) and its CSV writer. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "fvstar/post.h"
#include "util/parse.h"

enum { COL_SECTION, COL_TAP, COL_X, COL_Z, COL_CP, N_COLS };
static const char *const col_names[N_COLS] = {"Section", "Tap", "X/L", "Z/L", "CP"};

typedef struct reader {
	const char *path;
	int line;
	int n_vars;
	int col[N_COLS];          /* file column of each variable */
	int *row_line;            /* line of each row of the current zone */
} reader_t;

static char *skip_blank(char *s)
{
	while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n')
		s++;
	return s;
}

/* "KEY" followed by blanks and '=' (case-insensitive); returns what follows. */
static char *keyword(char *s, const char *key)
{
	size_t n = strlen(key);
	if (strncasecmp(s, key, n) != 0)
		return NULL;
	s = skip_blank(s + n);
	return *s == '=' ? skip_blank(s + 1) : NULL;
}

static fv_err_t parse_variables(reader_t *r, char *s)
{
	int n = 0;
	for (int k = 0; k < N_COLS; k++)
		r->col[k] = -1;
	for (;;) {
		char *end;
		s = skip_blank(s);
		if (*s == ',')
			s = skip_blank(s + 1);
		if (!*s)
			break;
		FV_CHECK(*s == '"', FV_ERR_FORMAT, "%s:%d: VARIABLES: names must be quoted", r->path, r->line);
		end = strchr(s + 1, '"');
		FV_CHECK(end, FV_ERR_FORMAT, "%s:%d: VARIABLES: unterminated name", r->path, r->line);
		*end = '\0';
		int k = 0;
		while (k < N_COLS && strcasecmp(s + 1, col_names[k]) != 0)
			k++;
		FV_CHECK(k < N_COLS, FV_ERR_FORMAT,
			 "%s:%d: VARIABLES: unknown variable '%s' (expected Section, Tap, X/L, Z/L, CP)", r->path,
			 r->line, s + 1);
		FV_CHECK(r->col[k] < 0, FV_ERR_FORMAT, "%s:%d: VARIABLES: '%s' named twice", r->path, r->line, s + 1);
		r->col[k] = n++;
		s = end + 1;
	}
	for (int k = 0; k < N_COLS; k++)
		FV_CHECK(r->col[k] >= 0, FV_ERR_FORMAT, "%s:%d: VARIABLES: '%s' is missing", r->path, r->line,
			 col_names[k]);
	r->n_vars = n;
	return FV_OK;
}

/* ZONE T="title", I=n, F=POINT (any order; other keys are errors). */
static fv_err_t parse_zone(reader_t *r, char *s, fv_exp_zone_t *z)
{
	int have_i = 0;
	for (;;) {
		char *v;
		s = skip_blank(s);
		if (*s == ',')
			s = skip_blank(s + 1);
		if (!*s)
			break;
		if ((v = keyword(s, "T"))) {
			char *end;
			FV_CHECK(*v == '"' && (end = strchr(v + 1, '"')), FV_ERR_FORMAT,
				 "%s:%d: ZONE: T= needs a quoted title", r->path, r->line);
			*end = '\0';
			snprintf(z->title, sizeof z->title, "%s", v + 1);
			s = end + 1;
		} else if ((v = keyword(s, "I"))) {
			char *end;
			long n;
			errno = 0;
			n = strtol(v, &end, 10);
			FV_CHECK(end != v && errno == 0 && n > 0 && n < 1000000 &&
					 (*end == ',' || *end == ' ' || *end == '\t' || *end == '\r' || *end == '\n' || !*end),
				 FV_ERR_FORMAT, "%s:%d: ZONE: I= needs a positive count", r->path, r->line);
			z->n = (int)n;
			have_i = 1;
			s = end;
		} else if ((v = keyword(s, "F")) || (v = keyword(s, "DATAPACKING"))) {
			FV_CHECK(strncasecmp(v, "POINT", 5) == 0 && (isspace((unsigned char)v[5]) || v[5] == ',' || !v[5]),
				 FV_ERR_FORMAT, "%s:%d: ZONE: only F=POINT data are read", r->path, r->line);
			s = v + 5;
		} else {
			return FV_ERROR(FV_ERR_FORMAT, "%s:%d: ZONE: unexpected '%.20s' (T=, I=, F=POINT are read)", r->path,
					r->line, s);
		}
	}
	FV_CHECK(have_i, FV_ERR_FORMAT, "%s:%d: ZONE without I= count", r->path, r->line);
	return FV_OK;
}

/* One data row into z->pt[k]. */
static fv_err_t parse_row(reader_t *r, char *s, fv_exp_zone_t *z, int k)
{
	double v[64];
	int n = 0;
	for (;;) {
		char *end, save;
		size_t len;
		s = skip_blank(s);
		if (*s == ',')
			s = skip_blank(s + 1);
		if (!*s)
			break;
		len = strcspn(s, " \t\r\n,");
		FV_CHECK(n < r->n_vars, FV_ERR_FORMAT, "%s:%d: more than the %d columns of VARIABLES", r->path, r->line,
			 r->n_vars);
		save = s[len];
		s[len] = '\0';
		errno = 0;
		v[n] = strtod(s, &end);
		FV_CHECK(end != s && !*end && errno == 0 && isfinite(v[n]), FV_ERR_FORMAT,
			 "%s:%d: column %d: '%s' is not a number", r->path, r->line, n + 1, s);
		s[len] = save;
		s += len;
		n++;
	}
	FV_CHECK(n == r->n_vars, FV_ERR_FORMAT, "%s:%d: %d columns, expected %d (Section, Tap, X/L, Z/L, CP)", r->path,
		 r->line, n, r->n_vars);
	double sec = v[r->col[COL_SECTION]], tap = v[r->col[COL_TAP]];
	FV_CHECK(sec == floor(sec) && sec >= 0 && sec < 1e6, FV_ERR_FORMAT, "%s:%d: section %g is not a whole number",
		 r->path, r->line, sec);
	FV_CHECK(tap == floor(tap) && tap >= 1 && tap <= z->n, FV_ERR_FORMAT,
		 "%s:%d: tap %g is not a whole number in 1..%d (the zone's I)", r->path, r->line, tap, z->n);
	if (k == 0)
		z->section = (int)sec;
	FV_CHECK((int)sec == z->section, FV_ERR_FORMAT, "%s:%d: section %d in a zone of section %d", r->path, r->line,
		 (int)sec, z->section);
	z->pt[k].tap = (int)tap;
	z->pt[k].x_c = v[r->col[COL_X]];
	z->pt[k].z_c = v[r->col[COL_Z]];
	z->pt[k].cp = v[r->col[COL_CP]];
	r->row_line[k] = r->line;
	return FV_OK;
}

/* A complete zone: I rows, taps 1..I once each; the rows up to tap 1 are
 * the lower surface and hold taps 1..n_lower. */
static fv_err_t finish_zone(reader_t *r, fv_exp_zone_t *z, int rows)
{
	int n_lower = 0, *seen;
	FV_CHECK(rows == z->n, FV_ERR_FORMAT, "%s:%d: the zone of line %d ('%s') has I=%d but %d rows", r->path,
		 r->line, z->line, z->title, z->n, rows);
	/* taps are 1..I (parse_row): seen[tap] is the row that had it, + 1 */
	FV_CALL(fv_calloc(&seen, (size_t)z->n + 1, sizeof *seen, "zone taps"));
	for (int k = 0; k < z->n; k++) {
		int t = z->pt[k].tap;
		if (seen[t]) {
			int first = r->row_line[seen[t] - 1];
			free(seen);
			return FV_ERROR(FV_ERR_FORMAT, "%s:%d: tap %d repeats line %d", r->path, r->row_line[k], t, first);
		}
		seen[t] = k + 1;
		if (t == 1)
			n_lower = k + 1;
	}
	free(seen);
	for (int k = 0; k < z->n; k++) {
		z->pt[k].upper = k >= n_lower;
		FV_CHECK((z->pt[k].tap <= n_lower) == (k < n_lower), FV_ERR_FORMAT,
			 "%s:%d: tap %d is out of place: the zone lists lower taps %d..1 (TE to LE), then the upper "
			 "taps", r->path, r->row_line[k], z->pt[k].tap, n_lower);
	}
	z->n_lower = n_lower;
	z->n_upper = z->n - n_lower;
	return FV_OK;
}

fv_err_t fv_expdata_read(fv_expdata_t *e, const char *path)
{
	reader_t r;
	FILE *f;
	char *buf = NULL;
	size_t cap = 0;
	int rows = 0, cap_zones = 0;
	fv_exp_zone_t *z = NULL;
	fv_err_t err = FV_OK;

	memset(e, 0, sizeof *e);
	memset(&r, 0, sizeof r);
	r.path = path;
	{
		/* a regular file only: a named pipe would block the open */
		int fd;
		FV_CALL(fv_open_regular(path, &fd, NULL));
		f = fdopen(fd, "r");
		if (!f) {
			close(fd);
			return FV_ERROR(FV_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
		}
	}
	while (getline(&buf, &cap, f) >= 0) {
		char *s = skip_blank(buf), *v;
		size_t len = strlen(s);
		r.line++;
		while (len > 0 && (s[len - 1] == '\n' || s[len - 1] == '\r' || s[len - 1] == ' ' || s[len - 1] == '\t'))
			s[--len] = '\0';
		if (!*s || *s == '#')
			continue;
		if (keyword(s, "TITLE"))
			continue;
		if ((v = keyword(s, "VARIABLES"))) {
			if (e->n_zones > 0 || r.n_vars > 0) {
				err = FV_ERROR(FV_ERR_FORMAT, "%s:%d: VARIABLES after %s", path, r.line,
					       r.n_vars > 0 ? "VARIABLES" : "a ZONE");
				goto fail;
			}
			FV_CALL_GOTO(err, fail, parse_variables(&r, v));
			continue;
		}
		if (strncasecmp(s, "ZONE", 4) == 0 && (isspace((unsigned char)s[4]) || !s[4])) {
			if (r.n_vars == 0) {
				err = FV_ERROR(FV_ERR_FORMAT, "%s:%d: ZONE before VARIABLES", path, r.line);
				goto fail;
			}
			if (z)
				FV_CALL_GOTO(err, fail, finish_zone(&r, z, rows));
			if (e->n_zones == cap_zones) {
				cap_zones = cap_zones ? 2 * cap_zones : 8;
				FV_CALL_GOTO(err, fail, fv_realloc(&e->zone, (size_t)cap_zones, sizeof *e->zone, "zones"));
			}
			z = &e->zone[e->n_zones++];
			memset(z, 0, sizeof *z);
			z->line = r.line;
			FV_CALL_GOTO(err, fail, parse_zone(&r, s + 4, z));
			FV_CALL_GOTO(err, fail, fv_calloc(&z->pt, (size_t)z->n, sizeof *z->pt, "zone points"));
			free(r.row_line);
			r.row_line = NULL;
			FV_CALL_GOTO(err, fail, fv_calloc(&r.row_line, (size_t)z->n, sizeof *r.row_line, "zone rows"));
			rows = 0;
			continue;
		}
		if (!isdigit((unsigned char)*s) && *s != '-' && *s != '+' && *s != '.') {
			err = FV_ERROR(FV_ERR_FORMAT, "%s:%d: unexpected '%.20s' (TITLE, VARIABLES, ZONE or numbers)", path,
				       r.line, s);
			goto fail;
		}
		if (!z) {
			err = FV_ERROR(FV_ERR_FORMAT, "%s:%d: data before the first ZONE", path, r.line);
			goto fail;
		}
		if (rows == z->n) {
			err = FV_ERROR(FV_ERR_FORMAT, "%s:%d: more rows than the I=%d of the zone of line %d ('%s')", path,
				       r.line, z->n, z->line, z->title);
			goto fail;
		}
		FV_CALL_GOTO(err, fail, parse_row(&r, s, z, rows));
		rows++;
	}
	if (ferror(f)) {
		err = FV_ERROR(FV_ERR_IO, "%s:%d: read failed: %s", path, r.line, strerror(errno));
		goto fail;
	}
	r.line++; /* the end of the file */
	if (!z) {
		err = FV_ERROR(FV_ERR_FORMAT, "%s:%d: no ZONE in the file", path, r.line);
		goto fail;
	}
	FV_CALL_GOTO(err, fail, finish_zone(&r, z, rows));
	fclose(f);
	free(buf);
	free(r.row_line);
	return FV_OK;
fail:
	fclose(f);
	free(buf);
	free(r.row_line);
	fv_expdata_free(e);
	return err;
}

void fv_expdata_free(fv_expdata_t *e)
{
	for (int k = 0; k < e->n_zones; k++)
		free(e->zone[k].pt);
	free(e->zone);
	memset(e, 0, sizeof *e);
}

const fv_exp_zone_t *fv_expdata_section(const fv_expdata_t *e, int section)
{
	for (int k = 0; k < e->n_zones; k++)
		if (e->zone[k].section == section)
			return &e->zone[k];
	return NULL;
}

static int cmp_exp(const void *a, const void *b)
{
	const fv_exp_point_t *p = a, *q = b;
	if (p->upper != q->upper)
		return q->upper - p->upper;
	return (p->x_c > q->x_c) - (p->x_c < q->x_c);
}

fv_err_t fv_exp_zone_write_csv(const fv_exp_zone_t *z, const char *path)
{
	fv_exp_point_t *pt;
	FILE *f;
	int bad;
	FV_CALL(fv_malloc(&pt, (size_t)z->n + 1, sizeof *pt, "experimental points"));
	memcpy(pt, z->pt, (size_t)z->n * sizeof *pt);
	qsort(pt, (size_t)z->n, sizeof *pt, cmp_exp);
	f = fopen(path, "w");
	if (!f) {
		free(pt);
		return FV_ERROR(FV_ERR_IO, "%s: cannot write: %s", path, strerror(errno));
	}
	fprintf(f, "x_over_c,z_over_c,cp,surface,tap\n");
	for (int k = 0; k < z->n; k++)
		fprintf(f, "%.10g,%.10g,%.10g,%s,%d\n", pt[k].x_c, pt[k].z_c, pt[k].cp, pt[k].upper ? "upper" : "lower",
			pt[k].tap);
	free(pt);
	bad = ferror(f);
	bad |= fclose(f) != 0;
	FV_CHECK(!bad, FV_ERR_IO, "%s: write failed", path);
	return FV_OK;
}
