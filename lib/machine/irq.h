/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Interrupt isolation: moving device interrupts off CPUs handed out for
 * exclusive use, and putting them back.
 *
 * Terminology:
 *   affinity    the CPUs an IRQ may be delivered to, as the kernel shows
 *               it in /proc/irq/N/smp_affinity_list; new IRQs start from
 *               /proc/irq/default_smp_affinity (a hex mask).
 *   away set    the CPUs that interrupts are kept off: the union of the
 *               CPU lists of every holder (a cpm-pin call, an allocation
 *               taken with --isolate-irqs).
 *   effective   the CPUs the kernel delivers an IRQ to now
 *               (effective_affinity_list, Linux 4.15, not on every
 *               architecture): within the affinity, often one CPU of it.
 *   unmovable   an IRQ whose affinity write the kernel refuses (managed
 *               interrupts of multi-queue devices, per-CPU timers) or
 *               whose read-back still holds an away CPU.
 *   steered     an IRQ a holder sends to chosen CPUs (cpm-pin --irqs-to):
 *               a device's interrupts steered onto CPUs are the work of
 *               whatever runs there, so steering wins over every away
 *               set; the other IRQs still keep off it.
 *
 * The journal keeps every IRQ's affinity from before the first holder, so
 * that the last holder's release, or a restore after a process was killed
 * at any instant, puts back exactly what was there:
 *
 *   cpm-irq-journal 1
 *   checksum fnv1a64:HEX16          (over every byte after this line)
 *   default MASK                    (original default_smp_affinity)
 *   holder NAME CPULIST             (NAME %-escaped)
 *   steer NAME CPULIST IRQLIST      (a holder steering those IRQs to
 *                                    those CPUs: cpm-pin --irqs-to)
 *   irq N CPULIST                   (original smp_affinity_list)
 *
 * It is written (temporary file, fsync, rename, fsync of the directory)
 * before any affinity changes, under an flock(2) on JOURNAL.lock; the
 * journal is removed only after every affinity has been put back.
 */
#ifndef CPM_IRQ_H
#define CPM_IRQ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/cpuset.h"
#include "base/strbuf.h"
#include "machine/sysroot.h"

#define IRQ_JOURNAL_DEFAULT "/var/lib/cpm/irq.journal"

struct irq_info {
	int irq;
	char name[96];		/* its actions' names, ", "-separated; "" none */
	struct cpuset affinity;	/* smp_affinity_list */
	struct cpuset effective;	/* effective_affinity_list */
	bool readable;		/* false: no smp_affinity_list */
	bool parsed;		/* affinity holds what the file says */
	bool effective_known;	/* effective holds what the kernel says */
};

struct irq_table {
	struct irq_info *v;	/* sorted by irq */
	size_t n;
};

/*
 * Every IRQ below root's proc/irq with its affinity and name.  Returns 0,
 * -ENOENT when there is no proc/irq (err says so), -ENOMEM.
 */
int irq_scan(const struct sysroot *root, struct irq_table *t, char *err,
	     size_t errlen);
void irq_table_free(struct irq_table *t);
/* The entry for irq, or NULL. */
const struct irq_info *irq_find(const struct irq_table *t, int irq);

/* What a change did, IRQ by IRQ. */
struct irq_outcome {
	int irq;
	char name[96];
	struct cpuset from, to;	/* before, and as read back after */
	struct cpuset effective;	/* effective_affinity_list after */
	bool effective_known;
	bool effective_outside;	/* effective holds a CPU outside to */
	int error;		/* 0 moved (or nothing to do), -errno refused,
				 * -EAGAIN when the read-back disagrees */
};

struct irq_report {
	struct irq_outcome *v;
	size_t n;
	struct cpuset away;	/* the away set in force afterwards */
	struct cpuset kept;	/* steered IRQs that reach the away set */
	struct cpuset unsteered;	/* irq_steer(): IRQs of irqs not on
					 * the CPUs asked for afterwards */
	bool default_changed;
	int default_error;	/* -errno writing default_smp_affinity */
	size_t failed;		/* restores the kernel refused */
};

void irq_report_free(struct irq_report *rep);

/*
 * Add holder (replacing a holder of that name) with the CPUs away, and
 * move every IRQ off the away set of all holders: an IRQ's affinity
 * becomes its original affinity less the away set, or every online CPU
 * less the away set where nothing of the original is left; the same for
 * default_smp_affinity.  Each write is read back.  Returns 0 (rep says
 * what moved and what the kernel refused); -EINVAL when away would leave
 * no online CPU for interrupts; -EBADMSG for a damaged journal; -ENOENT
 * without proc/irq; another -errno when the journal cannot be written (and
 * then nothing was changed); err says why.
 */
int irq_isolate(const struct sysroot *root, const char *journal,
		const char *holder, const struct cpuset *away,
		const struct cpuset *online, struct irq_report *rep,
		char *err, size_t errlen);

/*
 * Add holder (replacing a holder of that name) steering the IRQs of irqs
 * (a device's: cpm-pin --irqs-to) to the CPUs to: each of them gets the
 * online CPUs of to, whatever the away set (rep->kept names those that
 * reach it), and keeps them until the holder is released, when it gets
 * its original affinity less the away set of the holders left, or the
 * original itself after the last, as irq_release() says.  The journal
 * holds the originals as for irq_isolate().  rep->unsteered names the
 * IRQs of irqs that are not on the online CPUs of to afterwards (the
 * kernel refused, or read back something else: their outcome says; or
 * their affinity cannot be read).  Returns as irq_isolate(); -ENOENT
 * also when an IRQ of irqs is not in proc/irq, -EINVAL when no CPU of to
 * is online.
 */
int irq_steer(const struct sysroot *root, const char *journal,
	      const char *holder, const struct cpuset *irqs,
	      const struct cpuset *to, const struct cpuset *online,
	      struct irq_report *rep, char *err, size_t errlen);

/*
 * Drop holder (NULL: every holder).  When holders remain, IRQs are moved
 * off what they still hold; when none does, every journaled IRQ and
 * default_smp_affinity get their original affinity back and the journal
 * is removed, unless one could not be written back (-EIO: the journal
 * stays for another try).  A missing journal, or a holder it does not
 * name, is not an error: *found tells.  Returns 0 or -errno as
 * irq_isolate().
 */
int irq_release(const struct sysroot *root, const char *journal,
		const char *holder, const struct cpuset *online,
		bool *found, struct irq_report *rep, char *err,
		size_t errlen);

/*
 * With on, irq_isolate(), irq_steer() and irq_release() change nothing:
 * no journal is written or created, no affinity, and the report says
 * what they would do (to: the affinity each IRQ would get).
 */
void irq_dry_run(bool on);

/*
 * How long irq_isolate() and irq_release() wait for the journal's lock,
 * in milliseconds (lock_file()); the default -1 waits as long as it takes.
 */
void irq_journal_wait(int64_t wait_ms);

/*
 * Interrupts taken by each CPU, summed over every /proc/interrupts line
 * with per-CPU columns (device IRQs and the architecture's own, such as
 * LOC and RES).  counts gets [ncpus] totals (CPUs without a column stay
 * 0).  Returns 0, -ENOENT, -EINVAL for a malformed file, -ENOMEM.
 */
int irq_counts_parse(const char *text, uint64_t *counts, int ncpus);
int irq_counts(const struct sysroot *root, uint64_t *counts, int ncpus);

/*
 * One "warning: CPU N took K interrupts in S s (R/s)" line per CPU of cpus
 * whose count rose between the samples before and after (each [ncpus]),
 * taken interval_us apart.  Returns the number of lines, -ENOMEM.
 */
int irq_load_findings(const uint64_t *before, const uint64_t *after,
		      int ncpus, const struct cpuset *cpus,
		      uint64_t interval_us, struct strbuf *out);

/* The IRQs of a device, for irq_check(): expected on the CPUs checked. */
struct irq_owner {
	const char *name;		/* as the operator named it: "eth1" */
	const struct cpuset *irqs;	/* its IRQ numbers */
};

/*
 * Findings about interrupts on cpus, for "cpm-topo check --irqs": one
 * warning naming every device IRQ (by number and name) whose affinity
 * reaches cpus, but those of the owners (the devices checked with
 * --device), which are expected there; for each owner, a note that its
 * IRQs are on cpus, or a warning saying where those that are not may go
 * (and one for an IRQ the kernel delivers outside its affinity's part in
 * cpus, by effective_affinity_list); and the per-CPU load from two
 * samples of /proc/interrupts interval_us apart (irq_load_findings()).
 * Returns the number of warnings (notes are not counted); -ENOENT
 * without proc/irq or proc/interrupts (err says so); -ENOMEM.
 */
int irq_check(const struct sysroot *root, const struct cpuset *cpus,
	      const struct irq_owner *owners, size_t nowners, int ncpus,
	      uint64_t interval_us, struct strbuf *out, char *err,
	      size_t errlen);

#endif
