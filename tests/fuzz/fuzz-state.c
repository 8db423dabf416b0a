// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer harness for the cpm-alloc state parser and the kubelet
 * checkpoint reader.  The input is used as a state body under a correct
 * checksum (so the fuzzer gets past it; version 2, so that layout records
 * are parsed too), and as a checkpoint.  Every accepted state must format
 * to text that parses back and formats the same, and the same as when
 * every entry is written afresh (no line copied); every refusal must
 * explain itself.  Read for one name (as take and release read), the
 * state must answer alike: the same refusal, or the same pools and the
 * same text, unchanged and with that entry released.
 * Build and run: make fuzz && tests/fuzz/fuzz-state -max_total_time=60
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "alloc/kstate.h"
#include "alloc/state.h"
#include "base/strbuf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The text of st, released of want (when it holds it). */
static void
text_without(struct alloc_state *st, char *const *want, struct strbuf *out)
{
	char err[256];

	state_remove_named(st, want, 1, err, sizeof(err));
	strbuf_init(out);
	state_format(st, out);
}

/* st (read whole from in) and the same text read for the name want. */
static void
named_alike(const struct strbuf *in, char *const *want, int whole_r,
	    const char *whole_err)
{
	struct cpuset on = CPUSET_INIT, a = CPUSET_INIT, b = CPUSET_INIT;
	struct alloc_state w, n;
	struct strbuf fw, fn;
	char err[256] = "";
	int r;

	r = state_parse_named(&n, in->buf, in->len, want, 1, err,
			      sizeof(err));
	if (r != whole_r || strcmp(err, whole_err) != 0)
		abort();
	if (r != 0)
		return;
	if (state_parse(&w, in->buf, in->len, err, sizeof(err)) != 0)
		abort();
	cpuset_set_range(&on, 0, 4095);
	state_available(&w, &on, NULL, &a);
	state_available(&n, &on, NULL, &b);
	if (!cpuset_equal(&a, &b))
		abort();
	state_shared(&w, &on, &a);
	state_shared(&n, &on, &b);
	if (!cpuset_equal(&a, &b))
		abort();
	strbuf_init(&fw);
	strbuf_init(&fn);
	state_format(&w, &fw);
	state_format(&n, &fn);
	if (fw.len != fn.len || memcmp(fw.buf, fn.buf, fw.len) != 0)
		abort();
	strbuf_free(&fw);
	strbuf_free(&fn);
	text_without(&w, want, &fw);
	text_without(&n, want, &fn);
	if (fw.len != fn.len || memcmp(fw.buf, fn.buf, fw.len) != 0)
		abort();
	strbuf_free(&fw);
	strbuf_free(&fn);
	state_free(&w);
	state_free(&n);
	cpuset_free(&on);
	cpuset_free(&a);
	cpuset_free(&b);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct alloc_state st, st2;
	struct strbuf in, f1, f2;
	struct kstate ks;
	char err[256];
	uint32_t sum;
	int r;

	strbuf_init(&in);
	strbuf_printf(&in, "cpm-alloc-state 3\nchecksum xxh64:%016llx\n",
		      (unsigned long long)xxh64(0, data, size));
	strbuf_add(&in, (const char *)data, size);
	err[0] = '\0';
	r = state_parse(&st, in.buf, in.len, err, sizeof(err));
	{
		/* The name of the input's first entry line, or none. */
		const char *e = memmem(data, size, "entry ", 6);
		char name[64] = "x", *want[] = { name };
		size_t k = 0;

		while (e && k + 1 < sizeof(name) &&
		       e + 6 + k < (const char *)data + size &&
		       e[6 + k] != ' ' && e[6 + k] != '\n')
			name[k] = e[6 + k], k++;
		if (e && k)
			name[k] = '\0';
		named_alike(&in, want, r, err);
	}
	if (r == 0) {
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
