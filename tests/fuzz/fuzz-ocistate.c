// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer harness for what cpm-alloc oci-hook reads from a container
 * runtime: the OCI state (a JSON document on stdin) and the cpm.io/
 * annotations in it.  Build and run:
 * make fuzz && tests/fuzz/fuzz-ocistate -max_total_time=60
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pin/ocihook.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct oci_state s;
	struct oci_request rq;
	char err[512];
	size_t i;

	if (oci_state_parse(&s, (const char *)data, size, err,
			    sizeof(err)) == 0) {
		/* an accepted state has an id and only string annotations */
		if (s.id == NULL || s.id[0] == '\0')
			abort();
		for (i = 0; i < s.nann; i++)
			if (s.ann[i].key == NULL || s.ann[i].value == NULL)
				abort();
		oci_request_parse(&s, "cpus,mode,numa-policy,mem,core-type,isolate-irqs",
				  &rq, err, sizeof(err));
	} else if (memchr(err, '\0', sizeof(err)) == NULL) {
		abort();
	}
	oci_state_free(&s);
	return 0;
}
