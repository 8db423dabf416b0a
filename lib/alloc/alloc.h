/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The allocator's decisions over a state: which CPUs (and how much memory
 * on which NUMA nodes) a new allocation gets, how an allocation grows or
 * shrinks, who owns it, and how a state disagrees with the machine.
 *
 * Terminology (see state.h for entry, available, shared):
 *   hint       a NUMA node set that can hold a request, and whether it is
 *              preferred (as narrow as the request allows), as the
 *              kubelet's Topology Manager computes them;
 *   merge      the policy's choice among the CPU and memory hints;
 *   booking    memory set aside on NUMA nodes for an entry (the Memory
 *              Manager's view: MemTotal per node minus what is booked).
 *
 * Nothing here changes a file: callers save the state.  Errors come back
 * as -errno with a one-line message in err.
 */
#ifndef CPM_ALLOC_H
#define CPM_ALLOC_H

#include <stdbool.h>
#include <stdint.h>

#include "alloc/allocmem.h"
#include "alloc/kstate.h"
#include "alloc/state.h"
#include "base/cpuset.h"
#include "base/strbuf.h"
#include "kube/kubelet.h"
#include "kube/topomgr.h"
#include "machine/sysroot.h"
#include "machine/topo.h"

/*
 * The machine as the allocator sees it.  kt is the kubelet's view of
 * topo, built from topo on first use by alloc_machine_kt() while kt->cpu
 * is NULL (a zeroed struct ktopo), so that a call that places nothing
 * (release, show, list, ...) never builds it; a kt filled beforehand is
 * used as it is.
 */
struct alloc_machine {
	const struct topo *topo;
	struct ktopo *kt;
	int max_nodes;		/* max-allowable-numa-nodes; 0: the
				 * kubelet's default, 8 */
};

/*
 * The kubelet's view of m's topology: m->kt, built by ktopo_from_topo()
 * if it is not yet (it may have come from a layout's runs without its
 * per-CPU array: ktopo_cpus()).  Returns it, or NULL when out of memory.
 */
const struct ktopo *alloc_machine_kt(const struct alloc_machine *m);

/*
 * A device a take is placed beside (--near): its name as given and its
 * NUMA node (-1 unknown: a device with no preference, as the kubelet's
 * device manager treats a device without topology).
 */
struct alloc_near {
	const char *name;
	int node;
};

/* One take. */
struct alloc_request {
	const char *name;
	int n;				/* CPUs */
	enum alloc_mode mode;
	struct alloc_opts opts;		/* effective: see alloc_opts_effective() */
	const struct cpuset *from;	/* choose only among these, or NULL */
	const struct cpuset *prefer;	/* NUMA nodes to fill first, or NULL */
	bool have_mem;
	uint64_t mem;			/* bytes to book (with have_mem) */
	int nhuge;			/* huge pages to book (with
					 * have_mem), by page size */
	struct alloc_huge huge[ALLOC_HUGE_MAX];
	const struct alloc_near *near;	/* devices: one hint list each */
	int nnear;
	/*
	 * A pod's members (allocpod.h): the CPUs its init members hold
	 * for the members that follow (the kubelet's reusable CPUs, part
	 * of the CPUs the take chooses among: a CPU hint must hold all of
	 * their nodes), or NULL; the pod's affinity under the pod scope
	 * (the hint every member is placed in, no merge of its own), or
	 * NULL; and, when admit is not NULL, only the Topology Manager's
	 * admission: the merged hint goes to *admit, no CPU is taken.
	 */
	const struct cpuset *reuse;
	const struct tm_hint *affinity;
	struct tm_hint *admit;
};

/*
 * Merge the state's policy into o, decide a --distribute without a group
 * from full_cores and the threads per core, and check the combination as
 * the kubelet does.  Returns 0, -EINVAL (err says why) or -ENOMEM.
 */
int alloc_opts_effective(const struct alloc_machine *m,
			 const struct alloc_opts *policy, struct alloc_opts *o,
			 char *err, size_t errlen);

/*
 * Choose rq->n CPUs (and book rq->mem) for a new entry among the CPUs st
 * has available: NUMA hints for the CPUs and the memory, the Topology
 * Manager policy's merge, the kubelet's take, a check that the CPUs keep
 * to the merged hint's nodes, and the memory booking.  Each device of
 * rq->near adds the device manager's hint list for it (under a policy
 * other than none); a refusal then names the devices' nodes and their
 * free CPUs.  Fills e's name, n,
 * mode, options, cpus and memory (owner fields are left alone); st is not
 * changed.  When explain is not NULL, one line per hint list and one for
 * the policy's decision are appended to it.  Returns 0; -ENOSPC when the
 * request cannot be satisfied (err says why); -ENOMEM.
 */
int alloc_take(const struct alloc_machine *m, const struct alloc_state *st,
	       const struct alloc_request *rq, struct alloc_entry *e,
	       struct strbuf *explain, char *err, size_t errlen);

/*
 * alloc_take() among avail, the CPUs st has available as
 * state_available() gives them, for a caller that places several tries
 * on one state: avail is taken over (narrowed, then freed; *avail is left
 * empty).  Returns as alloc_take().
 */
int alloc_take_avail(const struct alloc_machine *m,
		     const struct alloc_state *st, struct cpuset *avail,
		     const struct alloc_request *rq, struct alloc_entry *e,
		     struct strbuf *explain, char *err, size_t errlen);

/*
 * The NUMA hints for n CPUs (and the memory of mrq, when not NULL and
 * with have_mem: regular memory and huge pages) among the CPUs
 * st has available, combined: with memory too, a node set is listed when
 * both providers offer it and preferred when both prefer it.  out is
 * freed with tm_hints_free().  Returns 0; -ENOSPC when the machine has
 * too many NUMA nodes for hints (err says why); -ENOMEM.
 */
int alloc_hints(const struct alloc_machine *m, const struct alloc_state *st,
		int n, bool align_socket, const struct alloc_request *mrq,
		struct tm_hints *out, char *err, size_t errlen);

/*
 * Grow or shrink e to n CPUs with the effective options o, keeping its
 * CPUs: a shrink gives back what alloc_shrink_pick() chooses, a growth
 * first fills the free threads of e's cores, then takes the rest as a
 * take would (on e's nodes under the single-numa-node and restricted
 * policies).  Sets e->n.  Returns 0; -ENOSPC when it cannot be done (err
 * says why); -ENOMEM.
 */
int alloc_resize(const struct alloc_machine *m, struct alloc_state *st,
		 struct alloc_entry *e, int n, const struct alloc_opts *o,
		 char *err, size_t errlen);

/*
 * The options a resize of e uses: the entry's own, its automatic
 * --distribute group decided afresh (the policy or the machine may have
 * changed since the take), then merged and checked as
 * alloc_opts_effective() does.  Returns 0, -EINVAL (err says why) or
 * -ENOMEM.
 */
int alloc_resize_opts(const struct alloc_machine *m,
		      const struct alloc_opts *policy,
		      const struct alloc_entry *e, struct alloc_opts *o,
		      char *err, size_t errlen);

/*
 * Resolve an owner argument, "pid:PID" (a live process, below live) or
 * "cgroup:PATH" (a directory below cgroup_root, on v2 or in one of the v1
 * controllers' hierarchies), into e's owner, owner_start and owner_dir.
 * Returns 0; -EINVAL for an invalid owner, one that names no process or
 * no group (err says which); -ENOMEM; another -errno when the group's
 * path cannot be resolved.
 */
int alloc_owner_resolve(const char *owner, const char *cgroup_root,
			const struct sysroot *live, struct alloc_entry *e,
			char *err, size_t errlen);

/*
 * True when e's owner is gone: its process has exited (or its pid now
 * belongs to another process), the container process of an entry the
 * OCI hook made has (its group may outlive it), or its group was
 * removed.  reason gets
 * which.  Entries without an owner are never gone.
 */
bool alloc_owner_gone(const struct alloc_entry *e, const struct sysroot *live,
		      char *reason, size_t len);

/*
 * Explain how st disagrees with the machine: one line per finding,
 * "error: ..." or "warning: ...", appended to out.  match and match_msg
 * are state_topo_match()'s verdict against now; owners are looked for
 * below live (NULL: not looked for).  Returns the number of findings or
 * -ENOMEM.
 */
int alloc_check(const struct alloc_machine *m, const struct alloc_state *st,
		const struct topo_print *now, enum topo_match match,
		const char *match_msg, const struct sysroot *live,
		struct strbuf *out);

/*
 * Release the entries whose owner is gone (see alloc_owner_gone(), below
 * live), and when the machine's CPUs changed (match) and nothing in st
 * uses an offline CPU any more, record the machine now as st's
 * fingerprint.  One line per change is appended to out ("released NAME
 * CPUS: REASON", or with dry_run "would release ...").  *changed tells
 * whether st was changed (st is changed with dry_run too: do not save
 * it).  Returns 0; -ENOSPC when st still uses offline CPUs (err names
 * them; the releases are done); -ENOMEM.
 */
int alloc_reconcile(const struct alloc_machine *m, struct alloc_state *st,
		    const struct topo_print *now, enum topo_match match,
		    const struct sysroot *live, bool dry_run, struct strbuf *out,
		    bool *changed, char *err, size_t errlen);

/* The entries of a kubelet CPU manager checkpoint, to import. */
struct alloc_import {
	int n;
	struct alloc_entry *entries;
};

/*
 * Read the entries of the static policy's checkpoint ks (named file in
 * messages): valid names, cpusets that overlap neither the default set
 * nor each other, and only CPUs t has online.  Returns 0; -EINVAL (err
 * says which entry and why); -ENOMEM.
 */
int alloc_import_read(const struct topo *t, const struct kstate *ks,
		      const char *file, struct alloc_import *im, char *err,
		      size_t errlen);

/*
 * Add im's entries to st, skipping those imported before (same name, same
 * CPUs); "NAME CPUS" lines for the added ones go to out.  Returns the
 * number added; -ENOSPC when a name exists with other CPUs, or CPUs are
 * reserved or allocated already (err says which; st may hold some of the
 * entries: do not save it); -ENOMEM.
 */
int alloc_import_add(struct alloc_state *st, struct alloc_import *im,
		     struct strbuf *out, char *err, size_t errlen);
void alloc_import_free(struct alloc_import *im);

/* The NUMA nodes of e's CPUs, booked memory and huge pages.  Returns 0
 * or -ENOMEM. */
int alloc_entry_nodes(const struct topo *t, const struct alloc_entry *e,
		      struct cpuset *out);

/* A byte count as the tools print it: 1024 multiples with K M G T P E. */
void alloc_size_format(struct strbuf *sb, uint64_t bytes);

#endif
