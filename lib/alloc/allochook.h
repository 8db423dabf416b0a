/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The allocations an OCI runtime hook makes (cpm-alloc oci-hook): a
 * container's entry placed or found again, what the operator lets a
 * container ask for, the entries that belong to the container, and the
 * containers that follow the shared pool.  The caller reads the
 * container's request and group, holds the state's lock, and writes the
 * cgroups.
 *
 * Terminology:
 *   container  an entry made by the hook (hook= in the state) for one
 *              container: its name the container's id, its owner its
 *              group ("cgroup:PATH"), hook_pid its process and
 *              owner_start that process's start time
 *   follower   a container without a CPU request: an entry of 0 CPUs
 *              owned by its group, whose cpuset is the shared pool
 *   policy     what the operator lets the hook grant: which cgroup
 *              parents, how many CPUs at most
 *
 * The trust model: the runtime's word (the state's id and pid, the
 * bundle's group) is believed only as far as the state can check it.
 * A name another entry holds is taken over by no container: an entry
 * made by hand or by a plan is no container's, and a container's entry
 * belongs to its group and process.  A group another entry owns is
 * given to no other container.
 *
 * Errors come back as -errno with a one-line message in err: -EINVAL bad
 * input, -EPERM what the policy does not allow, -EEXIST a name or group
 * that belongs to another, -ENOSPC a request nothing can satisfy,
 * -ENOMEM.
 */
#ifndef CPM_ALLOCHOOK_H
#define CPM_ALLOCHOOK_H

#include <stdbool.h>
#include <stddef.h>

#include "alloc/alloc.h"
#include "alloc/state.h"
#include "machine/coretype.h"
#include "machine/sysroot.h"

/* What the operator lets the hook grant (zeroed: anything anywhere). */
struct alloc_hook_policy {
	int max_cpus;		/* CPUs per container at most; 0: no limit */
	const char *parents;	/* "G[,G...]": groups below which CPUs,
				 * memory and interrupt moves are granted;
				 * NULL: below any */
};

/* Where a container's entry is after alloc_hook_place(). */
struct alloc_hook_result {
	int at;			/* its index in st->entries */
	bool held;		/* st held it already: nothing was taken */
	bool changed;		/* held, with the process it has now:
				 * st is to be written */
	bool mixed;		/* its CPUs mix core types */
};

/*
 * Whether policy lets the container in group (canonical, no leading
 * '/') have what rq asks (CPUs, memory) and interrupts moved (irqs).
 * Returns 0, or -EPERM with err saying what is not allowed.
 */
int alloc_hook_allowed(const struct alloc_hook_policy *policy,
		       const char *group, const struct alloc_request *rq,
		       bool irqs, char *err, size_t errlen);

/*
 * Whether group is one of parents ("G[,G...]") or below one.  A parent
 * that is the name of a systemd slice unit with a dash stands for the
 * path systemd gives it as well: "machine-web.slice" for
 * machine.slice/machine-web.slice.
 */
bool alloc_hook_below(const char *parents, const char *group);

/*
 * Place the container rq->name: e carries its owner ("cgroup:PATH",
 * owner_dir), hook_pid and owner_start, set by the caller.  Take rq->n
 * CPUs into e and add it to st, unless st holds the name already:
 *   - a container's entry of the same group and process (another stage
 *     of the same start), or of the same group whose process is gone
 *     below live (the container started again; it gets the process):
 *     *res says where, e is freed;
 *   - an entry made before the hook marked its entries (no hook=)
 *     whose owner is the same group: the container's from now on
 *     (res->changed);
 *   - any other entry: -EEXIST, st unchanged.
 * A group another entry owns is refused (-EEXIST); a new entry that
 * would leave the shared pool of online CPUs empty (-ENOSPC).  st is
 * left as it was on any error.  only, rq->opts as for
 * alloc_take_named().
 */
int alloc_hook_place(const struct coretypes *ct, const struct alloc_machine *m,
		     struct alloc_state *st, const struct alloc_request *rq,
		     int only, const struct sysroot *live,
		     struct alloc_entry *e, struct alloc_hook_result *res,
		     char *err, size_t errlen);

/*
 * The index of the entry that poststop of container name may release:
 * -ENOENT when st has none of that name (nothing to do); -EEXIST when
 * it is not the container's: made by hand or by a plan (an entry
 * without hook= owned by group, or a group below it, is the container's
 * placed before entries were marked), of a group
 * neither group nor below it (group: the container's, NULL: not known), of another process
 * (pid: the state's, 0: not known), or of a process that still runs
 * below live.
 */
int alloc_hook_find_stopped(const struct alloc_state *st, const char *name,
			    const char *group, int pid,
			    const struct sysroot *live, char *err,
			    size_t errlen);

/*
 * The index of the first follower at or after from, skipping the entry
 * named skip (NULL: none); -1 when there is none.
 */
int alloc_hook_follower(const struct alloc_state *st, const char *skip,
			int from);

#endif
