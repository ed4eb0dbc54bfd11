/* SPDX-License-Identifier: MIT */
/* Replays a libFuzzer target's inputs without libFuzzer (`make check`):
 * every file of the folders named on the command line or, without
 * arguments, of FUZZ_REPLAY_DIRS under $top_srcdir (set by the build).
 * A crash fails the test; a folder that holds no input at all too, so
 * that a moved seed folder cannot make the test pass by replaying
 * nothing. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int replay_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf;
	long n;
	if (!f || fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
		fprintf(stderr, "replay: cannot read %s\n", path);
		if (f)
			fclose(f);
		return -1;
	}
	buf = malloc((size_t)n + 1);
	if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) {
		fprintf(stderr, "replay: cannot read %s\n", path);
		free(buf);
		fclose(f);
		return -1;
	}
	fclose(f);
	LLVMFuzzerTestOneInput(buf, (size_t)n);
	free(buf);
	return 0;
}

/* Files of dir (not its sub-folders); -1 when dir cannot be opened. */
static int replay_dir(const char *dir, int required)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;
	if (!d) {
		if (required)
			fprintf(stderr, "replay: cannot open %s\n", dir);
		return required ? -1 : 0;
	}
	while ((e = readdir(d))) {
		char path[4096];
		struct stat st;
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
			continue;
		if (replay_file(path) != 0) {
			closedir(d);
			return -1;
		}
		n++;
	}
	closedir(d);
	return n;
}

int main(int argc, char **argv)
{
#ifdef FUZZ_REPLAY_DIRS
	static const char *const dirs[] = {FUZZ_REPLAY_DIRS};
#else
	static const char *const dirs[] = {"."};
#endif
	const char *top = getenv("top_srcdir");
	int total = 0;
	if (argc > 1) {
		for (int i = 1; i < argc; i++) {
			int n = replay_dir(argv[i], 1);
			if (n < 0)
				return 1;
			total += n;
		}
	} else {
		for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
			char dir[4096];
			/* the first folder holds the seeds and must exist; the
			 * others (crashers) may not */
			snprintf(dir, sizeof dir, "%s/%s", top ? top : ".", dirs[i]);
			int n = replay_dir(dir, i == 0);
			if (n < 0)
				return 1;
			total += n;
		}
	}
	printf("replay: %d inputs, no crash\n", total);
	return total > 0 ? 0 : 1;
}
