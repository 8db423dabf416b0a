/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The burst engine behind "cpm-quota burst" and "cpm-quota restore":
 * raise the CPU quota of each group named to it by a factor for a while,
 * at most once per cooldown per group, then put it back, recording every
 * original in the burst journal (burst.h) before any quota changes.
 *
 * Names come one at a time (burst_queue()) or, one per line, from a file
 * descriptor (burst_read()); every batch of names read together is boosted
 * in one journal transaction (burst_boost()).  Boosted groups sit on an
 * active list until their time is due (burst_restore_due()).  burst_run()
 * is the whole loop: read, boost, restore what is due, until the input
 * ends and nothing is raised, or a stop is asked for.
 *
 * The engine never prints: every warning goes, as one line without the
 * tool's name, to the report's warn callback, and the report's status
 * keeps the last problem (BURST_FAILED or BURST_BADINPUT, the numbers of
 * the exit codes for them).  It never exits either: out of memory, it
 * puts back what it raised and stops (burst_run() returns, oom is set).
 *
 * Two guards (burstguard.h) may hold a raise back: the node's headroom,
 * judged once per batch (a batch refused is said in one line, and its
 * groups stay free to be raised by the next), and each group's budget (a
 * group that has used it up is said once and not queued again until its
 * window has passed).
 *
 * Memory is bounded: at most max_groups names are remembered (for the
 * cooldown); when the table is full, names whose cooldown has passed and
 * which are not raised are forgotten, and if none can be, the new name is
 * skipped with a warning.  A line longer than BURST_LINE_MAX ends the
 * input (endless input without newlines, such as /dev/zero, is not a
 * list of groups), and of the lines holding a NUL byte only the first
 * BURST_BAD_LINES_WARNED are warned of, so that no input makes the
 * warnings grow without bound.
 */
#ifndef CPM_BURSTLOOP_H
#define CPM_BURSTLOOP_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "quota/burst.h"
#include "quota/burstguard.h"

struct cg_hier;

/*
 * Status values: the numbers of the exit codes they lead to.  Refused: a
 * group systemd owns that cannot be raised through systemd.
 */
enum { BURST_OK = 0, BURST_FAILED = 1, BURST_BADINPUT = 2,
       BURST_REFUSED = 3 };

#define BURST_GROUPS_MAX 65536u
#define BURST_LINE_MAX 65536u
#define BURST_BAD_LINES_WARNED 10u

/* Where the engine's warnings go, and how it went. */
struct burst_report {
	void (*warn)(void *arg, const char *msg);	/* NULL: dropped */
	void *arg;
	bool verbose;		/* also report each change */
	int status;		/* BURST_OK or the last problem */
};

/* One group the engine has seen. */
struct burst_group {
	char *name;
	struct burst_group *next;	/* hash chain */
	bool boosted;		/* on the active list */
	bool queued;		/* in the current batch */
	bool ever;		/* last_start is valid */
	uint64_t last_start;	/* monotonic us */
	uint64_t restore_at;
	uint64_t grant_us;	/* this raise's length (the budget's cut) */
	int64_t began;		/* its budget window's beginning */
	uint64_t budget_until;	/* monotonic: budget used up until then */
	struct burst_entry e;	/* while boosted: what the journal says */
};

struct burst_engine {
	/* set by burst_engine_init(), then by the caller */
	const struct cg_hier *h;
	const char *journal;	/* journal path */
	const char *groups;	/* register of raised groups (burst.h) */
	int64_t wait_ms;	/* journal lock; negative: forever */
	int64_t factor_m;	/* factor in thousandths, above 1000 */
	uint64_t for_us, cooldown_us;
	int headroom_pm;	/* idle CPU a raise needs, thousandths; 0 off */
	struct burst_node node;	/* its readings (node.root: where) */
	uint64_t budget_us;	/* raised time per group per window; 0 none */
	uint64_t window_us;
	char *root;		/* journal ROOT key, malloc'ed, freed here */
	pid_t pid;		/* the owner written to the journal */
	uint64_t start;
	size_t max_groups;
	struct burst_report rep;
	/* allocation, replaceable to test running out of memory */
	void *(*realloc_fn)(void *p, size_t n);
	bool oom;		/* an allocation failed */

	/* the group table */
	struct burst_group **tab;
	size_t nbuckets, n;
	uint64_t sweep_at;	/* when a full table may have room again */
	/* raised groups */
	struct burst_group **active;
	size_t nactive, capactive;
	/* the batch being gathered */
	struct burst_group **queue;
	size_t nqueue, capqueue;
	/* the line reader */
	char *line;		/* BURST_LINE_MAX bytes */
	size_t llen;
	bool input_ended;	/* a line too long: stdin read no more */
	unsigned int bad_lines;	/* lines with a NUL byte so far */
};

/*
 * Defaults: factor 2, 500ms, cooldown 5s, wait forever, realloc, neither
 * guard (headroom 0, no budget; the budget window
 * BURST_WINDOW_DEFAULT_US), proc/stat of the live node.
 */
void burst_engine_init(struct burst_engine *b);
/* Free everything the engine holds (it raises and restores nothing). */
void burst_engine_free(struct burst_engine *b);

/*
 * Queue one group name (a path as the user wrote it) for the next batch:
 * 1 queued; 0 skipped (raised, queued or cooling down); -EINVAL for a bad
 * name, -ENOSPC for a full table (warned); -ENOMEM.
 */
int burst_queue(struct burst_engine *b, const char *name, uint64_t now);

/*
 * Raise every queued group in one journal transaction: the originals are
 * on disk before any quota changes.  Groups without a limit, at the
 * kernel's maximum, gone, or raised by another live process are skipped
 * with a warning.  Empties the queue.
 */
void burst_boost(struct burst_engine *b, uint64_t now);

/* Put back every raised group due by now (all of them when all is set). */
void burst_restore_due(struct burst_engine *b, uint64_t now, bool all);

/* The earliest restore time of a raised group, UINT64_MAX when none. */
uint64_t burst_next_due(const struct burst_engine *b);

/*
 * Read once from fd; queue every complete line (taken exactly: only the
 * newline removed; empty lines and lines starting with '#' ignored; NUL
 * bytes and overlong lines refused with a warning), then boost the batch.
 * Returns 1 while more input may come, 0 at its end (or a read error,
 * warned).
 */
int burst_read(struct burst_engine *b, int fd, uint64_t now);

/*
 * The loop: read names from fd (-1: none), boost them, restore what is
 * due, until fd ends and nothing is raised, *stop is set, or memory runs
 * out; then restore everything.  Signals are only taken inside ppoll()
 * with waitmask.  Returns the report's status.
 */
int burst_run(struct burst_engine *b, int fd, const sigset_t *waitmask,
	      volatile sig_atomic_t *stop);

/*
 * Put back journal entry e on hierarchy h when its quota still has the
 * raised value (anything else was changed by someone since and is left).
 * Returns 0 (also for a group that is gone) or -errno after a warning.
 */
int burst_restore_entry(struct burst_report *rep, const struct cg_hier *h,
			const struct burst_entry *e);

/*
 * "cpm-quota restore": put back every entry of the locked journal j whose
 * owner is dead (every entry when force is set), on the hierarchy its ROOT
 * names, removing those done and those of trees that are gone, then
 * commit; their entries in the locked register of raised groups m (NULL:
 * none) go too, when still theirs.  Failures are warned and leave their
 * entries.  Returns the report's status.
 */
int burst_restore_journal(struct burst_journal *j, struct burst_journal *m,
			  bool force, struct burst_report *rep);

#endif
