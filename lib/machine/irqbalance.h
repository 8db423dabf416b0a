/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * irqbalance's banned CPUs, read and set over its runtime socket as
 * irqbalance-ui does: irqbalance 1.8+ listens on
 * /run/irqbalance/irqbalance<PID>.sock (root only: the peer's
 * credentials go along), answers "setup" with "SLEEP N ... BANNED MASK"
 * and takes "settings cpus LIST" (or "settings cpus NULL": back to its
 * own choice, IRQBALANCE_BANNED_CPULIST or else the isolated and
 * nohz_full CPUs).  A setting takes effect at its next rescan (its
 * --interval, 10 s by default), before it places interrupts again;
 * "setup" answers what is in effect.
 *
 * The live machine only: below a replayed tree nothing runs.
 */
#ifndef CPM_IRQBALANCE_H
#define CPM_IRQBALANCE_H

#include <stddef.h>
#include <sys/types.h>

#include "base/cpuset.h"
#include "machine/sysroot.h"

#define IRQB_SOCK_DIR "/run/irqbalance"

/*
 * The PIDs of the irqbalance daemons listening on a socket, up to max,
 * into pids; the count, 0 below a replayed tree.
 */
size_t irqb_find(const struct sysroot *root, pid_t *pids, size_t max);

/* pid's socket path ("/run/irqbalance/irqbalance<PID>.sock"). */
void irqb_sock_path(pid_t pid, char *buf, size_t size);

/* The PID of a socket path, or 0 when path is not one. */
pid_t irqb_sock_pid(const char *path);

/* The CPUs pid bans now into banned; 0 or -errno. */
int irqb_banned(pid_t pid, struct cpuset *banned);

/* Ban cpus (NULL: irqbalance's own choice again); 0 or -errno. */
int irqb_ban(pid_t pid, const struct cpuset *cpus);

/*
 * What pid bans of its own accord, without a setting: its environment's
 * IRQBALANCE_BANNED_CPULIST (or _CPUS), else the isolated and nohz_full
 * CPUs.  0 or -errno.
 */
int irqb_own(const struct sysroot *root, pid_t pid, struct cpuset *own);

#endif
