/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What a throttle report covers and flags, decided apart from how it is
 * printed: whether a saved snapshot belongs to the hierarchy read now,
 * the window between two snapshots, the groups whose exclusive CPUs sit
 * idle under a quota, and whether a --fail-above threshold was crossed.
 */
#ifndef CPM_THREPORT_H
#define CPM_THREPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cgroup/cgroup.h"
#include "throttle/throttle.h"

/* True when snapshot s was taken of the cpu hierarchy of h. */
bool thr_snap_of(const struct thr_snap *s, const struct cg_hier *h);

/*
 * The window from old to cur: the monotonic time between the samples of
 * one run (sampled: --interval, --watch), else the wall-clock time between
 * two runs (--since), 0 when that clock went back.
 */
uint64_t thr_window_us(const struct thr_snap *old, const struct thr_snap *cur,
		       bool sampled);

/*
 * The parents found to hold no cpuset files for their children while
 * one report's rows are looked at (thr_pinned_throttled()), so that
 * each of their other children costs no system call: sorted, each
 * allocated.  Zeroed to start; thr_pins_free() empties it.
 */
struct thr_pins {
	char **gone;
	size_t n, cap;
};

void thr_pins_free(struct thr_pins *p);

/*
 * True when r's group has a CPU quota, was throttled, and has an
 * exclusive cpuset in h (v1 cpu_exclusive, v2 a partition root): its
 * exclusive CPUs sit idle while the quota stops it.  With pins (may be
 * NULL), a group whose cpuset file is missing has its parent looked at
 * once (cg_cpuset_none_below()), and the parent's other children are
 * answered from pins.
 */
bool thr_pinned_throttled(const struct cg_hier *h, const struct thr_row *r,
			  struct thr_pins *pins);

/* True when a row's ratio is above fail_above (negative: no threshold). */
bool thr_crossed(const struct thr_row *rows, size_t n, double fail_above);

/* The same, or a row's cpu pressure (PSI_SOME) above fail_pressure. */
bool thr_crossed_psi(const struct thr_row *rows, size_t n, double fail_above,
		     double fail_pressure);

/*
 * A --fail-above argument: a comma-separated list of R or ratio=R (the
 * throttling ratio) and pressure=P (cpu PSI_SOME), each as
 * thr_ratio_parse() takes it; what is not named is left as it was.
 * Returns 0 or -EINVAL.
 */
int thr_fail_parse(const char *s, double *ratio, double *pressure);

#endif
