/* SPDX-License-Identifier: MIT */
/* Fails `make check` loudly when configure did not find cmocka. */
#include <stdio.h>

int main(void)
{
	fprintf(stderr, "cmocka was not found at configure time: install libcmocka-dev and re-run configure\n");
	return 1;
}
