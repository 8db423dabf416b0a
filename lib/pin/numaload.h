/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libnuma, loaded when a memory policy is first set or pages are first
 * moved rather than when a tool starts.  Linked in, its constructor ran on
 * every start of every tool: it reads /proc/self/status and the meminfo of
 * every NUMA node and probes the memory policy of the calling thread,
 * about 108,000 instructions and 15 system calls that cpm-pin CPULIST --
 * COMMAND, the common case, never uses.
 *
 * Opening the library runs that constructor; its numa_error() and
 * numa_warn() hooks resolve to the program's own definitions (lib/pin/pin.c),
 * which the Makefile exports for the purpose.
 */
#ifndef CPM_NUMALOAD_H
#define CPM_NUMALOAD_H

#include <stddef.h>

#include <numa.h>

/* The libnuma functions cpm calls, with libnuma's own signatures. */
struct numaload {
	int (*available)(void);
	struct bitmask *(*allocate_nodemask)(void);
	struct bitmask *(*bitmask_setbit)(struct bitmask *, unsigned int);
	void (*bitmask_free)(struct bitmask *);
	void (*set_localalloc)(void);
	void (*set_membind)(struct bitmask *);
	void (*set_interleave_mask)(struct bitmask *);
	void (*set_preferred)(int);
	int (*has_preferred_many)(void);
	void (*set_preferred_many)(struct bitmask *);
	int (*migrate_pages)(int, struct bitmask *, struct bitmask *);
};

/* The shared object opened: libnuma's soname. */
#define NUMALOAD_SONAME "libnuma.so.1"

/*
 * Open libnuma (once; later calls return the same table) and look its
 * functions up.  Returns the table, or NULL when the library or one of
 * the functions is missing; err then says which.
 */
const struct numaload *numaload(char *err, size_t errlen);

/* Whether libnuma has been opened in this process. */
int numaload_loaded(void);

#endif
