// SPDX-License-Identifier: GPL-2.0-or-later
/* The settings "cpm-alloc init" records: see allocinit.h. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc/allocinit.h"
#include "base/strbuf.h"

static int
fail(int r, char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int
fail(int r, char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return r;
}

int
alloc_init_reserved(const struct alloc_machine *m,
		    const struct alloc_init *in, struct cpuset *out,
		    char *err, size_t errlen)
{
	const struct ktopo *kt = alloc_machine_kt(m);
	struct alloc_opts o = in->opts;
	unsigned int online;
	int r;

	if (!kt)
		return fail(-ENOMEM, err, errlen, "out of memory");
	online = cpuset_count(&kt->all);
	cpuset_zero(out);
	if (in->reserved) {
		if (!cpuset_subset(in->reserved, &m->topo->online)) {
			struct cpuset off = CPUSET_INIT;
			unsigned int noff = 0;
			char *l = NULL;

			if (cpuset_copy(&off, in->reserved) == 0) {
				cpuset_andnot(&off, &m->topo->online);
				l = cpuset_to_list(&off);
				noff = cpuset_count(&off);
			}
			cpuset_free(&off);
			if (l == NULL)
				return fail(-ENOMEM, err, errlen,
					    "out of memory");
			r = fail(-EINVAL, err, errlen, "invalid --reserved "
				 "cpulist: %s %s %s offline",
				 noff == 1 ? "CPU" : "CPUs", l,
				 noff == 1 ? "is" : "are");
			free(l);
			return r;
		}
		if (cpuset_copy(out, in->reserved) < 0)
			return fail(-ENOMEM, err, errlen, "out of memory");
	}
	/* The options are recorded only, so validate them alone. */
	if (o.distribute_auto) {
		int tpc = kt->num_cores ? kt->num_cpus / kt->num_cores : 1;

		o.k.distribute = o.k.full_cores ? tpc : 1;
	}
	if (ktake_opts_check(kt, &o.k, err, errlen) < 0)
		return -EINVAL;
	if (in->reserve_n == 0)
		return 0;
	/* All of them would leave pods no CPU, not even a shared one. */
	if (in->reserve_n >= online)
		return fail(-ENOSPC, err, errlen, "cannot reserve %u CPUs: the "
			    "machine has %u online, and pods need at least "
			    "one", in->reserve_n, online);
	r = kubelet_take_reserved(kt, (int)in->reserve_n, &o.k, out, err,
				  errlen);
	if (r == -ENOMEM)
		return fail(-ENOMEM, err, errlen, "out of memory");
	return r < 0 ? -ENOSPC : 0;
}

bool
alloc_init_same(const struct alloc_state *st, const struct alloc_init *in,
		const struct cpuset *reserved)
{
	struct strbuf a, b;
	bool same;

	strbuf_init(&a);
	strbuf_init(&b);
	alloc_opts_format(&in->opts, &a);
	alloc_opts_format(&st->policy, &b);
	same = !a.oom && !b.oom && cpuset_equal(reserved, &st->reserved) &&
		in->strict == st->strict && in->nresmem == st->nresmem &&
		(!in->nresmem || memcmp(in->resmem, st->resmem,
					(size_t)in->nresmem *
					sizeof(*in->resmem)) == 0) &&
		strcmp(a.buf ? a.buf : "", b.buf ? b.buf : "") == 0;
	strbuf_free(&a);
	strbuf_free(&b);
	return same;
}

int
alloc_init_reset(struct alloc_state *st, const struct topo *t,
		 const struct alloc_init *in, const struct cpuset *reserved)
{
	int i;

	for (i = st->nentries - 1; i >= 0; i--)
		state_remove(st, i);
	topo_print_free(&st->print);
	st->have_print = false;
	if (topo_print_make(&st->print, t) < 0 ||
	    cpuset_copy(&st->reserved, reserved) < 0)
		return -ENOMEM;
	st->have_print = true;
	st->strict = in->strict;
	st->policy = in->opts;
	free(st->resmem);
	st->resmem = NULL;
	st->nresmem = 0;
	if (in->nresmem) {
		size_t sz = (size_t)in->nresmem * sizeof(*in->resmem);

		st->resmem = malloc(sz);
		if (!st->resmem)
			return -ENOMEM;
		memcpy(st->resmem, in->resmem, sz);
		st->nresmem = in->nresmem;
	}
	return 0;
}
