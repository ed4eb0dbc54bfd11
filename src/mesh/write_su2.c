/* SPDX-License-Identifier: MIT */
/* SU2 native ASCII mesh writer, with numbers formatted by hand for speed,
 * and fv_mesh_write, which picks the writer from the file extension. */
#include "fvstar/mesh.h"
#include "mesh/vtu_internal.h"
#include "util/tmpname.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Output goes through one large buffer written with fwrite: stdio's
 * per-call locking and format parsing cost more than the disk for 10^8
 * numbers. A line is formatted only when OUT_LINE_MAX bytes are free. */
#define OUT_CHUNK ((size_t)8 << 20)
#define OUT_LINE_MAX 256

typedef struct su2_out {
	FILE *f;
	const char *path;
	char *tmp;        /* path.tmp.PID.N, renamed to path once complete */
	char *buf;
	size_t len;
} su2_out_t;

static fv_err_t out_open(su2_out_t *o, const char *path)
{
	fv_err_t err;
	memset(o, 0, sizeof *o);
	o->path = path;
	FV_CALL(fv_malloc(&o->buf, OUT_CHUNK, 1, "output buffer"));
	err = fv_tmp_open(path, "wb", &o->tmp, &o->f);
	if (err != FV_OK) {
		FV_FREE(o->buf);
		return err;
	}
	/* our buffer already batches the writes; a second copy would only cost */
	setvbuf(o->f, NULL, _IONBF, 0);
	return FV_OK;
}

static fv_err_t out_flush(su2_out_t *o)
{
	if (o->len && fwrite(o->buf, 1, o->len, o->f) != o->len) {
		int e = errno ? errno : EIO;
		return FV_ERROR(FV_ERR_IO, "%s: write failed: %s", o->path, strerror(e));
	}
	o->len = 0;
	return FV_OK;
}

/* Makes room for one line; returns where to format it. */
static inline fv_err_t out_room(su2_out_t *o, char **p)
{
	if (o->len + OUT_LINE_MAX > OUT_CHUNK)
		FV_CALL(out_flush(o));
	*p = o->buf + o->len;
	return FV_OK;
}

static inline void out_done(su2_out_t *o, char *end)
{
	o->len = (size_t)(end - o->buf);
}

/* Completes the file (rename over path) when err is FV_OK; otherwise, or
 * when completing fails, removes the temporary file so that nothing
 * partial is ever left under either name. */
static fv_err_t out_close(su2_out_t *o, fv_err_t err)
{
	if (err == FV_OK)
		err = out_flush(o);
	err = fv_tmp_close(o->f, o->tmp, o->path, err);
	o->tmp = NULL;
	FV_FREE(o->buf);
	return err;
}

static inline char *put_str(char *p, const char *s)
{
	size_t n = strlen(s);
	memcpy(p, s, n);
	return p + n;
}

static const char digit_pairs[201] =
	"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
	"8081828384858687888990919293949596979899";

static inline int n_digits(uint64_t v)
{
	int n = 1;
	while (v >= 10000) {
		v /= 10000;
		n += 4;
	}
	return n + (v >= 10) + (v >= 100) + (v >= 1000);
}

/* Digits are written in place from the end, two at a time: a copy of
 * variable length would be a library call per number. */
static inline char *put_u64(char *p, uint64_t v)
{
	char *end = p + n_digits(v), *t = end;
	while (v >= 100) {
		unsigned r = (unsigned)(v % 100);
		v /= 100;
		t -= 2;
		memcpy(t, digit_pairs + 2 * r, 2);
	}
	if (v >= 10)
		memcpy(t - 2, digit_pairs + 2 * v, 2);
	else
		t[-1] = (char)('0' + v);
	return end;
}

#if defined(__SIZEOF_INT128__)
__extension__ typedef unsigned __int128 u128_t;

static const uint64_t pow5_tab[28] = {
	1ULL, 5ULL, 25ULL, 125ULL, 625ULL, 3125ULL, 15625ULL, 78125ULL, 390625ULL,
	1953125ULL, 9765625ULL, 48828125ULL, 244140625ULL, 1220703125ULL, 6103515625ULL,
	30517578125ULL, 152587890625ULL, 762939453125ULL, 3814697265625ULL,
	19073486328125ULL, 95367431640625ULL, 476837158203125ULL, 2384185791015625ULL,
	11920928955078125ULL, 59604644775390625ULL, 298023223876953125ULL,
	1490116119384765625ULL, 7450580596923828125ULL};

/* A positive double in [1e-10, 1e17) scaled by 10^p, exactly: n / 2^s,
 * with its neighbours ulp_hi above and ulp_lo below in the same units.
 * x = m 2^e, so x 10^p = m 5^p 2^(e+p): p <= 27 keeps it under 123 bits. */
typedef struct exact_dec {
	u128_t n, ulp_hi, ulp_lo;
	int s, p, even;
} exact_dec_t;

/* The 17 correctly rounded significant digits d (10^16 <= d < 10^17) of x,
 * x ~ d 10^-p; 0 where x is out of the range above. */
static int digits17(double x, uint64_t *d, exact_dec_t *ex)
{
	uint64_t bits;
	memcpy(&bits, &x, sizeof bits);
	uint64_t m = (bits & ((1ULL << 52) - 1)) | (1ULL << 52);
	int e = (int)((bits >> 52) & 0x7ff) - 1075;
	/* floor(log10 x) is this or one more */
	int p = 16 - (int)floor((e + 52) * 0.30102999566398119521);
	for (int tries = 0; tries < 2; tries++, p--) {
		if (p < 0 || p > 27)
			return 0;
		u128_t n = (u128_t)m * pow5_tab[p], ulp = pow5_tab[p];
		int t = e + p, s = 0;
		uint64_t v;
		if (t >= 0) {
			if (t > 8)
				return 0;
			n <<= t;
			ulp <<= t;
			v = (uint64_t)n;
		} else {
			s = -t;
			if (s > 64)
				return 0;
			u128_t half = (u128_t)1 << (s - 1);
			u128_t rem = n & ((half << 1) - 1);
			v = (uint64_t)(n >> s);
			if (rem > half || (rem == half && (v & 1)))
				v++;
		}
		if (v < 100000000000000000ULL) {
			if (v < 10000000000000000ULL)
				return 0;
			*d = v;
			ex->n = n;
			ex->s = s;
			ex->p = p;
			ex->ulp_hi = ulp;
			/* below a power of two the next double is half as far */
			ex->ulp_lo = m == (1ULL << 52) ? ulp >> 1 : ulp;
			ex->even = !(m & 1);
			return 1;
		}
	}
	return 0;
}

/* Does c 10^(k-p) read back as x under round-to-nearest-even? It does when
 * it is closer to x than half the gap to the neighbouring double. */
static int reads_back(const exact_dec_t *ex, uint64_t c, int k)
{
	u128_t cc = ((u128_t)c * (k == 2 ? 100u : 10u)) << ex->s;
	u128_t dist = cc >= ex->n ? cc - ex->n : ex->n - cc;
	u128_t gap = cc >= ex->n ? ex->ulp_hi : ex->ulp_lo;
	return 2 * dist < gap || (2 * dist == gap && ex->even);
}
#endif

/* Writes x so that it reads back bit for bit, in the shortest form (0.1,
 * not 0.10000000000000001) when that has at most 16 digits, else with 17,
 * in printf's %g layout. Very large, tiny and non-finite values take
 * printf's %.17g. */
static char *put_double(char *p, double x)
{
	uint64_t d;
	int q, n, xp;
	char dig[20];

	if (signbit(x)) {
		*p++ = '-';
		x = -x;
	}
	if (x == 0) {
		*p++ = '0';
		return p;
	}
#if defined(__SIZEOF_INT128__)
	exact_dec_t ex;
	if (!(x >= 1e-10 && x < 1e17) || !digits17(x, &d, &ex))
		return p + snprintf(p, 32, "%.17g", x);
	q = -ex.p;
	/* The 15-digit rounding of d is the one of x; a 16-digit form can be
	 * one unit off it, as half an ulp is up to 11 units of d. */
	if (reads_back(&ex, (d + 50) / 100, 2)) {
		d = (d + 50) / 100;
		q += 2;
	} else {
		uint64_t c = (d + 5) / 10;
		if (d % 10 == 5 && ((u128_t)d << ex.s) > ex.n)
			c--; /* d was rounded up from below ...5: round down */
		if (reads_back(&ex, c, 1) || reads_back(&ex, --c, 1) || reads_back(&ex, c += 2, 1)) {
			d = c;
			q += 1;
		}
	}
#else
	return p + snprintf(p, 32, "%.17g", x);
#endif
	while (d % 10 == 0) {
		d /= 10;
		q++;
	}
	n = (int)(put_u64(dig, d) - dig);
	xp = n - 1 + q; /* decimal exponent of the leading digit */
	if (xp < -4 || xp >= 17) {
		*p++ = dig[0];
		if (n > 1) {
			*p++ = '.';
			memcpy(p, dig + 1, (size_t)n - 1);
			p += n - 1;
		}
		*p++ = 'e';
		*p++ = xp < 0 ? '-' : '+';
		if (xp < 0)
			xp = -xp;
		if (xp < 10)
			*p++ = '0';
		return put_u64(p, (uint64_t)xp);
	}
	if (q >= 0) {
		memcpy(p, dig, (size_t)n);
		p += n;
		memset(p, '0', (size_t)q);
		return p + q;
	}
	if (xp >= 0) {
		memcpy(p, dig, (size_t)xp + 1);
		p += xp + 1;
		*p++ = '.';
		memcpy(p, dig + xp + 1, (size_t)(n - xp - 1));
		return p + (n - xp - 1);
	}
	*p++ = '0';
	*p++ = '.';
	memset(p, '0', (size_t)(-xp - 1));
	p += -xp - 1;
	memcpy(p, dig, (size_t)n);
	return p + n;
}

/* Rejects what would make a file that the readers refuse or misread,
 * before anything is created. */
static fv_err_t check_mesh(const fv_mesh_t *m, const char *path)
{
	FV_CALL(fv_writer_check_mesh(m, path));
	FV_CHECK(m->n_cells == 0 || (m->cell_type && m->cell_node_off && m->cell_node && m->xyz),
		 FV_ERR_ARG, "%s: the mesh has no cell arrays", path);
	for (size_t i = 0; i < 3 * (size_t)m->n_nodes; i++)
		FV_CHECK(isfinite(m->xyz[i]), FV_ERR_MESH, "%s: node %zu has a non-finite coordinate",
			 path, i / 3);
	/* the name runs to the end of its line, and '%' starts a comment */
	for (int k = 0; k < m->n_markers; k++)
		for (const char *s = m->markers[k].name; *s; s++)
			FV_CHECK((unsigned char)*s >= ' ' && *s != 0x7f && *s != '%', FV_ERR_MESH,
				 "%s: marker %d: name '%s' has a control character or '%%', which SU2 "
				 "cannot hold", path, k, m->markers[k].name);
	return FV_OK;
}

static fv_err_t write_body(su2_out_t *o, const fv_mesh_t *m, const fv_idx_t *order, const fv_idx_t *moff)
{
	char *p = o->buf;

	FV_CALL(out_room(o, &p));
	p = put_str(p, "NDIME= 3\nNELEM= ");
	p = put_u64(p, (uint64_t)m->n_cells);
	*p++ = '\n';
	out_done(o, p);
	for (fv_idx_t c = 0; c < m->n_cells; c++) {
		FV_CALL(out_room(o, &p));
		p = put_u64(p, (uint64_t)fv_cell_shapes[m->cell_type[c]].su2_id);
		for (fv_idx_t i = m->cell_node_off[c]; i < m->cell_node_off[c + 1]; i++) {
			*p++ = ' ';
			p = put_u64(p, (uint64_t)m->cell_node[i]);
		}
		*p++ = ' ';
		p = put_u64(p, (uint64_t)c);
		*p++ = '\n';
		out_done(o, p);
	}

	FV_CALL(out_room(o, &p));
	p = put_str(p, "NPOIN= ");
	p = put_u64(p, (uint64_t)m->n_nodes);
	*p++ = '\n';
	out_done(o, p);
	for (fv_idx_t i = 0; i < m->n_nodes; i++) {
		FV_CALL(out_room(o, &p));
		for (int d = 0; d < 3; d++) {
			p = put_double(p, m->xyz[3 * (size_t)i + d]);
			*p++ = ' ';
		}
		p = put_u64(p, (uint64_t)i);
		*p++ = '\n';
		out_done(o, p);
	}

	FV_CALL(out_room(o, &p));
	p = put_str(p, "NMARK= ");
	p = put_u64(p, (uint64_t)m->n_markers);
	*p++ = '\n';
	out_done(o, p);
	for (int k = 0; k < m->n_markers; k++) {
		FV_CALL(out_room(o, &p));
		p = put_str(p, "MARKER_TAG= ");
		p = put_str(p, m->markers[k].name);
		p = put_str(p, "\nMARKER_ELEMS= ");
		p = put_u64(p, (uint64_t)(moff[k + 1] - moff[k]));
		*p++ = '\n';
		out_done(o, p);
		for (fv_idx_t j = moff[k]; j < moff[k + 1]; j++) {
			fv_idx_t b = order[j];
			FV_CALL(out_room(o, &p));
			*p++ = m->belem_type[b] == FV_TRI ? '5' : '9';
			for (fv_idx_t i = m->belem_node_off[b]; i < m->belem_node_off[b + 1]; i++) {
				*p++ = ' ';
				p = put_u64(p, (uint64_t)m->belem_node[i]);
			}
			*p++ = '\n';
			out_done(o, p);
		}
	}
	return FV_OK;
}

fv_err_t fv_mesh_write_su2(const fv_mesh_t *m, const char *path)
{
	fv_idx_t *order = NULL, *moff = NULL;
	su2_out_t o;
	fv_err_t err;

	FV_CALL(check_mesh(m, path));
	/* SU2 lists boundary elements marker by marker; a counting sort keeps
	 * their order within each marker */
	FV_CALL(fv_calloc(&moff, (size_t)m->n_markers + 1, sizeof *moff, "marker offsets"));
	err = fv_malloc(&order, (size_t)m->n_belems, sizeof *order, "boundary element order");
	if (err != FV_OK) {
		free(moff);
		return err;
	}
	for (fv_idx_t b = 0; b < m->n_belems; b++)
		moff[m->belem_marker[b] + 1]++;
	for (int k = 0; k < m->n_markers; k++)
		moff[k + 1] += moff[k];
	for (fv_idx_t b = 0; b < m->n_belems; b++)
		order[moff[m->belem_marker[b]]++] = b;
	for (int k = m->n_markers; k > 0; k--)
		moff[k] = moff[k - 1];
	moff[0] = 0;

	err = out_open(&o, path);
	if (err == FV_OK)
		err = out_close(&o, write_body(&o, m, order, moff));
	free(order);
	free(moff);
	return err == FV_OK ? FV_OK : fv_error_trace(err, __FILE__, __LINE__);
}

fv_err_t fv_mesh_write(const fv_mesh_t *m, const char *path)
{
	const char *dot = strrchr(path, '.');
	const char *slash = strrchr(path, '/');
	const char *ext = dot && (!slash || dot > slash) ? dot : "";
	if (strcasecmp(ext, ".su2") == 0)
		FV_CALL(fv_mesh_write_su2(m, path));
	else if (strcasecmp(ext, ".fvm") == 0)
		FV_CALL(fv_mesh_write_fvm(m, path));
	else if (strcasecmp(ext, ".cgns") == 0)
		FV_CALL(fv_mesh_write_cgns(m, path));
	else if (strcasecmp(ext, ".vtu") == 0)
		FV_CALL(fv_mesh_write_vtu(m, path));
	else
		return FV_ERROR(FV_ERR_ARG, "%s: unknown mesh extension '%s' (use .su2, .fvm, .cgns or .vtu)", path,
				ext);
	return FV_OK;
}
