/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The memory policies Linux has now and libnuma may not: MPOL_PREFERRED_MANY
 * (Linux 5.15) and MPOL_WEIGHTED_INTERLEAVE (Linux 6.9), set with the
 * set_mempolicy(2) system call itself, and the weights of weighted
 * interleave.
 *
 * The weights are the kernel's, one per node, system-wide
 * (sys/kernel/mm/mempolicy/weighted_interleave/nodeN, 1-255; Linux 6.16
 * also has "auto": the kernel derives them from the nodes' bandwidths
 * until one is written).  A task cannot have weights of its own, so
 * giving the weights a task needs either finds them in place or changes
 * them for everyone, which is only done when asked, as root, after the
 * values in place went to a journal:
 *
 *   cpm-weight-journal 1
 *   auto 0|1|-                       (the auto file, "-" without one)
 *   node N W                         (the weight before the change)
 *
 * written atomically (temporary file, fsync, rename) before the first
 * weight is written; mempolicy_restore_weights() puts every value back
 * and removes it.
 */
#ifndef CPM_MEMPOLICY_H
#define CPM_MEMPOLICY_H

#include <stdbool.h>
#include <stddef.h>

#include "base/cpuset.h"
#include "base/strbuf.h"
#include "machine/sysroot.h"

#define MEMPOLICY_PREFERRED_MANY	5
#define MEMPOLICY_WEIGHTED_INTERLEAVE	6
#define WEIGHT_JOURNAL_DEFAULT "/var/lib/cpm/weights.journal"
#define WEIGHT_MAX 255

/*
 * set_mempolicy(mode, nodes) for the calling thread.  Returns 0;
 * -EOPNOTSUPP when this kernel does not know the mode (err names the
 * kernel it runs and the version the mode needs); another -errno from
 * the kernel with err explaining.
 */
int mempolicy_set(int mode, const struct cpuset *nodes, char *err,
		  size_t errlen);

/* The first Linux version with mode, "5.15" or "6.9". */
const char *mempolicy_needs(int mode);

/* Weights: w[node] for nodes 0..n-1, 0 where not given. */
struct weights {
	int n;
	unsigned char *w;
	struct cpuset nodes;	/* the nodes given */
};

void weights_init(struct weights *ws);
void weights_free(struct weights *ws);

/*
 * Parse "0:5,1:2" (NODE:WEIGHT, weights 1-255, each node once).
 * Returns 0, -ENOMEM, or -EINVAL with err naming the bad part.
 */
int weights_parse(const char *text, struct weights *ws, char *err,
		  size_t errlen);

/*
 * The kernel's weights for ws->nodes below root into cur (same nodes).
 * Returns 0; -ENOENT when the kernel has no weights (err names the
 * version that does); -ERANGE when a node has none (no such node);
 * -EINVAL for a file that holds no weight; -ENOMEM.
 */
int weights_read(const struct sysroot *root, const struct weights *ws,
		 struct weights *cur, char *err, size_t errlen);

/* True when cur holds the same weight as want for every node of want. */
bool weights_equal(const struct weights *want, const struct weights *cur);

/* "0:5,1:2" into sb. */
void weights_format(const struct weights *ws, struct strbuf *sb);

/*
 * Write the weights of ws system-wide below root (live: "/"), after the
 * values in place went to journal (kept as it is when one exists: it
 * holds the values from before the first change).  Each weight is read
 * back.  Returns 0, or -errno with err explaining (-EACCES/-EPERM: not
 * root).
 */
int weights_apply(const struct sysroot *root, const char *journal,
		  const struct weights *ws, char *err, size_t errlen);

/*
 * Put back what journal holds and remove it.  Returns 0, 1 when there is
 * no journal (nothing to do), or -errno with err explaining (-EBADMSG: a
 * damaged journal, left in place).
 */
int weights_restore(const struct sysroot *root, const char *journal,
		    char *err, size_t errlen);

#endif
