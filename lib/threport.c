// SPDX-License-Identifier: GPL-2.0-or-later
#include <string.h>

#include "threport.h"

bool
thr_snap_of(const struct thr_snap *s, const struct cg_hier *h)
{
	return s->version == cg_version(h, CG_CPU) &&
	       strcmp(s->hier, h->ctrl[CG_CPU].path) == 0;
}

uint64_t
thr_window_us(const struct thr_snap *old, const struct thr_snap *cur,
	      bool sampled)
{
	if (sampled)
		return cur->mono_us - old->mono_us;
	return cur->realtime_us > old->realtime_us ?
	       cur->realtime_us - old->realtime_us : 0;
}

bool
thr_pinned_throttled(const struct cg_hier *h, const struct thr_row *r)
{
	return r->limit >= 0 && r->throttled > 0 &&
	       cg_cpuset_exclusive(h, r->group);
}

bool
thr_crossed(const struct thr_row *rows, size_t n, double fail_above)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (fail_above >= 0 && rows[i].ratio > fail_above)
			return true;
	return false;
}
