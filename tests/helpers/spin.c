// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * spin [SECONDS]: burn CPU in a busy loop, for the throttling tests.
 * Exits by itself after SECONDS (default 120) of wall time so that a
 * test killed before its cleanup never leaves a spinner behind.
 */
#include <stdlib.h>
#include <time.h>

int
main(int argc, char **argv)
{
	long limit = argc > 1 ? atol(argv[1]) : 120;
	time_t end = time(NULL) + (limit > 0 ? limit : 120);
	volatile unsigned long n = 0;

	while (time(NULL) < end)
		for (int i = 0; i < 1000000; i++)
			n++;
	return 0;
}
