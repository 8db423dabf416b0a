/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Isolating CPUs: moving everything that can move off them (threads,
 * the unbound workqueues, device interrupts), keeping them out of deep
 * C-states and at full frequency, and putting back exactly what was
 * there.
 *
 * Terminology:
 *   holder      one isolation: a name (cpm-pin's own, an allocation's)
 *               with its CPUs, and a scope.
 *   scope       0: the whole machine; a PID: only the threads of that
 *               process's tree, and nothing else (no workqueue, knob or
 *               interrupt is touched).
 *   away set    of a thread: the union of the CPUs of the holders whose
 *               scope covers it; of the machine: of the holders of scope
 *               0.
 *   target      what a value should be under the away set: a thread's
 *               original affinity less its away set (left as it was when
 *               nothing is left: its affinity already lies inside, it is
 *               the work placed there); a workqueue cpumask likewise;
 *               pm_qos_resume_latency_us "n/a" (no C-state with an exit
 *               latency) and scaling_governor "performance" on a CPU of
 *               the away set, the original elsewhere.
 *   ours        a value that still reads as the original or as what cpm
 *               last wrote (or the one before, for a change cut short):
 *               anything else was changed by someone else since, and is
 *               left alone.
 *
 * Per-CPU kernel threads (PF_NO_SETAFFINITY) cannot move and are counted,
 * not moved.  Threads are visited in passes over /proc until a pass finds
 * nothing to move (repin_next() decides, as for cpm-pin -p): a thread
 * created meanwhile by one not moved yet is caught by the next pass.
 *
 * The journal (env CPM_ISOLATE_JOURNAL) keeps every original, written
 * (temporary file, fsync, rename) before the values it names change,
 * under an flock(2) on JOURNAL.lock:
 *
 *   cpm-isolate-journal 1
 *   checksum fnv1a64:HEX16          (over every byte after this line)
 *   holder NAME CPULIST SCOPE       (NAME %-escaped)
 *   task TID START ORIG NOW WAS     (cpulists, "-" empty; NOW and WAS
 *                                    "~" for none)
 *   file PATH ORIG NOW WAS          ("=" and the %-escaped value, or
 *                                    "~" for none)
 *   unit NAME ORIG NOW WAS          (a systemd slice or scope right
 *                                    below -.slice: its AllowedCPUs as
 *                                    a file's value, "=" alone for
 *                                    every CPU)
 *
 * Interrupts are the IRQ journal's (machine/irq.h), held there under the
 * name "isolate:NAME" by each holder of scope 0.  A running irqbalance
 * is a file too: PATH its socket (run/irqbalance/irqbalance<PID>.sock),
 * the value its banned cpulist, read and set over the socket
 * (machine/irqbalance.h); its target is the original plus the away set.
 *
 * On a systemd host (live, /run/systemd/system), the top-level slices
 * and scopes (init.scope, system.slice, user.slice, machine.slice, ...:
 * the groups right below the cgroup v2 root) get AllowedCPUs less the
 * machine's away set as runtime properties over D-Bus (SetUnitProperties
 * runtime=true), so that new services start off the CPUs; an original
 * of every CPU ("") is put back as an empty AllowedCPUs.  A unit that
 * holds work placed on some of the CPUs (a group below it whose own
 * cpuset.cpus lies on them: a service with AllowedCPUs, a container; or
 * a thread whose affinity lies inside them) keeps those CPUs, or cgroup
 * v2 would cut that work's CPUs to the unit's; the report says so
 * (ISO_PINNED), since new services may start there.  Without
 * systemd, or when D-Bus does not answer, no unit is journaled.  Only
 * scope 0 touches them, as for every file.
 */
#ifndef CPM_ISOLATE_H
#define CPM_ISOLATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "base/cpuset.h"
#include "machine/irq.h"
#include "machine/sysroot.h"

#define ISOLATE_JOURNAL_DEFAULT "/var/lib/cpm/isolate.journal"

/* An outcome's error for a value changed by someone else since. */
#define ISO_CHANGED 1
/*
 * Not an error: a systemd unit (.name, without "unit:") keeps the CPUs
 * in .to, because groups below it are pinned there (cgroup v2 would cut
 * them to its CPUs).
 */
#define ISO_PINNED 2

struct iso_opts {
	const struct sysroot *root;	/* proc and sys are read and written
					 * below it */
	const char *journal;
	const char *irq_journal;	/* NULL: interrupts are left alone */
	const char *holder;		/* NULL in isolate_release(): all */
	pid_t scope;			/* 0: the whole machine */
	const struct cpuset *online;
	bool dry_run;			/* plan and report, change nothing */
	/* Called before each change (tests kill the process there). */
	void (*before_change)(void *arg);
	void *arg;
};

/* One value changed, or refused, or left alone. */
struct iso_change {
	pid_t tid;		/* a thread; 0 for a file */
	char name[128];		/* the thread's command, or the file's path */
	char from[64], to[64];	/* before, and what was asked */
	bool kthread;
	int error;		/* 0, -errno refused, ISO_CHANGED,
				 * ISO_PINNED */
};

struct iso_report {
	struct iso_change *v;
	size_t n;
	unsigned int moved;	/* threads moved (user and kernel) */
	unsigned int kmoved;	/* of which kernel threads */
	unsigned int inside;	/* threads already inside the CPUs */
	unsigned int percpu;	/* per-CPU kernel threads that cannot move */
	unsigned int refused;	/* changes the kernel refused */
	unsigned int changed;	/* values changed by someone else since */
	unsigned int files;	/* files written */
	unsigned int passes;	/* passes over the threads */
	bool irqs;		/* interrupts were moved (irq says how) */
	int irq_error;		/* -errno of the IRQ journal's change */
	char irq_err[256];
	struct irq_report irq;
};

void iso_report_free(struct iso_report *rep);

/*
 * A systemd unit's AllowedCPUs under away (orig a cpulist, "" for every
 * CPU): orig less away, every online CPU less away for "", or orig as it
 * is when that leaves nothing (or online is NULL for "").  Returns 0 or
 * -EINVAL for an orig that is no cpulist.
 */
int isolate_unit_target(const char *orig, const struct cpuset *away,
			const struct cpuset *online, struct cpuset *want);

/*
 * Add (or replace) the holder o->holder with cpus, journal every
 * original, and move everything under every holder's away set.  Returns
 * 0 (rep says what moved, what was left and what the kernel refused);
 * -EINVAL when the away set would leave no online CPU (err says so,
 * nothing changed); -EBADMSG for a damaged journal; another -errno when
 * the journal cannot be written (nothing changed); -EAGAIN when threads
 * kept changing through every pass.
 */
int isolate_apply(const struct iso_opts *o, const struct cpuset *cpus,
		  struct iso_report *rep, char *err, size_t errlen);

/*
 * Drop o->holder (NULL: every holder).  Values the remaining holders
 * still keep stay moved; when none remains, every journaled value that
 * is still ours gets its original back and the journal is removed,
 * unless one could not be written back (-EIO: the journal stays for
 * another try).  A missing journal, or a holder it does not name, is not
 * an error: *found tells.
 */
int isolate_release(const struct iso_opts *o, bool *found,
		    struct iso_report *rep, char *err, size_t errlen);

/*
 * The CPUs the journal's holders isolate now (scope 0 and scoped) into
 * cpus; 0, or -errno with err set.  No journal is an empty set.
 */
int isolate_held(const char *journal, struct cpuset *cpus, char *err,
		 size_t errlen);

#endif
