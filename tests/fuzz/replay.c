/* SPDX-License-Identifier: MIT */
/* Runs a libFuzzer target's LLVMFuzzerTestOneInput on files, without
 * libFuzzer: `make check` replays the seeds and regression inputs of every
 * target through it (tests/cli/fuzz_regressions.sh). A crash or a hang is a
 * failure; a rejected input is not. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		FILE *f = fopen(argv[i], "rb");
		uint8_t *buf = NULL;
		size_t len = 0, cap = 0, n;
		if (!f) {
			fprintf(stderr, "%s: %s\n", argv[i], strerror(errno));
			return 2;
		}
		do {
			if (len == cap) {
				uint8_t *nb = realloc(buf, cap = cap ? 2 * cap : 4096);
				if (!nb) {
					fprintf(stderr, "%s: out of memory\n", argv[i]);
					return 2;
				}
				buf = nb;
			}
			n = fread(buf + len, 1, cap - len, f);
			len += n;
		} while (n > 0);
		fclose(f);
		/* an exact-size copy, as libFuzzer hands it */
		uint8_t *data = malloc(len ? len : 1);
		if (!data)
			return 2;
		memcpy(data, buf, len);
		free(buf);
		LLVMFuzzerTestOneInput(data, len);
		free(data);
	}
	return 0;
}
