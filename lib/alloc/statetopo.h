/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The topology a cpm-alloc state was made for, kept in the state (its
 * "layout" record, state version 2), so that a call reads only what can
 * change on a running machine instead of some files per core.
 *
 * Terminology:
 *   layout   everything topo_load() (without flags) learns that cannot
 *            change while the machine runs: each CPU's node, socket, die,
 *            core, L3 group and SMT siblings, the NUMA nodes' CPUs and
 *            distances, the L3 groups and sockets;
 *   key      which tree the layout was read from: the sysroot's path,
 *            the identity (device, inode, change time) of its
 *            sys/devices/system/cpu directory and the boot id when the
 *            tree has one, so that another sysroot, a rebuilt tree or a
 *            reboot never reuses a layout;
 *   live     what is read on every call: the possible, present, online
 *            and isolated CPU lists and the online NUMA nodes (node/online,
 *            or the node directories where a tree has no readable one; the
 *            nodes' meminfo only by the callers that need memory sizes:
 *            topo_load_meminfo()).  When any of them differs from the layout
 *            (a CPU went offline, a node appeared), the caller reads the
 *            whole topology as before.
 *
 * Record text (after "layout "), fields separated by one space:
 *   v=2 key=ESCAPED possible=L present=L online=L isolated=L tpc=N
 *   node=R socket=R die=R core=R l3=R threads=R next=R
 *   nodes=ID@CPUS@D.D.../...  l3s=ID@LEVEL@SIZEKB@CPUS/...
 *   sockets=ID@CPUS/... hash=HEX16 cores=N
 *   [types=SOURCE/NAME@CAPACITY@CORES/... ctype=R ccap=R]
 * where hash and cores are statetopo_print_hash() of the layout (the
 * state's fingerprint of these online CPUs, kept so that a call does not
 * hash every CPU again),
 * where the last three, together or not at all, are the core types of
 * coretype_load() (SOURCE "-" when nothing told; ctype and ccap give each
 * CPU's type index and capacity), each R lists one value per CPU slot 0..highest possible CPU as
 * runs START:STEP:COUNT separated by commas, a node without distances
 * has "x" for them, and L is a cpulist.  Version 1 is the same without
 * hash and cores: it is used (the fingerprint is then computed) and
 * written again as version 2.  A layout of a later v= is ignored (a later
 * cpm-alloc's encoding), not refused; cpm-alloc before version 2 thus
 * ignores a version 2 layout and reads the topology in full.
 */
#ifndef CPM_STATETOPO_H
#define CPM_STATETOPO_H

#include <stdbool.h>
#include <stdint.h>

#include "base/strbuf.h"
#include "machine/sysroot.h"
#include "machine/topo.h"

struct ktopo;

#define STATETOPO_VERSION 2

struct coretypes;

struct statetopo {
	char *key;
	struct topo t;		/* memory sizes unknown (-1); cpus NULL
				 * until statetopo_cpus() */
	char *text;		/* the record's text, split in fields */
	bool text_own;		/* text is this statetopo's, freed with it */
	const char *runs[7];	/* in text: the per-CPU fields' runs,
				 * checked, for statetopo_cpus() */
	bool given;		/* t went to statetopo_load() */
	struct coretypes *ct;	/* the core types, or NULL: not kept;
				 * its per-CPU arrays are left NULL, and
				 * statetopo_types() reads them from: */
	const char *ctype_runs, *ccap_runs;	/* in text, checked */
	bool have_print;	/* hash and cores kept (not in version 1) */
	uint64_t hash;		/* statetopo_print_hash() of t */
	int cores;
};

/*
 * The fingerprint of t's online CPUs (FNV-1a 64 over each online CPU's
 * id, node, socket and core as four native int32), and into *cores the
 * number of online CPUs that are the first of their core.
 */
uint64_t statetopo_print_hash(const struct topo *t, int *cores);

/* The key of root into key (malloc'ed).  Returns 0 or -ENOMEM. */
int statetopo_key(const struct sysroot *root, char **key);

/*
 * Append the record text of t (read by topo_load() without flags), its
 * core types ct (coretype_load() of t; NULL: not kept) and key to sb.
 */
void statetopo_format(const struct topo *t, const struct coretypes *ct,
		      const char *key, struct strbuf *sb);

/*
 * Parse a record's text, every field checked (the per-CPU values are
 * stored by statetopo_cpus()).  Returns 0; 1 for a layout of another version
 * (out is empty: nothing to use); -EINVAL for a malformed one (err says
 * what); -ENOMEM.
 */
int statetopo_parse(const char *text, struct statetopo *out, char *err,
		    size_t errlen);
/* statetopo_parse() of text cut in place, not copied: text stays the
 * caller's, and must outlive out. */
int statetopo_parse_in_place(char *text, struct statetopo *out, char *err,
			     size_t errlen);
void statetopo_free(struct statetopo *s);

/*
 * The per-CPU array of s->t (each CPU's flags, node, socket, die, core,
 * L3 group and threads) from the runs statetopo_parse() checked: the
 * bulk of a large machine's layout, stored only for the callers that
 * need it.  Returns 0 (also when there or given away), -ENOMEM.
 */
int statetopo_cpus(struct statetopo *s);

/*
 * The topology below root (whose statetopo_key() is key) from the layout
 * s, when root is the tree s was read from and its live files still
 * agree: t is then what topo_load(t, root, 0, ...) would give, but
 * without its per-CPU array (t->cpus NULL) unless cpus is true: only
 * its CPU lists, nodes, L3 groups and sockets.  The per-CPU array moves
 * from s->t to t rather than being copied: s keeps its key, CPU lists,
 * groups, core types and fingerprint, but cannot give a topology again.  The nodes' memory
 * sizes stay unknown (-1) until topo_load_meminfo().  Returns 0 (t filled),
 * 1 when the layout cannot be used (t and s untouched: read the topology
 * in full), -ENOMEM.
 */
int statetopo_load(struct topo *t, const struct sysroot *root,
		   const char *key, struct statetopo *s, bool cpus);

/*
 * The per-CPU array of t, a topology statetopo_load() gave from s
 * without one, from the runs of s.  Returns 0 (also when t has one),
 * -EINVAL for a t not given by s, -ENOMEM.
 */
int statetopo_expand(const struct statetopo *s, struct topo *t);

/*
 * What ktopo_from_topo() makes of t, a topology statetopo_load() gave
 * from s, built from the runs of s: t needs no per-CPU array, and kt
 * may have none either (ktopo_from_runs(): ktopo_cpus() makes it).
 * Returns 0, -EINVAL for a t not given by s, -ENOMEM.
 */
int statetopo_ktopo(const struct statetopo *s, const struct topo *t,
		    struct ktopo *kt);

/*
 * The core types kept in s into ct: what coretype_load() gives for the
 * machine statetopo_load() gave from s, without the per-CPU arrays
 * (type and capacity NULL) unless per_cpu.  Returns 0, 1 when s keeps
 * none, -ENOMEM.
 */
int statetopo_types(struct coretypes *ct, const struct statetopo *s,
		    bool per_cpu);

/* The per-CPU arrays of ct, made by statetopo_types() from s without
 * them.  Returns 0 or -ENOMEM. */
int statetopo_types_expand(struct coretypes *ct, const struct statetopo *s);

#endif
