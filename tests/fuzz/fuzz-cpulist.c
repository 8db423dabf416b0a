// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer harness for the cpulist and cpumask parsers.  Beyond not
 * crashing, every accepted list must format to canonical text that parses
 * back to the same set, and formatting must be a fixed point.
 * Build and run: make fuzz && tests/fuzz/fuzz-cpulist -max_total_time=60
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/cpuset.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cpuset a = CPUSET_INIT, b = CPUSET_INIT;
	char err[160];
	char *text, *l1, *l2;

	text = malloc(size + 1);
	if (text == NULL)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	if (cpuset_parse_list(text, &a, err, sizeof(err)) == 0) {
		l1 = cpuset_to_list(&a);
		if (cpuset_parse_list(l1, &b, err, sizeof(err)) != 0 ||
		    !cpuset_equal(&a, &b))
			abort();
		l2 = cpuset_to_list(&b);
		if (strcmp(l1, l2) != 0)
			abort();
		free(l1);
		free(l2);
	} else if (err[0] == '\0') {
		abort();	/* every refusal explains itself */
	}
	cpuset_parse_mask(text, &a);
	cpuset_free(&a);
	cpuset_free(&b);
	free(text);
	return 0;
}
