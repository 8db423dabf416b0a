// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer harness for the burst journal reader.  The input is used as a
 * journal body under a correct checksum (so the fuzzer gets past it) and
 * as a whole file.  Every accepted journal must format to text that
 * parses back and formats the same, and hold only entries restore may
 * write; every refusal must explain itself.
 * Build and run: make fuzz && tests/fuzz/fuzz-journal -max_total_time=60
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "alloc/state.h"
#include "base/strbuf.h"
#include "kube/quantity.h"
#include "quota/burst.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
one(char *text, size_t len)
{
	struct burst_journal j, j2;
	struct strbuf f1, f2;
	char err[256], *copy;
	size_t i;

	memset(&j, 0, sizeof(j));
	j.lockfd = -1;
	err[0] = '\0';
	if (burst_journal_parse(&j, text, len, err, sizeof(err)) == 0) {
		for (i = 0; i < j.n; i++)
			if (j.v[i].orig_quota < CFS_QUOTA_MIN_US ||
			    j.v[i].orig_quota >= j.v[i].boost_quota ||
			    j.v[i].boost_quota > CFS_QUOTA_MAX_US)
				abort();
		strbuf_init(&f1);
		burst_journal_format(&j, &f1);
		memset(&j2, 0, sizeof(j2));
		j2.lockfd = -1;
		if (f1.oom)
			abort();
		/* parsing cuts its text into lines: parse a copy */
		copy = malloc(f1.len + 1);
		if (copy == NULL)
			abort();
		memcpy(copy, f1.buf, f1.len + 1);
		if (burst_journal_parse(&j2, copy, f1.len, err,
					sizeof(err)) != 0)
			abort();
		free(copy);
		strbuf_init(&f2);
		burst_journal_format(&j2, &f2);
		if (f1.len != f2.len || memcmp(f1.buf, f2.buf, f1.len) != 0)
			abort();
		burst_journal_close(&j2);
		strbuf_free(&f1);
		strbuf_free(&f2);
	} else if (err[0] == '\0') {
		abort();
	}
	burst_journal_close(&j);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strbuf in;
	char *raw;

	strbuf_init(&in);
	strbuf_printf(&in, "cpm-burst-journal 2\nchecksum fnv1a64:%016llx\n",
		      (unsigned long long)fnv1a64(FNV64_INIT, data, size));
	strbuf_add(&in, (const char *)data, size);
	if (!in.oom)
		one(in.buf, in.len);
	strbuf_free(&in);
	raw = malloc(size + 1);
	if (raw == NULL)
		return 0;
	memcpy(raw, data, size);
	raw[size] = '\0';
	one(raw, size);
	free(raw);
	return 0;
}
