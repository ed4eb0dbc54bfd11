/* SPDX-License-Identifier: MIT */
/* Restart files: the conservative state in global cell order, raw values
 * in little-endian byte order, a header and an FNV-1a 64 checksum. */
#include "fvstar/output.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define HEADER_BYTES 88
#define CHUNK ((size_t)1 << 20)
#define FNV_OFFSET 14695981039346656037ULL
#define FNV_PRIME 1099511628211ULL

static uint64_t fnv1a(uint64_t h, const void *p, size_t n)
{
	const uint8_t *b = p;
	for (size_t i = 0; i < n; i++) {
		h ^= b[i];
		h *= FNV_PRIME;
	}
	return h;
}

static int host_little(void)
{
	const uint16_t one = 1;
	return *(const uint8_t *)&one == 1;
}

static void put_le(uint8_t *p, uint64_t v, int bytes)
{
	for (int i = 0; i < bytes; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t get_le(const uint8_t *p, int bytes)
{
	uint64_t v = 0;
	for (int i = 0; i < bytes; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

static uint64_t double_bits(double x)
{
	uint64_t u;
	memcpy(&u, &x, sizeof u);
	return u;
}

static double bits_double(uint64_t u)
{
	double x;
	memcpy(&x, &u, sizeof x);
	return x;
}

/* count reals between host order and little-endian bytes (either way:
 * reversing is its own inverse). */
static void to_from_le(void *dst, const void *src, size_t count)
{
	if (host_little()) {
		memcpy(dst, src, count * sizeof(fv_real_t));
		return;
	}
	const uint8_t *s = src;
	uint8_t *d = dst;
	for (size_t i = 0; i < count; i++)
		for (size_t b = 0; b < sizeof(fv_real_t); b++)
			d[i * sizeof(fv_real_t) + b] = s[i * sizeof(fv_real_t) + sizeof(fv_real_t) - 1 - b];
}

static void encode_header(const fv_restart_t *r, uint8_t h[HEADER_BYTES])
{
	memcpy(h, FV_RESTART_MAGIC, 8);
	put_le(h + 8, FV_RESTART_VERSION, 4);
	put_le(h + 12, sizeof(fv_real_t), 4);
	put_le(h + 16, (uint64_t)r->n_cells, 8);
	put_le(h + 24, (uint64_t)r->n_vars, 4);
	put_le(h + 28, (uint64_t)(uint32_t)r->n_blocks, 4);
	put_le(h + 32, (uint64_t)r->iteration, 8);
	put_le(h + 40, double_bits(r->time), 8);
	for (int v = 0; v < FV_RESTART_NVARS; v++)
		put_le(h + 48 + 8 * v, double_bits(r->res0[v]), 8);
}

fv_err_t fv_restart_write(const char *path, const fv_restart_t *r)
{
	uint8_t header[HEADER_BYTES], tail[8];
	uint8_t *buf = NULL;
	char *tmp = NULL;
	FILE *f = NULL;
	size_t n = strlen(path), count, per = CHUNK / sizeof(fv_real_t);
	uint64_t hash;
	int bad = 0;
	fv_err_t err = FV_OK;

	FV_CHECK(r->n_vars == FV_RESTART_NVARS, FV_ERR_ARG, "%s: %d variables, a restart holds %d", path, r->n_vars,
		 FV_RESTART_NVARS);
	FV_CHECK(r->n_cells >= 0 && (r->q || r->n_cells == 0), FV_ERR_ARG, "%s: no state to write", path);
	count = (size_t)r->n_vars * (size_t)r->n_cells;
	FV_CALL(fv_malloc(&tmp, n + 5, 1, "temporary file name"));
	memcpy(tmp, path, n);
	memcpy(tmp + n, ".tmp", 5);
	FV_CALL_GOTO(err, done, fv_malloc(&buf, CHUNK, 1, "restart buffer"));

	f = fopen(tmp, "wb");
	if (!f) {
		err = FV_ERROR(FV_ERR_IO, "%s: cannot write %s: %s", path, tmp, strerror(errno));
		goto done;
	}
	encode_header(r, header);
	hash = fnv1a(FNV_OFFSET, header, sizeof header);
	bad |= fwrite(header, 1, sizeof header, f) != sizeof header;
	for (size_t at = 0; at < count && !bad; at += per) {
		size_t k = count - at < per ? count - at : per;
		to_from_le(buf, r->q + at, k);
		hash = fnv1a(hash, buf, k * sizeof(fv_real_t));
		bad |= fwrite(buf, sizeof(fv_real_t), k, f) != k;
	}
	put_le(tail, hash, 8);
	bad |= fwrite(tail, 1, sizeof tail, f) != sizeof tail;
	/* on disk before the rename, so a crash cannot leave a renamed but
	 * incomplete file in place of the previous restart */
	bad |= fflush(f) != 0 || fsync(fileno(f)) != 0;
	if (bad)
		err = FV_ERROR(FV_ERR_IO, "%s: write failed: %s", path, strerror(errno));
	if (fclose(f) != 0 && err == FV_OK)
		err = FV_ERROR(FV_ERR_IO, "%s: write failed: %s", path, strerror(errno));
	if (err == FV_OK && rename(tmp, path) != 0)
		err = FV_ERROR(FV_ERR_IO, "%s: cannot rename %s to it: %s", path, tmp, strerror(errno));
	if (err != FV_OK)
		remove(tmp);
done:
	free(tmp);
	free(buf);
	return err;
}

/* Reads n bytes or fails naming path and what. */
static fv_err_t read_exact(FILE *f, void *p, size_t n, const char *path, const char *what)
{
	size_t got = fread(p, 1, n, f);
	FV_CHECK(got == n, FV_ERR_FORMAT, "%s: %s: %s", path, what,
		 ferror(f) ? strerror(errno) : "unexpected end of file (truncated)");
	return FV_OK;
}

static fv_err_t read_file(FILE *f, const char *path, fv_restart_t *r, fv_idx_t expect_cells)
{
	uint8_t header[HEADER_BYTES], tail[8];
	struct stat st;
	uint64_t n_cells, hash, stored;
	uint32_t version, precision, n_vars;
	size_t count, per = CHUNK / sizeof(fv_real_t);
	long long expected_size;
	uint8_t *buf = NULL;
	fv_err_t err = FV_OK;

	FV_CHECK(fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode), FV_ERR_IO, "%s: not a regular file", path);
	FV_CHECK(st.st_size >= 8 && fread(header, 1, 8, f) == 8 && memcmp(header, FV_RESTART_MAGIC, 8) == 0,
		 FV_ERR_FORMAT, "%s: not an fvstar restart file (no %s magic)", path, FV_RESTART_MAGIC);
	FV_CALL(read_exact(f, header + 8, HEADER_BYTES - 8, path, "header"));
	version = (uint32_t)get_le(header + 8, 4);
	precision = (uint32_t)get_le(header + 12, 4);
	n_cells = get_le(header + 16, 8);
	n_vars = (uint32_t)get_le(header + 24, 4);
	FV_CHECK(version == FV_RESTART_VERSION, FV_ERR_FORMAT,
		 "%s: restart format version %u, this fvstar reads version %d", path, version, FV_RESTART_VERSION);
	FV_CHECK(precision == sizeof(fv_real_t), FV_ERR_FORMAT,
		 "%s: written in %s precision (%u-byte reals), this fvstar is built in %s precision: restart "
		 "with a build of the same precision (--enable-single)",
		 path, precision == 4 ? "single" : precision == 8 ? "double" : "unknown", precision, FV_REAL_NAME);
	FV_CHECK(n_vars == FV_RESTART_NVARS, FV_ERR_FORMAT, "%s: %u variables per cell, expected %d", path, n_vars,
		 FV_RESTART_NVARS);
	FV_CHECK(n_cells <= (uint64_t)FV_IDX_MAX, FV_ERR_FORMAT, "%s: %llu cells is over the index limit", path,
		 (unsigned long long)n_cells);
	FV_CHECK(expect_cells < 0 || n_cells == (uint64_t)expect_cells, FV_ERR_FORMAT,
		 "%s: restart of %llu cells, the mesh has %d (another mesh or refinement level?)", path,
		 (unsigned long long)n_cells, (int)expect_cells);
	count = (size_t)n_vars * (size_t)n_cells;
	expected_size = HEADER_BYTES + (long long)(count * sizeof(fv_real_t)) + 8;
	FV_CHECK((long long)st.st_size >= expected_size, FV_ERR_FORMAT,
		 "%s: truncated: %lld bytes, a restart of %llu cells has %lld", path, (long long)st.st_size,
		 (unsigned long long)n_cells, expected_size);
	FV_CHECK((long long)st.st_size == expected_size, FV_ERR_FORMAT,
		 "%s: %lld bytes, a restart of %llu cells has %lld (trailing data)", path, (long long)st.st_size,
		 (unsigned long long)n_cells, expected_size);

	r->n_cells = (fv_idx_t)n_cells;
	r->n_vars = (int)n_vars;
	r->n_blocks = (int)(int32_t)get_le(header + 28, 4);
	r->iteration = (int64_t)get_le(header + 32, 8);
	r->time = bits_double(get_le(header + 40, 8));
	for (int v = 0; v < FV_RESTART_NVARS; v++)
		r->res0[v] = bits_double(get_le(header + 48 + 8 * v, 8));
	FV_CALL(fv_malloc(&r->q, count, sizeof(fv_real_t), "restart state"));
	FV_CALL_GOTO(err, done, fv_malloc(&buf, CHUNK, 1, "restart buffer"));
	hash = fnv1a(FNV_OFFSET, header, sizeof header);
	for (size_t at = 0; at < count; at += per) {
		size_t k = count - at < per ? count - at : per;
		FV_CALL_GOTO(err, done, read_exact(f, buf, k * sizeof(fv_real_t), path, "state"));
		hash = fnv1a(hash, buf, k * sizeof(fv_real_t));
		to_from_le(r->q + at, buf, k);
	}
	FV_CALL_GOTO(err, done, read_exact(f, tail, sizeof tail, path, "checksum"));
	stored = get_le(tail, 8);
	if (stored != hash)
		err = FV_ERROR(FV_ERR_FORMAT, "%s: checksum mismatch (stored %016llx, computed %016llx): the file is "
					      "corrupted",
			       path, (unsigned long long)stored, (unsigned long long)hash);
done:
	free(buf);
	return err;
}

fv_err_t fv_restart_read(const char *path, fv_restart_t *r, fv_idx_t expect_cells)
{
	FILE *f;
	fv_err_t err;
	memset(r, 0, sizeof *r);
	f = fopen(path, "rb");
	FV_CHECK(f, FV_ERR_IO, "%s: cannot open restart: %s", path, strerror(errno));
	err = read_file(f, path, r, expect_cells);
	fclose(f);
	if (err != FV_OK)
		fv_restart_free(r);
	return err;
}

void fv_restart_free(fv_restart_t *r)
{
	FV_FREE(r->q);
}
