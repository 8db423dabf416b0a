// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cgroup/cgctrl.h"
#include "throttle/threport.h"

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

void
thr_pins_free(struct thr_pins *p)
{
	for (size_t i = 0; i < p->n; i++)
		free(p->gone[i]);
	free(p->gone);
	memset(p, 0, sizeof(*p));
}

/* Where parent (len bytes at s) is in p->gone, or would go: *found
 * tells which. */
static size_t
pins_find(const struct thr_pins *p, const char *s, size_t len, bool *found)
{
	size_t lo = 0, hi = p->n;

	*found = false;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const char *g = p->gone[mid];
		int c = strncmp(g, s, len);

		if (c == 0 && g[len] != '\0')
			c = 1;	/* g is longer: after s */
		if (c == 0) {
			*found = true;
			return mid;
		}
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Remember parent (allocated, taken) at position at; a failure to is
 * only a lost saving. */
static void
pins_add(struct thr_pins *p, char *parent, size_t at)
{
	if (p->n == p->cap) {
		size_t ncap = p->cap ? 2 * p->cap : 16;
		char **ng = realloc(p->gone, ncap * sizeof(*ng));

		if (!ng) {
			free(parent);
			return;
		}
		p->gone = ng;
		p->cap = ncap;
	}
	memmove(p->gone + at + 1, p->gone + at, (p->n - at) * sizeof(*p->gone));
	p->gone[at] = parent;
	p->n++;
}

bool
thr_pinned_throttled(const struct cg_hier *h, const struct thr_row *r,
		     struct thr_pins *pins)
{
	const char *slash;
	size_t len, at = 0;
	bool found = false;
	int x;

	if (r->limit < 0 || r->throttled == 0)
		return false;
	/* The parent: the group's path up to its last '/'. */
	slash = strrchr(r->group, '/');
	len = slash ? (size_t)(slash - r->group) : 0;
	if (pins)
		at = pins_find(pins, r->group, len, &found);
	if (found)
		return false;
	x = cg_cpuset_exclusive(h, r->group);
	if (x == -ENOENT && pins) {
		char *parent = strndup(r->group, len);

		if (parent && cg_cpuset_none_below(h, parent))
			pins_add(pins, parent, at);
		else
			free(parent);
	}
	return x > 0;
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

bool
thr_crossed_psi(const struct thr_row *rows, size_t n, double fail_above,
		double fail_pressure)
{
	if (thr_crossed(rows, n, fail_above))
		return true;
	for (size_t i = 0; i < n && fail_pressure >= 0; i++)
		if (rows[i].psi_some[THR_PSI_CPU] > fail_pressure)
			return true;
	return false;
}

int
thr_fail_parse(const char *s, double *ratio, double *pressure)
{
	char buf[256], *save = NULL, *item;
	double r = *ratio, p = *pressure;

	if (strlen(s) >= sizeof(buf) || *s == '\0')
		return -EINVAL;
	strcpy(buf, s);
	if (buf[strlen(buf) - 1] == ',' || buf[0] == ',' || strstr(buf, ",,"))
		return -EINVAL;
	for (item = strtok_r(buf, ",", &save); item != NULL;
	     item = strtok_r(NULL, ",", &save)) {
		if (strncmp(item, "pressure=", 9) == 0) {
			if (thr_ratio_parse(item + 9, &p) < 0)
				return -EINVAL;
		} else if (thr_ratio_parse(strncmp(item, "ratio=", 6) == 0
					   ? item + 6 : item, &r) < 0) {
			return -EINVAL;
		}
	}
	*ratio = r;
	*pressure = p;
	return 0;
}
