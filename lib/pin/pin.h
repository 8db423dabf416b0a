/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Putting threads on CPUs and their memory on NUMA nodes, and checking
 * that the kernel did what was asked.
 *
 * Terminology:
 *   affinity     the CPUs a thread may run on (sched_setaffinity); per
 *                thread, inherited by new threads and kept across exec.
 *   allowed      what the kernel lets a thread have: online CPUs of its
 *                cgroup cpuset (cpus), the cpuset's memory nodes (mems).
 *                The kernel silently intersects requests with them;
 *                cpm checks first and names what does not fit.
 *   mempolicy    the NUMA memory policy of a thread (set_mempolicy):
 *                only the calling thread can set its own, so a policy is
 *                set before exec, never on a running process.
 *   migrate      moving the pages a process already has to other nodes
 *                (migrate_pages(2)).
 *
 * Memory policies are set through libnuma, opened only when a policy is
 * set or pages are moved (lib/pin/numaload.c).  Its numa_error()/numa_warn()
 * hooks are overridden here so that nothing is printed; failures come
 * back as -errno with a message.
 */
#ifndef CPM_PIN_H
#define CPM_PIN_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "base/cpuset.h"
#include "base/strbuf.h"
#include "machine/proc.h"
#include "machine/sysroot.h"
#include "machine/topo.h"

enum pin_mem {
	PIN_MEM_KEEP = 0,	/* leave the inherited policy alone */
	PIN_MEM_DEFAULT,	/* MPOL_DEFAULT (only ever read back) */
	PIN_MEM_LOCAL,		/* MPOL_LOCAL */
	PIN_MEM_BIND,		/* MPOL_BIND */
	PIN_MEM_INTERLEAVE,	/* MPOL_INTERLEAVE */
	PIN_MEM_PREFERRED,	/* MPOL_PREFERRED, or _MANY for several nodes */
	PIN_MEM_WEIGHTED,	/* MPOL_WEIGHTED_INTERLEAVE (Linux 6.9) */
	PIN_MEM_UNKNOWN,	/* could not be read */
	PIN_MEM_PREFERRED_MANY,	/* MPOL_PREFERRED_MANY (Linux 5.15), also for
				 * one node; reads back as PREFERRED, many */
};

/* A memory policy as set or read back. */
struct pin_policy {
	enum pin_mem mode;
	bool many;		/* PREFERRED over several nodes */
	char flags[32];		/* kernel mode flags as text ("static"), or "" */
	struct cpuset nodes;	/* empty for default/local */
};

/*
 * Parse a --mem word: "local", "bind", "interleave", "preferred",
 * "preferred-many", "weighted-interleave".
 * Returns 0 or -EINVAL.
 */
int pin_mem_parse(const char *s, enum pin_mem *out);
/* The word for a mode: "default", "local", "bind", ..., "unknown". */
const char *pin_mem_name(enum pin_mem m);

/*
 * The policy as cpm prints it: "bind 0-1", "preferred 1", "local",
 * "default", "interleave=static 0,2".  Appends to sb.
 */
void pin_policy_format(const struct pin_policy *p, struct strbuf *sb);

/* ---- checks on what was asked, before anything is changed ---- */

/*
 * Check that every CPU of cpus exists, is online and (allowed != NULL)
 * is in allowed, which holds what the target may use; whose names it in
 * messages ("this process", "process 123", "cgroup 'a/b'").  Returns 0,
 * -EINVAL for an empty set, -ERANGE (does not exist), -ENXIO (offline)
 * or -EPERM (outside allowed); err names the offending CPUs.
 */
int pin_check_cpus(const struct topo *t, const struct cpuset *cpus,
		   const struct cpuset *allowed, const char *whose,
		   char *err, size_t errlen);

/*
 * Check that every node of nodes exists, has memory and (allowed !=
 * NULL) is among the target's allowed memory nodes.  Returns 0, -EINVAL
 * (empty), -ERANGE (no such node), -ENOSPC (a node without memory) or
 * -EPERM (not allowed); err names the nodes.
 */
int pin_check_nodes(const struct topo *t, const struct cpuset *nodes,
		    const struct cpuset *allowed, const char *whose,
		    char *err, size_t errlen);

/*
 * The NUMA nodes of cpus that have memory (memoryless nodes cannot hold
 * pages, so binding to them is refused by the kernel).  Returns 0,
 * -ENOMEM, or -ENOSPC when none of the CPUs' nodes has memory (err says
 * which nodes).
 */
int pin_mem_nodes_of(const struct topo *t, const struct cpuset *cpus,
		     struct cpuset *nodes, char *err, size_t errlen);

/* ---- affinity ---- */

/*
 * Affinity of a thread (tid 0: the calling thread) with a mask sized for
 * any number of CPUs.  Returns 0 or -errno (-ESRCH: no such thread).
 */
int pin_get_affinity(pid_t tid, struct cpuset *out);

/* Set the affinity of a thread.  Returns 0 or -errno from the kernel. */
int pin_set_affinity(pid_t tid, const struct cpuset *cpus);

/*
 * The CPUs a thread of this process may be given: the online CPUs of its
 * cpuset, as the kernel computes them (found by asking for every CPU and
 * reading back; the affinity is restored afterwards).  Returns 0 or
 * -errno.
 */
int pin_self_allowed_cpus(struct cpuset *out);

/*
 * Whether cpus (not empty) lie within the affinity of thread tid (0: the
 * calling thread).  The kernel's affinity holds only CPUs that exist, are
 * online (active) and are in the thread's cpuset, so when they do,
 * pin_check_cpus() would accept them without a topology or a probe of
 * the cpuset.  Returns 1, 0 (empty, or some CPU outside: ask
 * pin_check_cpus() why), or -errno (-ESRCH: no such thread).
 */
int pin_within_affinity(pid_t tid, const struct cpuset *cpus);

/*
 * The CPUs process pid may be given, when it can be learnt without the
 * cgroup file system: when pid shares this process's cpuset (same
 * /proc/PID/cpuset), what pin_self_allowed_cpus() finds.  Returns 0,
 * -ENODATA when pid is in another cpuset, or -errno (-ESRCH).
 */
int pin_pid_allowed_cpus(const struct sysroot *r, pid_t pid,
			 struct cpuset *out);


/*
 * The thread ids of process pid, ascending, from /proc/PID/task, into a
 * malloc'ed array.  Returns the count or -errno (-ESRCH: no process).
 */
int pin_list_threads(const struct sysroot *r, pid_t pid, pid_t **tids);

/* True when /proc/PID exists below r. */
bool pin_pid_exists(const struct sysroot *r, pid_t pid);

/* ---- memory policy of the calling thread ---- */

/*
 * Set the calling thread's memory policy through libnuma (opened on the
 * first call): local, bind or interleave over nodes, preferred (several
 * nodes: preferred-many where the kernel has it).  preferred-many and
 * weighted interleave are set with the system call itself, whatever
 * libnuma knows (lib/pin/mempolicy.c).  Node numbers must be
 * checked first.  Returns 0, -ENOSYS (no NUMA support, or libnuma cannot
 * be opened), -EOPNOTSUPP (the kernel lacks the mode; err names the
 * version it needs),
 * -ERANGE (a node beyond libnuma's node mask) or -errno from the kernel;
 * err explains.
 */
int pin_set_mempolicy(enum pin_mem mode, const struct cpuset *nodes,
		      char *err, size_t errlen);

/*
 * Whether libnuma has reported a failure since it was opened or since the
 * last pin_set_mempolicy(): libnuma 2.0.16's constructor, run when the
 * first policy is set, probes MPOL_PREFERRED_MANY by setting it on the
 * calling thread and then restores the policy it read.  Returns 0, or the
 * -errno libnuma saw (err says where).
 */
int pin_numa_status(char *err, size_t errlen);

/* Read the calling thread's policy back (get_mempolicy).  0 or -errno. */
int pin_get_mempolicy(struct pin_policy *p);

/* The nodes this thread may allocate on (its cpuset's mems).  0/-errno. */
int pin_self_mems_allowed(struct cpuset *out);

/*
 * Whether nodes (not empty) lie within the memory nodes the calling
 * thread may allocate on.  The kernel's list holds only nodes that exist
 * and have memory and are in the thread's cpuset, so when they do,
 * pin_check_nodes() would accept them without a topology.  Returns 1, 0
 * (empty, or some node outside: ask pin_check_nodes() why), or -errno.
 */
int pin_within_mems_allowed(const struct cpuset *nodes);

/*
 * What the run form's command may use: on the live system (root->live)
 * the CPUs and memory nodes this process may use, as the kernel computes
 * them; below a replayed tree, the CPUs its topology t allows (when it
 * knows them) and its proc/self/status Mems_allowed_list.  Sets
 * *have_cpus and *have_mems when cpus and mems were filled; an unknown
 * limit is no limit.
 */
void pin_runner_limits(const struct sysroot *root, const struct topo *t,
		       struct cpuset *cpus, bool *have_cpus,
		       struct cpuset *mems, bool *have_mems);

/*
 * Compare a policy read back with what was asked (mode, nodes).  Returns
 * true when they agree; MPOL_PREFERRED without nodes counts as local, as
 * older kernels report it.
 */
bool pin_policy_matches(const struct pin_policy *got, enum pin_mem mode,
			const struct cpuset *nodes);

/*
 * The task memory policy of process pid as /proc/PID/numa_maps shows it
 * on the main stack mapping (or the first mapping).  p->mode is
 * PIN_MEM_UNKNOWN when the process has no mappings (a kernel thread).
 * Returns 0 or -errno (-ESRCH, -EACCES).
 */
int pin_read_task_policy(const struct sysroot *r, pid_t pid,
			 struct pin_policy *p);

/*
 * Pages of process pid per node from /proc/PID/numa_maps: *outside gets
 * the number of pages on nodes not in nodes, where gets those nodes.
 * Returns 0 or -errno.
 */
int pin_pages_outside(const struct sysroot *r, pid_t pid,
		      const struct cpuset *nodes, unsigned long *outside,
		      struct cpuset *where);

/*
 * Move the pages of process pid from any of the nodes in from to the
 * nodes in to (numa_migrate_pages; the kernel maps the i-th from node to
 * the (i mod |to|)-th to node, so every page lands in to).  *not_moved
 * gets the kernel's count of pages it could not move.  Returns 0 or
 * -errno; err explains.
 */
int pin_migrate_pages(pid_t pid, const struct cpuset *from,
		      const struct cpuset *to, long *not_moved, char *err,
		      size_t errlen);

void pin_policy_init(struct pin_policy *p);
void pin_policy_free(struct pin_policy *p);

/*
 * The message for a set read back that is not the one written: "WHAT is
 * GOT, not WANT as asked (missing: M) (extra: E)" into err.  Returns
 * -EIO, or -ENOMEM.
 */
int pin_mismatch(const char *what, const struct cpuset *want,
		 const struct cpuset *got, char *err, size_t errlen);

/* ---- the run form: this process, before it runs a command ---- */

/*
 * Decide and check the nodes of memory policy mode for a command on cpus
 * (whose: "this process" or similar, for messages).  With have_nodes,
 * nodes were given: they must exist, have memory and lie in mems_allowed
 * (NULL: not known); local must allocate on them only.  Without, bind,
 * interleave and preferred take the CPUs' nodes with memory into nodes.
 * Returns 0; -EINVAL when the request does not fit (err says why);
 * -ENOMEM.
 */
int pin_policy_nodes(const struct topo *t, const struct cpuset *cpus,
		     enum pin_mem mode, bool have_nodes, struct cpuset *nodes,
		     const struct cpuset *mems_allowed, const char *whose,
		     char *err, size_t errlen);

/* The policy asked for, as pin_policy_format() writes it ("bind 0-1"). */
void pin_policy_asked(enum pin_mem mode, const struct cpuset *nodes,
		      struct strbuf *sb);

/*
 * Give this process the affinity cpus and (unless PIN_MEM_KEEP) the
 * memory policy mode on nodes, and read both back; got gets the
 * affinity in effect.  Returns 0 or -errno with err saying what the
 * kernel refused or what differs.
 */
int pin_apply_self(const struct cpuset *cpus, enum pin_mem mode,
		   const struct cpuset *nodes, struct cpuset *got, char *err,
		   size_t errlen);

/*
 * Move the pages of process pid to nodes (from every node of t with
 * memory), then read proc/PID/numa_maps back below live.  Returns 0 or
 * -errno with err saying what the kernel refused or how many pages are
 * still elsewhere.
 */
int pin_migrate_process(const struct topo *t, const struct sysroot *live,
			pid_t pid, const struct cpuset *nodes, char *err,
			size_t errlen);

#endif
