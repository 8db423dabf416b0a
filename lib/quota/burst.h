/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The burst journal: every CPU quota that "cpm-quota burst" raised, with
 * the value to put back, so that a process killed at any instant leaves
 * enough behind for "cpm-quota restore".
 *
 * The file is text, one entry per line after a version line:
 *
 *   cpm-burst-journal 2
 *   checksum fnv1a64:HEX16   (FNV-1a 64 of every byte after this line)
 *   PID START ROOT GROUP ORIGINAL PERIOD BOOSTED SINCE
 *   budget ROOT GROUP BEGAN WINDOW USED
 *
 * PID and START (the process start time in clock ticks, field 22 of
 * /proc/PID/stat) name the process that owns the boost, so that a reused
 * PID is not mistaken for it.  ROOT is the --cgroup-root directory or
 * "-" for the live hierarchy; ROOT and GROUP are %-escaped (space,
 * control bytes and '%' as %XX).  ORIGINAL and BOOSTED are quotas in
 * microseconds, PERIOD the period they apply to, SINCE the wall-clock
 * second the boost began.  A journal is trusted only as far as it is
 * checked: a wrong checksum, version 1 (which had none), or an entry
 * whose values the kernel would refuse or whose original is not below
 * its raised value is refused (-EBADMSG), so restore only ever lowers a
 * quota still at its raised value to a value the kernel accepts.
 *
 * A "budget" line (version 3: a file that holds one says so on its first
 * line, a file without says 2, as before) is a group's burst budget
 * window: BEGAN is the wall-clock microsecond it began (the group's first
 * raise in it), WINDOW its length and USED the burst time charged in it,
 * both in microseconds.  Burst keeps them in the register of raised
 * groups, so that a group's budget holds whatever journal each burst
 * uses, and charges a raise there, committed before the quota changes.
 *
 * Concurrency: every change happens under an exclusive flock(2) on
 * "JOURNAL.lock" (the journal itself is replaced by rename, so it cannot
 * carry the lock), and the new journal is written to a temporary file,
 * fsynced and renamed into place before the caller touches any quota.
 */
#ifndef CPM_BURST_H
#define CPM_BURST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "base/strbuf.h"

#define BURST_JOURNAL_DEFAULT "/var/lib/cpm/burst.journal"
/*
 * The register of raised groups: a file of the journal's format that
 * every burst and restore shares, whatever its journal, holding one
 * entry for each group a burst has raised.  Journals say what to put
 * back; the register says who holds a group's raise and its original,
 * so that a burst with another journal leaves a running burst's group
 * alone and raises a killed one's from the original, never from the
 * raised value.  Locked after the journal, never before.
 */
#define BURST_GROUPS_DEFAULT "/var/lib/cpm/burst.groups"
/* The largest journal read (far above any real one): -EBADMSG. */
#define BURST_JOURNAL_MAX (64u << 20)

struct burst_entry {
	pid_t pid;
	uint64_t start;		/* owner's start time, clock ticks since boot */
	char *root;		/* "-" for the live hierarchy */
	char *group;		/* canonical group path, never the root */
	int64_t orig_quota;	/* microseconds */
	uint64_t period;	/* microseconds */
	int64_t boost_quota;	/* microseconds */
	int64_t since;		/* wall-clock seconds */
	bool deleted;		/* removed: skipped by find and commit */
	/*
	 * Not in the journal: the systemd runtime drop-in files that the
	 * raise made (BURST_DROPIN_*), for its restore to remove.
	 */
	unsigned sd_dropins;
};

#define BURST_DROPIN_FILE 1u	/* system.control/UNIT.d/50-CPUQuota.conf */
#define BURST_DROPIN_DIR  2u	/* system.control/UNIT.d itself */
/* the same two (shifted left by 2) in transient/, for transient units */

/* A group's burst budget window ("budget" lines). */
struct burst_budget {
	char *root;
	char *group;
	int64_t began;		/* wall-clock microseconds */
	uint64_t window;	/* microseconds */
	uint64_t used;		/* microseconds charged in it */
	bool deleted;
};

struct burst_journal {
	char *path;
	int lockfd;		/* -1 when not locked */
	struct burst_entry *v;	/* entries; removed ones stay as holes */
	size_t n, cap;
	uint32_t *hash;		/* open addressing: index + 1, 0 empty */
	size_t hcap;		/* a power of two, at least 2 * n */
	struct burst_budget *bv;	/* budget windows, holes as in v */
	size_t bn, bcap;
	uint32_t *bhash;	/* their index, as hash */
	size_t bhcap;
	bool dirty;		/* changed since loaded */
};

/*
 * Lock the journal at path (creating its directory and lock file when
 * missing) and load it; a missing journal is empty.  Blocks while another
 * process holds the lock.  Returns 0, -EBADMSG for a damaged journal (err
 * names the line), or -errno.  On failure nothing is held.
 */
int burst_journal_open(struct burst_journal *j, const char *path, char *err,
		       size_t errlen);
/*
 * burst_journal_open() waiting wait_ms milliseconds at most for the lock
 * (negative: forever); -ETIMEDOUT names the holder in err.
 */
int burst_journal_open_wait(struct burst_journal *j, const char *path,
			    int64_t wait_ms, char *err, size_t errlen);

/*
 * Lock and load the register of raised groups at path, as
 * burst_journal_open_wait(), for the journal j, which is locked: a
 * register that is j's own file is refused (-EBADMSG), as it would wait
 * for itself.
 */
int burst_register_open(struct burst_journal *m, const struct burst_journal *j,
			const char *path, int64_t wait_ms, char *err,
			size_t errlen);

/*
 * Write the journal back atomically (temporary file, fsync, rename, fsync
 * of the directory) when it changed.  Keeps the lock.  Returns 0 or
 * -errno.
 */
int burst_journal_commit(struct burst_journal *j, char *err, size_t errlen);

/*
 * Parse journal text (modified in place) into j, which must be zeroed or
 * opened.  0, -EBADMSG with err set, or -ENOMEM.
 */
struct strbuf;
int burst_journal_parse(struct burst_journal *j, char *text, size_t len,
			char *err, size_t errlen);
/* Append the journal's text (version line, checksum, entries) to sb. */
void burst_journal_format(const struct burst_journal *j, struct strbuf *sb);

/* Drop the lock and free everything (without writing). */
void burst_journal_close(struct burst_journal *j);

/* Index of the entry for root and group, or -1.  Constant time. */
ssize_t burst_journal_find(const struct burst_journal *j, const char *root,
			   const char *group);

/*
 * Append a copy of e (replacing an entry for the same root and group).
 * Returns 0 or -ENOMEM.
 */
int burst_journal_put(struct burst_journal *j, const struct burst_entry *e);

/*
 * Remove entry i: it becomes a hole (deleted set) that find skips and
 * commit leaves out, so the indexes of the other entries do not move.
 */
void burst_journal_del(struct burst_journal *j, size_t i);

/* Index of the budget window of root and group, or -1. */
ssize_t burst_budget_find(const struct burst_journal *j, const char *root,
			  const char *group);
/* Put a copy of w (replacing root and group's).  0 or -ENOMEM. */
int burst_budget_put(struct burst_journal *j, const struct burst_budget *w);
/* Remove budget window i (a hole, as burst_journal_del()). */
void burst_budget_del(struct burst_journal *j, size_t i);

/*
 * The start time of process pid (field 22 of /proc/PID/stat, read from
 * the live /proc).  Returns 0, -ESRCH when there is no such process, or
 * -EBADMSG.
 */
int burst_proc_start(pid_t pid, uint64_t *start);

/*
 * The ROOT key of entries for hierarchy h: "-" for the live hierarchy,
 * however it was named (discovered, or --cgroup-root naming its mount:
 * the same directory by device and inode), else the tree's real path, so
 * that every cpm process agrees who holds a group's original.  *out is
 * malloc'ed.  0 or -errno.
 */
struct cg_hier;
int burst_root_key(const struct cg_hier *h, char **out);

/* True when the entry's owner (same PID and start time) is still running. */
bool burst_owner_alive(const struct burst_entry *e);

#endif
