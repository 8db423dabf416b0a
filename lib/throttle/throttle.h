/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * CFS throttling reports: snapshots of every group's cpu.stat counters,
 * differences between two snapshots that survive counter resets and the
 * kernel's 32-bit period counters wrapping, a snapshot file format for
 * cron jobs, Kubernetes path recognition, and the Prometheus text format.
 *
 * Terminology:
 *   sample   one group's counters and limit at one instant
 *   snapshot the samples of every collected group at one instant
 *   window   the time between two snapshots; rates (ratio of the window,
 *            usage in CPUs) need one, cumulative counters do not
 *   reset    a group whose counters restarted inside the window (it was
 *            created or recreated, or its counters went backwards): its
 *            window values are its counters since the restart
 */
#ifndef CPM_THROTTLE_H
#define CPM_THROTTLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/strbuf.h"
#include "cgroup/cgctrl.h"
#include "cgroup/cgroup.h"
#include "throttle/thrpsi.h"

struct thr_sample {
	char *group;		/* canonical path, "" for the root */
	uint64_t ino;		/* directory inode: tells a recreated group */
	int64_t quota_us;	/* -1 unlimited */
	uint64_t period_us;
	int64_t nr_periods;	/* as printed by the kernel (may be negative) */
	int64_t nr_throttled;
	uint64_t throttled_ns;
	uint64_t usage_ns;
	int64_t nr_bursts;	/* as printed (an int, like nr_periods) */
	uint64_t burst_ns;
	struct thr_psi psi[THR_PSI_NRES];	/* has 0: no file */
	/* together, not between the numbers */
	bool has_limit;		/* a finite quota on the group itself */
	bool has_bandwidth;	/* cpu.stat had nr_periods */
	bool has_usage;
	bool has_burst;		/* cpu.stat had nr_bursts (Linux 5.14) */
};

struct thr_snap {
	uint64_t realtime_us;	/* wall clock when taken (for --since) */
	uint64_t mono_us;	/* monotonic clock when taken */
	int version;		/* cgroup version of the cpu hierarchy */
	char hier[CG_PATH_MAX];	/* the cpu hierarchy's path */
	struct thr_psi node[THR_PSI_NRES];	/* /proc/pressure; has 0: none */
	struct thr_sample *v;	/* sorted by group */
	size_t n, cap;
	struct arena names;	/* the samples' groups */
};

void thr_snap_init(struct thr_snap *s);
void thr_snap_free(struct thr_snap *s);
/* A new sample of group (copied) at the end of s, zeroed; NULL when out
 * of memory.  The caller keeps s sorted. */
struct thr_sample *thr_snap_add(struct thr_snap *s, const char *group);

/*
 * Which groups thr_collect() samples: below each of groups[] (every
 * group, the named one included), or, with ngroups == 0, the whole
 * hierarchy: every group when all is set, else only groups with a
 * finite CPU quota of their own.
 */
struct thr_select {
	const char *const *groups;
	size_t ngroups;
	bool all;
	bool cumulative;	/* for a report without a window: leave out
				 * what only differences use (ino, usage) */
	unsigned int psi;	/* the groups' pressure files to read:
				 * bits 1 << enum thr_psi_res */
	const char *proc_root;	/* the node's /proc/pressure below it
				 * (NULL: /); read when psi is not 0 */
};

/*
 * Take a snapshot of the cpu hierarchy.  Groups that vanish while being
 * read are left out.  Returns 0, -ENOENT (a named group does not exist),
 * -EBADMSG (a cgroup file the kernel would not write), -EINVAL (bad
 * group path) or -errno, with a message in err.
 */
int thr_collect(const struct cg_hier *h, const struct thr_select *sel,
		struct thr_snap *s, char *err, size_t errlen);

/*
 * The parts of thr_collect(), for a collector that keeps its groups
 * between snapshots (thrwatch.h): thr_snap_start() empties s and stamps
 * it with the hierarchy and the clocks; thr_sample() adds group (whose
 * cpu files are where at says, its inode ino, 0 for "stat it") when sel
 * reports it, reading through the kept files fds (NULL: none);
 * thr_snap_finish() sorts.  thr_sample() returns 0, -EBADMSG, -ENOMEM,
 * or -ESTALE when a kept file failed (see cg_cpu_quota_read_fds()).
 */
void thr_snap_start(const struct cg_hier *h, struct thr_snap *s);
/* cg_walk() over the cpu groups sel selects: all, or each of its GROUPs. */
int thr_walk(const struct cg_hier *h, const struct thr_select *sel,
	     cg_walk_fn fn, void *arg, char *err, size_t errlen);
int thr_sample(const struct cg_hier *h, const struct thr_select *sel,
	       struct thr_snap *s, const char *group, const struct cg_at *at,
	       uint64_t ino, struct cg_cpu_fds *fds, char *err, size_t errlen);
void thr_snap_finish(struct thr_snap *s);
/*
 * The node's pressure into s when sel reads pressure (else none): 0, or
 * -EBADMSG for a malformed /proc/pressure file (message in err).
 */
int thr_snap_node(const struct thr_select *sel, struct thr_snap *s,
		  char *err, size_t errlen);

/*
 * Add to s the samples of old whose groups lie outside groups[] (neither
 * one of them nor below one), so that a snapshot written by a run over
 * some groups keeps what other runs recorded.  Returns 0 or -ENOMEM.
 */
int thr_snap_keep_outside(struct thr_snap *s, const struct thr_snap *old,
			  const char *const *groups, size_t ngroups);

/* The sample of group in s (sorted), or NULL. */
const struct thr_sample *thr_snap_find(const struct thr_snap *s,
				       const char *group);

/*
 * Snapshot file (thrsnap.c): a text format, "cpm-throttle-snapshot 1"
 * first and an "end COUNT" line last, so that a truncated or foreign file
 * is refused.  thr_snap_format() appends it to sb; thr_snap_parse() reads
 * text into s and returns 0, -ENOMEM or -EBADMSG with the line number and
 * reason in err.  thr_snap_save() replaces the file path with s
 * (write_file_atomic(), a piece at a time): 0 or -errno.
 * thr_snap_load() reads it in pieces: what thr_snap_parse() returns, or
 * -ENOENT, -EISDIR, -EFTYPE_CPM (not a regular file), -EILSEQ (a NUL
 * byte: not text), -EFBIG (over THR_SNAP_MAX), -errno.
 */
void thr_snap_format(const struct thr_snap *s, struct strbuf *sb);
int thr_snap_parse(const char *text, struct thr_snap *s, char *err,
		   size_t errlen);
int thr_snap_save(const char *path, const struct thr_snap *s);
int thr_snap_load(const char *path, struct thr_snap *s, char *err,
		  size_t errlen);

/* Kubernetes identity of a kubepods group, "" where unknown. */
struct thr_k8s {
	char qos[16];		/* Guaranteed, Burstable, BestEffort */
	char pod[64];		/* pod UID with dashes */
	char container[128];	/* container ID, runtime prefix removed */
};

/*
 * Recognise the kubelet's cgroup layouts below a "kubepods" (cgroupfs
 * driver: kubepods/burstable/pod<UID>/<ID>) or "kubepods.slice"
 * component (systemd driver: kubepods.slice/kubepods-burstable.slice/
 * kubepods-burstable-pod<UID_>.slice/cri-containerd-<ID>.scope).
 * Returns true when group is at or below kubepods.
 */
bool thr_k8s_parse(const char *group, struct thr_k8s *k);

/* Whose a group is, filled by a caller for the rows it reports
 * (cpm-throttle's select_rows()). */
struct thr_ident {
	struct thr_k8s k8s;
	char unit[256];		/* systemd unit, "" where none */
};

/* One reported group. */
struct thr_row {
	const char *group;	/* points into the current snapshot */
	size_t seq;		/* its index there, i.e. in group order */
	uint64_t periods;	/* in the window, or cumulative */
	uint64_t throttled;
	double ratio;		/* throttled / periods; 0 without periods */
	double throttled_s;
	double limit;		/* CPUs; < 0 unlimited */
	double usage;		/* CPUs over the window; < 0 unknown */
	uint64_t bursts;	/* in the window, or cumulative */
	double burst_s;
	bool has_burst;
	bool reset;		/* counters restarted inside the window */
	bool pinned;		/* exclusive cpuset (set by the caller) */
	/* cumulative counters, for Prometheus */
	uint64_t cum_periods;
	uint64_t cum_throttled;
	double cum_throttled_s;
	uint64_t cum_bursts;
	double cum_burst_s;
	/*
	 * Pressure: the share of the window (without one, avg10) in which
	 * some or all tasks waited, -1 where unknown, and the totals in
	 * seconds (Prometheus), per resource.
	 */
	double psi_some[THR_PSI_NRES], psi_full[THR_PSI_NRES];
	double psi_some_s[THR_PSI_NRES], psi_full_s[THR_PSI_NRES];
	/*
	 * Set by the caller for the rows it reports, NULL: nothing known.
	 * Apart from the row, which is sorted and filtered: 10,000 rows
	 * with it inside took 5.6 MB.
	 */
	const struct thr_ident *ident;
};

/* r's names: r->ident, or none (every name ""). */
const struct thr_ident *thr_row_ident(const struct thr_row *r);

/*
 * Rows for every sample of cur.  old == NULL: cumulative counters (usage
 * unknown).  Otherwise the difference from old over window_us of wall
 * time (0: unknown, then usage is unknown too); 32-bit wrap-around of the
 * period counters is undone, and a group that is new, recreated (another
 * inode) or whose counters went backwards (by usage, throttled time, or a
 * 32-bit period difference of 2^31 or more) counts as reset.  Rows come sorted by ratio, highest
 * first, then by group.  Returns 0 or -ENOMEM.
 */
int thr_rows(const struct thr_snap *old, const struct thr_snap *cur,
	     uint64_t window_us, struct thr_row **rowsp, size_t *nrows);

/*
 * Append the Prometheus text exposition of rows to sb: the three
 * counters (cumulative, as the kernel counts them), the limit gauge for
 * limited groups and, when windowed, the ratio gauge; the burst counters
 * of groups whose cpu.stat has them; the pressure counters (cAdvisor's
 * container_pressure_RES_waiting/stalled_seconds_total, "some" and
 * "full" totals) of groups with pressure files.  Labels: cgroup,
 * id (cAdvisor's: "/" and the path), when k8s is set and known, qos,
 * pod and uid (both the pod UID) and container, and unit when the row
 * has one.  No timestamps.
 */
void thr_prom(const struct thr_row *rows, size_t n, bool windowed, bool k8s,
	      struct strbuf *sb);

/*
 * Append the report's own metrics: the node's pressure counters (node
 * of cur, where known), the time of the run (cur's wall clock) and,
 * with window_us > 0, the window's length.
 */
void thr_prom_node(const struct thr_snap *cur, uint64_t window_us,
		   struct strbuf *sb);

/*
 * The groups already warned about, so that --watch says a thing about a
 * group once, not at every interval.  Bounded: past THR_WARNED_MAX
 * groups the one remembered longest is forgotten (and may be warned
 * about again), so that a watch over ever new groups does not grow.
 */
#define THR_WARNED_MAX 4096
struct thr_warned {
	char **name;		/* a ring of up to THR_WARNED_MAX names */
	size_t n, next;
};

/*
 * True when group was seen before; otherwise remembers it and returns
 * false (also when memory runs out: better a repeated warning than none).
 */
bool thr_warned_once(struct thr_warned *w, const char *group);
void thr_warned_free(struct thr_warned *w);

/*
 * A throttling ratio as --min-ratio and --fail-above take it: a decimal
 * fraction ("0.25", ".25", "1") or a percentage ("25%"), from 0 to 1.  Returns 0, -EINVAL for text that
 * is neither, -ERANGE outside 0..1.
 */
int thr_ratio_parse(const char *s, double *out);

/*
 * Keep the rows whose ratio is at least min_ratio (negative: every row),
 * then the first top of them (0: all), in their order.  Returns how many remain at the front of rows.
 */
size_t thr_filter(struct thr_row *rows, size_t n, double min_ratio,
		  size_t top);

/*
 * The same, and with min_pressure >= 0 only the rows whose cpu pressure
 * (psi_some[THR_PSI_CPU]) is at least min_pressure: a row without
 * pressure is left out then.
 */
size_t thr_filter_psi(struct thr_row *rows, size_t n, double min_ratio,
		      double min_pressure, size_t top);

/* The largest --since snapshot read (far above any real one). */
#define THR_SNAP_MAX (64u << 20)

#endif
