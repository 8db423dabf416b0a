/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The cpm-alloc state store: who owns which CPUs, kept in one text file.
 *
 * Terminology:
 *   entry      one named allocation (a set of CPUs, its mode, owner and
 *              booked memory);
 *   exclusive  an entry whose CPUs leave the shared pool;
 *   share      an entry whose CPUs stay in the shared pool but are never
 *              handed out to another entry (Crane's "share" policy);
 *   shared     the shared pool: online CPUs minus exclusive entries (minus
 *              the reserved CPUs with a strict reservation);
 *   available  what a new entry may get: online CPUs minus reserved CPUs
 *              minus every entry;
 *   fingerprint  what the state records about the machine it was made
 *              for, to refuse a file that belongs to another machine.
 *
 * File format (version 3), one record per line, fields separated by one
 * space, values in key=value form with %XX escapes for anything outside
 * [A-Za-z0-9._:/@,+=-]:
 *
 *   cpm-alloc-state 3
 *   checksum xxh64:HEX16            (XXH64, seed 0, of every byte after
 *                                    this line: `tail -n +3 | xxhsum -H1`)
 *   topology possible=L online=L nodes=L sockets=N cores=N threads=N hash=HEX16
 *   layout v=2 key=K ...            (optional: the machine's topology, see
 *                                    statetopo.h)
 *   reserved L
 *   strict yes|no
 *   policy OPTS|-
 *   reserved-memory NODE:KB:BYTES,...  (optional: init --reserved-memory;
 *                                    KB 0 regular memory, else huge
 *                                    pages of KB kB; by node, then KB)
 *   entry NAME n=N cpus=L mode=exclusive|share [owner=O] [start=T]
 *         [cgdir=DIR] [mem=NODE:BYTES,...]
 *         [hugepages=KB:NODE:BYTES,...] [opts=OPTS]
 *                                   (O: pid:PID, cgroup:PATH, or plan
 *                                    for what cpm-alloc apply made)
 *         [near=DEVICE@ADDRESS,...] [hook=PID]
 *         [mempol=local|interleave|bind]
 *
 * mem= books regular memory, hugepages= huge pages of KB kB (the
 * Memory Manager's hugepages-<size> resources, cpm-alloc take --mem
 * hugepages-2Mi=...), sorted by page size, then node; a state without
 * it reads as before, and versions that predate it refuse an entry that
 * has it.
 *
 * near= (cpm-alloc take --near) names the devices an entry was placed
 * beside, each as given and by its PCI address; a state without it
 * reads as before, and cpm versions that predate it refuse an entry
 * that has it (an unknown field), rather than drop it.  mempol= (a
 * plan's mem-policy=, what cpm-pin alloc:NAME binds its memory with) is
 * read and written the same way.
 *
 * hook= marks an entry that cpm-alloc oci-hook made for a container:
 * owner=cgroup:PATH is the container's group, PID the container's
 * process as the runtime gave it (0: none) and start= that process's
 * start time (/proc/PID/stat field 22), so that a pid taken again by
 * another process is told apart.  A state without it reads as before
 * (its entries made by no hook), and versions that predate it refuse
 * an entry that has it.
 *
 * Versions 1 and 2 are still read: their checksum line is
 * "checksum fnv1a64:HEX16" (FNV-1a 64 of the same bytes), and version 1
 * has no layout record.  A state is always written as version 3.
 *
 * Writers hold an exclusive flock(2) on FILE.lock (a separate file, since
 * rename(2) replaces the state's inode) for the whole read-modify-write,
 * and replace the file atomically; readers need no lock.
 */
#ifndef CPM_STATE_H
#define CPM_STATE_H

#include <stdbool.h>
#include <stdint.h>

#include "alloc/statetopo.h"
#include "base/arena.h"
#include "base/cpuset.h"
#include "base/fileread.h"
#include "base/hash.h"
#include "base/strbuf.h"
#include "base/xxh64.h"
#include "kube/kubelet.h"
#include "kube/topomgr.h"
#include "machine/topo.h"

#define STATE_VERSION 3
#define STATE_NAME_MAX 255
#define STATE_DEFAULT_PATH "/var/lib/cpm/alloc.state"

enum alloc_mode { ALLOC_EXCLUSIVE, ALLOC_SHARE };

/* Placement options: the kubelet's, plus the Topology Manager policy. */
struct alloc_opts {
	struct ktake_opts k;
	bool distribute_auto;	/* --distribute without a group: decided
				 * from full_cores and threads per core */
	int numa_policy;	/* enum tm_policy, 0 = none */
	bool closest;		/* prefer-closest-numa-nodes */
};

/*
 * Where a parsed entry came from: its line in the state's text as read
 * (st->raw), kept when that line is exactly what state_format() would
 * write for the entry, and a digest of everything state_format() writes
 * of the entry, taken then.  state_format() copies the line of an entry
 * whose digest still matches, and writes any other entry afresh: a
 * change made anywhere shows, with no flag to set.  A zeroed src (as
 * every entry made elsewhere has) means no line.
 */
struct entry_src {
	const char *line;	/* NULL: none */
	size_t len;		/* with its newline */
	unsigned int name_len;	/* the name's, at line + 6 */
	uint64_t digest;	/* of all but the name */
	/*
	 * In a state read for some names (state_load_named()): where its
	 * line was among the lines left as they are, as an index into
	 * the state's holes + 1; 0: none (an entry added since).
	 */
	unsigned int at;
};

/* Huge pages of kb kB booked on one NUMA node. */
struct huge_booking {
	unsigned int kb;
	int node;
	uint64_t bytes;
};

struct alloc_entry {
	char *name;		/* malloc'ed, or with name_kept, in the
				 * text of the state that read it */
	bool name_kept;
	int n;			/* CPUs asked for (== |cpus|) */
	struct cpuset cpus;
	bool cpus_kept;		/* cpus.bits in the words of the state
				 * that read it: not to be freed or grown
				 * (see alloc_entry_own_cpus()) */
	enum alloc_mode mode;
	char *owner;		/* "pid:PID", "cgroup:PATH" or NULL */
	uint64_t owner_start;	/* pid owner, or the hook's container
				 * process: start time, clock ticks */
	bool hook;		/* made by the OCI hook (hook=) */
	int hook_pid;		/* its container's process, 0: none */
	char *owner_dir;	/* cgroup owner: absolute directory */
	int nmem;
	struct mem_booking *mem;	/* sorted by node */
	int nhuge;
	struct huge_booking *huge;	/* sorted by size, then node */
	struct alloc_opts opts;
	char *near;		/* "eth1@0000:3b:00.0,...": the devices it
				 * was taken beside; NULL none */
	char *mempol;		/* "local", "interleave" or "bind": where
				 * its memory goes (a plan's mem-policy=);
				 * NULL none */
	char *cname;		/* its container's name, for people to
				 * read (cname=, the OCI hook's); NULL none */
	struct entry_src src;
};

/* What a state records about its machine. */
struct topo_print {
	struct cpuset possible, online, nodes;
	int sockets, cores, threads;
	uint64_t hash;		/* online CPUs' node/socket/core layout */
};

/* Memory reserved on a node (init --reserved-memory). */
struct mem_reserve {
	int node;
	unsigned int kb;	/* 0: regular memory, else a page size */
	uint64_t bytes;
};

struct alloc_state {
	bool exists;		/* read from a file (else a fresh state) */
	struct topo_print print;
	bool have_print;
	struct cpuset reserved;
	bool strict;
	struct alloc_opts policy;	/* options recorded by init */
	int nresmem;
	struct mem_reserve *resmem;	/* by node, then kb */
	int nentries, cap;
	struct alloc_entry *entries;
	/*
	 * The layout record's text (NULL: none, a version 1 file) of
	 * layout_len bytes, not NUL-terminated: in raw as read, or
	 * state_set_layout()'s own (layout_own); and the layout parsed
	 * (layout.key NULL: none this cpm-alloc can use).
	 */
	const char *layout_text;
	size_t layout_len;
	bool layout_own;
	struct statetopo layout;
	char *raw;		/* the file as read: the entries' lines */
	struct held_file held;	/* that file, held for state_reload() */
	size_t rawlen;
	char *text;		/* the body, cut into words: read entries'
				 * names */
	size_t body;		/* offset of the checksummed body in raw */
	/*
	 * sums[k]: the XXH64 lanes after the body's first
	 * k * STATE_SUM_STRIDE bytes, so that writing a body that begins
	 * like the one read hashes only from where they differ (none for
	 * a version 1 or 2 file, whose checksum is FNV-1a).
	 */
	struct xxh64_lanes *sums;
	size_t nsums;
	/* The words of the entries' sets as read, a block at a time. */
	struct arena words;
	/*
	 * The entries' names, hashed (see state.c), for state_find();
	 * NULL once an entry is removed (or before any is read).
	 */
	struct state_name_slot *names;
	size_t names_size, nnames;
	/*
	 * A state read for some names only (state_load_named()): every
	 * other entry whose line is as state_format() writes it and holds
	 * nothing but its name, n, cpus and mode ("left" entries) stays out
	 * of entries[]: its line is written back as it is, and only its
	 * CPUs are kept (all of them, and the exclusive entries').  The
	 * entries read into entries[] leave holes in those lines, where
	 * they are written.
	 */
	char *const *want;	/* the names (the caller's array) */
	int nwant;		/* 0: every entry read (state_load()) */
	struct state_want *wants;	/* their lengths and hashes */
	int nleft;		/* entries left as lines */
	struct cpuset left_cpus, left_excl;
	bool left_overlap;	/* two of them hold one CPU */
	size_t entries_at;	/* where the entries' lines begin in the
				 * body */
	struct state_hole *holes;
	int nholes, holes_cap;
};

/* A name a state is read for, as its lines are compared with it. */
struct state_want {
	size_t len;
	uint32_t hash;		/* FNV-1a 32 */
};

/* An entry line read into entries[] in a state read for some names. */
struct state_hole {
	size_t at, len;		/* in the body */
};

#define STATE_SUM_STRIDE 512	/* a whole number of XXH64 stripes */
_Static_assert(STATE_SUM_STRIDE % XXH64_STRIPE == 0, "stride");

/* How the machine compares to the state's fingerprint. */
enum topo_match {
	TOPO_SAME,		/* same CPUs, same layout */
	TOPO_ONLINE_CHANGED,	/* same possible CPUs, others online */
	TOPO_RESIZED,		/* the possible CPUs differ */
	TOPO_FOREIGN,		/* same CPUs but another layout or nodes */
};

void state_init(struct alloc_state *st);
void state_free(struct alloc_state *st);

/*
 * Give e's CPU set storage of its own, for a caller about to grow it:
 * the sets of the entries a state reads share the state's blocks.
 * Returns 0 or -ENOMEM.
 */
int alloc_entry_own_cpus(struct alloc_entry *e);

/* Fingerprint of a topology.  Returns 0 or -ENOMEM. */
int topo_print_make(struct topo_print *tp, const struct topo *t);

/*
 * The same for a topology t that statetopo_load() gave from the layout
 * lay (NULL: t was read otherwise): the hash and core count lay keeps are
 * taken instead of hashing every online CPU again.  Returns 0 or -ENOMEM.
 */
int topo_print_make_layout(struct topo_print *tp, const struct topo *t,
			   const struct statetopo *lay);
void topo_print_free(struct topo_print *tp);

/*
 * Compare the state's fingerprint with the machine's.  err gets a
 * one-line description of the difference (empty for TOPO_SAME).
 */
enum topo_match state_topo_match(const struct alloc_state *st,
				 const struct topo_print *now,
				 char *err, size_t errlen);

/*
 * Parse a state file's text.  Returns 0; -EPROTONOSUPPORT for a file of
 * an unknown version, -EBADMSG for a damaged, truncated or not a state
 * file (err names the problem and line), -ENOMEM.
 */
int state_parse(struct alloc_state *st, const char *buf, size_t len,
		char *err, size_t errlen);

/*
 * Render st as the file text into sb (with its checksum).  Entries left
 * as read go out as their lines (see struct entry_src), and the checksum
 * is taken on from where the text stops matching the one read: the bytes
 * are those of formatting every entry afresh.
 */
void state_format(const struct alloc_state *st, struct strbuf *sb);

/*
 * Read the state at path.  A missing file gives an empty state with
 * exists false.  The file read stays open (st->held) until state_free().
 * Returns 0, the state_parse() errors, or -errno of the read.
 */
int state_load(struct alloc_state *st, const char *path, char *err,
	       size_t errlen);

/*
 * state_load() for a command that looks at no entry but those named
 * want[0..nwant) (nwant > 0; the array must outlive st): the file is
 * checked as state_load() checks it, every line, but the other entries
 * whose lines hold only a name, n, cpus and mode are not kept in
 * entries[]: state_available() and state_shared() count their CPUs,
 * state_format() writes their lines back as read, and state_find() knows
 * only the names asked for (and entries added since).  For take and
 * release: an entry then costs them the check of its line, not an entry
 * to fill, digest and write out again.  state_mem_booked() and the rest
 * still see every entry with memory, an owner or options: those are
 * always read into entries[].
 */
int state_load_named(struct alloc_state *st, const char *path,
		     char *const *want, int nwant, char *err, size_t errlen);
/* state_parse() as state_load_named() reads. */
int state_parse_named(struct alloc_state *st, const char *buf, size_t len,
		      char *const *want, int nwant, char *err, size_t errlen);

/*
 * Read the state at path again (after taking the writers' lock): when
 * path still names the file st was read from, as it was (held_file_same()),
 * st is kept as it is; else st is freed and loaded anew as state_load()
 * (or state_load_named(), for the same names) did.
 */
int state_reload(struct alloc_state *st, const char *path, char *err,
		 size_t errlen);

/*
 * Record the machine t and its core types ct (NULL: not kept), read from
 * the tree of that statetopo_key(), as st's layout, written with st.
 * Returns 0 or -ENOMEM.
 */
int state_set_layout(struct alloc_state *st, const struct topo *t,
		     const struct coretypes *ct, const char *key);

/*
 * Replace the state file atomically (temporary file, fsync, rename,
 * fsync of the directory), under state_lock(), with what state_format()
 * makes, written as it is made rather than held whole.  Returns 0 or
 * -errno, with a message in err.
 */
int state_save(const struct alloc_state *st, const char *path, char *err,
	       size_t errlen);

/*
 * Take the writers' lock FILE.lock: creates the state's directory (and
 * its parents) and the lock file when missing, then waits for an
 * exclusive flock(2).  A temporary file a writer killed before its
 * rename left behind is removed by the next state_save().  Returns an fd
 * to close when done, or -errno.
 */
int state_lock(const char *path, char *err, size_t errlen);
/*
 * state_lock() waiting wait_ms milliseconds at most for the lock
 * (negative: forever): -ETIMEDOUT names the holder in err.  A state path
 * that exists and is not a regular file is refused (-EISDIR, -EFTYPE_CPM)
 * before anything is created.
 */
int state_lock_wait(const char *path, int64_t wait_ms, char *err,
		    size_t errlen);

/*
 * The path to lock, read and write for the state path: a symbolic link
 * is resolved once, so that every spelling of one state locks and
 * replaces the same file.  *out is malloc'ed.  0 or -errno with err set.
 */
int state_resolve(const char *path, char **out, char *err, size_t errlen);

/* The largest state file read: far above any real one (-EBADMSG). */
#define STATE_FILE_MAX (16u << 20)
void state_unlock(int fd);

/*
 * True when name is a valid entry name: 1 to STATE_NAME_MAX characters of
 * [A-Za-z0-9._:/@-].
 */
bool state_name_valid(const char *name);

/*
 * The entry called name, or NULL (in a state read for some names,
 * state_load_named(), also for a name not asked for).
 */
struct alloc_entry *state_find(const struct alloc_state *st,
			       const char *name);

/* The entry called name, or NULL with "no allocation named 'NAME'" in err. */
struct alloc_entry *state_need(const struct alloc_state *st, const char *name,
			       char *err, size_t errlen);

/*
 * For a command that changes the entry called name, before state_lock()
 * creates the state's directory and lock: -ENOENT with "no allocation
 * named 'NAME'" in err when no state file exists at path (it can hold no
 * such entry), else 0.
 */
int state_need_file(const char *path, const char *name, char *err,
		    size_t errlen);

/*
 * Append a new entry (st takes ownership of e's allocations; e is zeroed).
 * Returns 0 or -ENOMEM.
 */
int state_add(struct alloc_state *st, struct alloc_entry *e);
/* Remove and free the entry at index i. */
void state_remove(struct alloc_state *st, int i);

/*
 * Remove the entries named names[0..n-1], all or none: -ENOENT with "no
 * allocation named 'NAME'" in err when one is missing, and then nothing
 * is removed.  A name given twice is removed once.
 */
int state_remove_named(struct alloc_state *st, char *const *names, int n,
		       char *err, size_t errlen);
void alloc_entry_free(struct alloc_entry *e);

/* Pools.  Each returns 0 or -ENOMEM. */
/*
 * Whether take may build on st: no entry (those read, and the union of
 * those left as lines) holds CPUs outside possible, reserved CPUs, or a
 * CPU another entry holds.  Returns 0, -ENOMEM, or -EBADMSG with err
 * saying what ('cpm-alloc check' names them all).
 */
int state_check_held(const struct alloc_state *st,
		     const struct cpuset *possible, char *err, size_t errlen);
/* Online CPUs minus exclusive entries (minus reserved when strict). */
int state_shared(const struct alloc_state *st, const struct cpuset *online,
		 struct cpuset *out);
/* Online CPUs minus reserved minus every entry but skip (NULL: none). */
int state_available(const struct alloc_state *st,
		    const struct cpuset *online,
		    const struct alloc_entry *skip, struct cpuset *out);

/* Memory booked on node by every entry. */
uint64_t state_mem_booked(const struct alloc_state *st, int node);
/* Memory reserved on node: regular memory (kb 0) or huge pages of kb kB. */
uint64_t state_mem_reserved(const struct alloc_state *st, int node,
			    unsigned int kb);
/* Huge pages of kb kB booked on node by every entry, in bytes. */
uint64_t state_huge_booked(const struct alloc_state *st, unsigned int kb,
			   int node);

/*
 * Options as text ("full-cores,distribute=2"; "" for none) and back.
 * alloc_opts_parse() returns 0 or -EINVAL.
 */
void alloc_opts_format(const struct alloc_opts *o, struct strbuf *sb);
int alloc_opts_parse(const char *s, struct alloc_opts *o);

/*
 * Combine the state's policy options into o (options are booleans, so a
 * take gets the union).
 */
void alloc_opts_merge(struct alloc_opts *o, const struct alloc_opts *policy);

/*
 * Choose which k CPUs of have to give back when an entry shrinks so that
 * the rest stays compact: first CPUs on nodes holding the fewest of the
 * entry's CPUs, then on cores holding the fewest, highest CPU first.  With
 * whole_cores the CPUs go by whole cores.  Returns 0, -EINVAL when
 * whole_cores cannot be honoured, -ENOMEM.
 */
int alloc_shrink_pick(const struct topo *t, const struct cpuset *have, int k,
		      bool whole_cores, struct cpuset *drop);


#endif
