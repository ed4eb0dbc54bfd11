/* SPDX-License-Identifier: MIT */
/* Mesh file dispatch and the read -> faces -> geometry -> checks pipeline. */
#include "fvstar/mesh.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "util/parse.h"

static int has_ext(const char *path, const char *ext)
{
	size_t n = strlen(path), e = strlen(ext);
	return n > e && strcmp(path + n - e, ext) == 0;
}

typedef fv_err_t (*parse_fn)(fv_mesh_t *, const char *, size_t, const char *);

/* The file into memory, parsed, the buffer freed: every reader's frame. */
static fv_err_t read_with(fv_mesh_t *m, const char *path, parse_fn parse)
{
	char *buf;
	size_t len;
	fv_err_t err;
	fv_mesh_init(m);
	FV_CALL(fv_read_file(path, &buf, &len));
	err = parse(m, buf, len, path);
	free(buf);
	return err == FV_OK ? FV_OK : fv_error_trace(err, __FILE__, __LINE__);
}

fv_err_t fv_mesh_read_su2(fv_mesh_t *m, const char *path)
{
	return read_with(m, path, fv_mesh_parse_su2);
}

fv_err_t fv_mesh_read_gmsh(fv_mesh_t *m, const char *path)
{
	return read_with(m, path, fv_mesh_parse_gmsh);
}

/* The first size bytes of a regular file (*n read; a FIFO or another
 * non-regular file is refused before anything blocks on it). */
static fv_err_t read_head(const char *path, char *head, size_t size, ssize_t *n)
{
	int fd;
	FV_CALL(fv_open_regular(path, &fd, NULL));
	*n = read(fd, head, size);
	close(fd);
	return FV_OK;
}

/* CGNS files are HDF5 (signature at offset 0 as the CGNS library writes
 * them) or ADF; the library reads them from the file. Anything but a
 * regular file is refused here, before anything blocks on it. */
static fv_err_t is_cgns(const char *path, int *yes)
{
	static const char hdf5[8] = {'\x89', 'H', 'D', 'F', '\r', '\n', '\x1a', '\n'};
	char head[32] = {0};
	ssize_t n = 0;
	FV_CALL(read_head(path, head, sizeof head, &n));
	*yes = has_ext(path, ".cgns") || has_ext(path, ".CGNS");
	/* ADF: "@(#)" with the high bits set, then "ADF Database Version" */
	if ((n >= 8 && memcmp(head, hdf5, 8) == 0) || (n >= 16 && memcmp(head + 4, "ADF Database", 12) == 0))
		*yes = 1;
	return FV_OK;
}

/* fvstar's binary meshes by their signature, or by name (a damaged one
 * then gets the binary reader's message, not the text readers'). */
static fv_err_t is_fvm(const char *path, int *yes)
{
	char head[8] = {0};
	ssize_t n = 0;
	FV_CALL(read_head(path, head, sizeof head, &n));
	*yes = has_ext(path, ".fvm") || (n == 8 && memcmp(head, "\211FVM\r\n\032\n", 8) == 0);
	return FV_OK;
}

fv_err_t fv_mesh_read(fv_mesh_t *m, const char *path)
{
	char *buf;
	size_t len;
	fv_err_t err;
	int cgns = 0, fvm = 0;
	fv_mesh_init(m);
	FV_CALL(is_fvm(path, &fvm));
	if (fvm) {
		err = fv_mesh_read_fvm(m, path);
		return err == FV_OK ? FV_OK : fv_error_trace(err, __FILE__, __LINE__);
	}
	FV_CALL(is_cgns(path, &cgns));
	if (cgns) {
		err = fv_mesh_read_cgns(m, path);
		return err == FV_OK ? FV_OK : fv_error_trace(err, __FILE__, __LINE__);
	}
	FV_CALL(fv_read_file(path, &buf, &len));
	/* by contents first: a .msh may come with any name */
	if (len >= 11 && memcmp(buf, "$MeshFormat", 11) == 0)
		err = fv_mesh_parse_gmsh(m, buf, len, path);
	else if (has_ext(path, ".msh"))
		err = fv_mesh_parse_gmsh(m, buf, len, path);
	else if (has_ext(path, ".su2") || strstr(buf, "NDIME") || strstr(buf, "NELEM"))
		err = fv_mesh_parse_su2(m, buf, len, path);
	else
		err = FV_ERROR(FV_ERR_FORMAT, "%s: unknown mesh format (expected SU2 .su2, Gmsh .msh, CGNS .cgns or fvstar .fvm)",
			       path);
	free(buf);
	return err == FV_OK ? FV_OK : fv_error_trace(err, __FILE__, __LINE__);
}

fv_err_t fv_mesh_prepare(fv_mesh_t *m)
{
	FV_CALL(fv_mesh_build_faces(m));
	FV_CALL(fv_mesh_build_node_cells(m));
	FV_CALL(fv_mesh_compute_geometry(m));
	FV_CALL(fv_mesh_check(m, 0, NULL));
	return FV_OK;
}

fv_err_t fv_mesh_load(fv_mesh_t *m, const char *path)
{
	FV_CALL(fv_mesh_read(m, path));
	FV_CALL(fv_mesh_prepare(m));
	return FV_OK;
}
