// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer harness for the Kubernetes quantity parser.  Beyond not
 * crashing: every refusal explains itself; a quantity accepted at nano
 * scale gives the milli value that rounding it up predicts; and an
 * accepted CPU quantity, printed in CPUs, parses back to itself.
 * Build and run: make fuzz && tests/fuzz/fuzz-quantity -max_total_time=60
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kube/quantity.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text, err[160], buf[64];
	int64_t n, m, back;
	int rn, rm;

	text = malloc(size + 1);
	if (text == NULL)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	err[0] = '\0';
	rm = quantity_parse(text, 3, &m, NULL, err, sizeof(err));
	if (rm < 0 && (err[0] == '\0' || (rm != -EINVAL && rm != -ERANGE)))
		abort();
	rn = quantity_parse(text, 9, &n, NULL, err, sizeof(err));
	if (rn == 0 && (rm != 0 || m != n / 1000000 + (n % 1000000 != 0)))
		abort();
	if (rm == 0) {
		if (m < 0)
			abort();
		millicpu_format(m, buf, sizeof(buf));
		if (quantity_parse(buf, 3, &back, NULL, err, sizeof(err)) != 0 ||
		    back != m)
			abort();
	}
	free(text);
	return 0;
}
