// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer harness for the cpm-throttle --since snapshot reader: every
 * accepted snapshot must format to text that parses back and formats the
 * same; every refusal must explain itself.
 * Build and run: make fuzz && tests/fuzz/fuzz-snapshot -max_total_time=60
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "throttle/throttle.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct thr_snap s, s2;
	struct strbuf f1, f2;
	char err[256], *text;

	text = malloc(size + 1);
	if (text == NULL)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	err[0] = '\0';
	thr_snap_init(&s);
	if (thr_snap_parse(text, &s, err, sizeof(err)) == 0) {
		strbuf_init(&f1);
		thr_snap_format(&s, &f1);
		thr_snap_init(&s2);
		if (f1.oom || thr_snap_parse(f1.buf, &s2, err, sizeof(err)) != 0)
			abort();
		strbuf_init(&f2);
		thr_snap_format(&s2, &f2);
		if (f1.len != f2.len || memcmp(f1.buf, f2.buf, f1.len) != 0)
			abort();
		thr_snap_free(&s2);
		strbuf_free(&f1);
		strbuf_free(&f2);
	} else if (err[0] == '\0') {
		abort();
	}
	thr_snap_free(&s);
	free(text);
	return 0;
}
