/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Plans: a machine's instances declared together, as plain text an
 * operator or a configuration template writes, checked as a whole.
 *
 * One instance per line, "NAME key=value ...", '#' to the end of a line
 * is a comment, blank lines are ignored:
 *
 *   cpus=N | cpus=CPULIST   a count (allocated as the kubelet would), or
 *                           the exact CPUs to pin ("4-11"; a single CPU
 *                           is written "5-5": a bare number is a count)
 *   nodes=NODELIST          the NUMA nodes it may use
 *   affinity=compact|spread|local
 *                           keep its CPUs together, spread them over
 *                           nodes, or on one node
 *   numa-policy=none|best-effort|restricted|single-numa-node
 *                           the Topology Manager policy of its take
 *   mem=SIZE                memory to book (512M, 8G)
 *   mem-policy=local|interleave|bind
 *                           where its memory goes
 *   mode=exclusive|share    as cpm-alloc's modes
 *   devices=NAME,...        devices it uses (opaque names here)
 *
 * cpus= is required; every other key is optional, and each key is given
 * at most once.  NAME is an allocation name (state_name_valid()).
 *
 * Terminology:
 *   finding   one problem of a valid plan on a machine: an error (the
 *             plan cannot be applied as meant) or a warning (it can, but
 *             not as well as it says), naming the instance.
 */
#ifndef CPM_PLAN_H
#define CPM_PLAN_H

#include <stdbool.h>
#include <stdint.h>

#include "base/cpuset.h"
#include "base/json.h"
#include "base/strbuf.h"
#include "machine/sysroot.h"
#include "machine/topo.h"

enum plan_affinity { PLAN_AFF_NONE, PLAN_AFF_COMPACT, PLAN_AFF_SPREAD,
		     PLAN_AFF_LOCAL };
enum plan_mem_policy { PLAN_MEM_NONE, PLAN_MEM_LOCAL, PLAN_MEM_INTERLEAVE,
		       PLAN_MEM_BIND };

struct plan_instance {
	char *name;
	int line;		/* in the plan's text, from 1 */
	bool exact;		/* cpus= a cpulist, else a count */
	int count;		/* CPUs (|cpus| when exact) */
	struct cpuset cpus;	/* exact: the CPUs */
	bool have_nodes;
	struct cpuset nodes;
	enum plan_affinity affinity;
	int numa_policy;	/* enum tm_policy; -1 not given */
	bool have_mem;
	uint64_t mem;		/* bytes */
	enum plan_mem_policy mem_policy;
	bool share;		/* mode=share */
	int ndevices;
	char **devices;		/* as written; see plan_check() */
};

struct plan_index;

struct plan {
	int n;
	struct plan_instance *inst;	/* in the plan's order */
	int cap;			/* of inst */
	struct plan_index *index;	/* the names, hashed (plan_find()) */
};

/*
 * Parse a plan's text (len bytes; NUL bytes are refused), in time linear
 * in its length: names are found in a hash table.  Returns 0; -EINVAL
 * with err "line N, column C: reason" for the first malformed line (an
 * unknown or repeated key, a bad value, a repeated name, no cpus=);
 * -ENOMEM.  p is empty on failure.
 *
 * PLAN_QUOTE: err may quote the plan's text (the word at fault).  Without
 * it err holds none of the text beyond cpm's own key names: a plan read
 * from a file may be a file its reader could not read (plan_read()).
 */
#define PLAN_QUOTE 1u
int plan_parse(const char *text, size_t len, unsigned int flags,
	       struct plan *p, char *err, size_t errlen);
void plan_free(struct plan *p);

/*
 * Read and parse the plan in the file path ("-": standard input).
 *
 * A file is opened as cpm opens its states: no symbolic link is followed
 * that another user could have planted, on the way or at the file itself
 * (the kernel's protected_symlinks rule, whatever the sysctl says), it
 * is opened without blocking, and only a regular file is read.
 * PLAN_OWN: the file must also be root's or ours and writable by no one
 * else, as a state must, for a plan acted on (cpm-alloc apply): another
 * user may not decide what is allocated.
 *
 * Errors quote the plan's text only when it came on standard input,
 * which the caller's own shell opened; of a file they give the line and
 * column (see plan_parse()), so that a plan path naming a file the
 * caller may not read (/etc/shadow, read by root) shows nothing of it.
 *
 * Returns as plan_parse(); -errno when the file cannot be read or is
 * refused (-EFTYPE_CPM; err says why).
 */
#define PLAN_OWN 2u
int plan_read(const char *path, unsigned int flags, struct plan *p,
	      char *err, size_t errlen);

/* The instance called name, or NULL: one hash lookup. */
const struct plan_instance *plan_find(const struct plan *p, const char *name);
/* How many names plan_parse() and plan_find() compared with strcmp()
 * over p's life: about one per lookup (tests: no quadratic parse). */
unsigned long plan_name_compares(const struct plan *p);

/* "compact", "interleave", ...: the names the plan uses. */
const char *plan_affinity_name(enum plan_affinity a);
const char *plan_mem_policy_name(enum plan_mem_policy m);

/*
 * The devices of each instance (devices=) as the machine has them, as
 * cpm-alloc take --near looks them up: names[k] as written, nodes[k]
 * its NUMA node (-1 unknown), and record the state's near= text of
 * them ("eth1@0000:3b:00.0,..."; NULL: no devices).
 */
struct plan_inst_devices {
	int n;
	char **names;
	int *nodes;
	char *record;
};

struct plan_devices {
	int n;				/* the plan's instances */
	struct plan_inst_devices *inst;	/* in the plan's order */
};

/*
 * Look up every instance's devices below root.  Returns 0; -EINVAL when
 * a name is no device (err: "NAME: no device 'eth9' ..."); -ENOMEM.  d
 * is empty on failure.
 */
int plan_devices_find(const struct plan *p, const struct sysroot *root,
		      struct plan_devices *d, char *err, size_t errlen);
void plan_devices_free(struct plan_devices *d);

/* One finding. */
struct plan_finding {
	bool error;
	char *instance;
	char *message;
};

struct plan_findings {
	int n, nerrors;
	struct plan_finding *f;
	bool oom;		/* a finding could not be kept */
};

/*
 * Check p against the machine t, with reserved (NULL: none) the CPUs kept
 * for the host, and its devices d (NULL: not looked up): nodes that do not exist, CPUs that do not exist, are
 * offline, reserved, or outside the instance's nodes; compact or local
 * affinity across nodes, spread affinity on one node, local memory on a
 * node that holds none of the instance's CPUs, interleaving over one
 * node; instances whose CPUs overlap; a node (or the machine) whose
 * instances ask for more CPUs or memory than it has; a count that
 * single-numa-node cannot fit in one node; a device on a NUMA node
 * other than the instance's (its CPUs', or its nodes=).  Appends the
 * findings to out, in the plan's order.  Returns their number or
 * -ENOMEM.
 */
int plan_check(const struct plan *p, const struct topo *t,
	       const struct cpuset *reserved, const struct plan_devices *d,
	       struct plan_findings *out);
void plan_findings_free(struct plan_findings *f);

/* Append one finding to out.  Returns 0 or -ENOMEM. */
int plan_finding_add(struct plan_findings *out, bool error, const char *inst,
		     const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* "error: NAME: message" lines. */
void plan_findings_text(const struct plan_findings *f, struct strbuf *sb);

/*
 * The findings as members of the JSON object being written: "findings"
 * (an array of {level, instance, message}), "errors", "warnings".
 */
void plan_findings_json(const struct plan_findings *f, struct json *j);

#endif
