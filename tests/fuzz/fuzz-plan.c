// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer harness for the plan parser.  Beyond not crashing, a plan
 * that is accepted has a valid, unique name and at least one CPU for
 * every instance, and one that is refused says on which line and why.
 * Build and run: make fuzz && tests/fuzz/fuzz-plan -max_total_time=60
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "alloc/plan.h"
#include "alloc/state.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct plan p;
	char err[512];
	int i, j;

	err[0] = '\0';
	if (plan_parse((const char *)data, size, PLAN_QUOTE, &p, err, sizeof(err)) == 0) {
		for (i = 0; i < p.n; i++) {
			if (!state_name_valid(p.inst[i].name) ||
			    p.inst[i].count < 1 ||
			    (p.inst[i].exact &&
			     (int)cpuset_count(&p.inst[i].cpus) != p.inst[i].count))
				abort();
			for (j = 0; j < i; j++)
				if (strcmp(p.inst[i].name, p.inst[j].name) == 0)
					abort();
		}
		plan_free(&p);
	} else if (strncmp(err, "line ", 5) != 0 && strcmp(err, "") != 0) {
		abort();	/* a refusal names its line */
	} else if (err[0] == '\0' && p.n != 0) {
		abort();
	}
	return 0;
}
