// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer harness for the cpm-alloc state parser and the kubelet
 * checkpoint reader.  The input is used as a state body under a correct
 * checksum (so the fuzzer gets past it; version 2, so that layout records
 * are parsed too), and as a checkpoint.  Every accepted state must format
 * to text that parses back and formats the same, and the same as when
 * every entry is written afresh (no line copied); every refusal must
 * explain itself.
 * Build and run: make fuzz && tests/fuzz/fuzz-state -max_total_time=60
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kstate.h"
#include "state.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct alloc_state st, st2;
	struct strbuf in, f1, f2;
	struct kstate ks;
	char err[256];
	uint32_t sum;

	strbuf_init(&in);
	strbuf_printf(&in, "cpm-alloc-state 2\nchecksum fnv1a64:%016llx\n",
		      (unsigned long long)fnv1a64(FNV64_INIT, data, size));
	strbuf_add(&in, (const char *)data, size);
	err[0] = '\0';
	if (state_parse(&st, in.buf, in.len, err, sizeof(err)) == 0) {
		int i;

		strbuf_init(&f1);
		state_format(&st, &f1);
		for (i = 0; i < st.nentries; i++)
			memset(&st.entries[i].src, 0, sizeof(st.entries[i].src));
		strbuf_init(&f2);
		state_format(&st, &f2);
		if (f1.len != f2.len || memcmp(f1.buf, f2.buf, f1.len) != 0)
			abort();
		strbuf_free(&f2);
		if (state_parse(&st2, f1.buf, f1.len, err, sizeof(err)) != 0)
			abort();
		strbuf_init(&f2);
		state_format(&st2, &f2);
		if (f1.len != f2.len || memcmp(f1.buf, f2.buf, f1.len) != 0)
			abort();
		state_free(&st);
		state_free(&st2);
		strbuf_free(&f1);
		strbuf_free(&f2);
	} else if (err[0] == '\0') {
		abort();
	}
	strbuf_free(&in);
	if (kstate_parse(&ks, (const char *)data, size, err, sizeof(err)) == 0) {
		kstate_verify(&ks, &sum);
		kstate_free(&ks);
	}
	return 0;
}
