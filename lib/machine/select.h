/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * CPU selectors: names for sets of CPUs that any tool can accept where it
 * takes a cpulist.
 *
 *   all, possible, present, online, offline, isolated, allowed
 *   node:N          the online CPUs of NUMA node N
 *   socket:N        the CPUs of socket (package) N
 *   die:S.D         the online CPUs of die D in socket S
 *   l3:N            the CPUs sharing the L3 cache with id N
 *   siblings:CPU    CPU and its SMT siblings
 *   thread:K        the K-th thread (from 0) of every online core
 *   type:NAME       the online CPUs of a core type (coretype.h)
 *   capacity:MIN-MAX  the online CPUs of that capacity (coretype.h)
 *   part:0xNNN, part:NAME  the online CPUs of an ARM part (coretype.h)
 *   dev:NAME        the online CPUs local to a PCI device (device.h:
 *                   device_select(), which reads the device's files)
 *
 * A plain cpulist ("0-3,8") or "-" (stdin) is not a selector: the tool
 * reads those itself, since only it may read stdin.
 */
#ifndef CPM_SELECT_H
#define CPM_SELECT_H

#include <stdbool.h>
#include <stddef.h>

#include "base/cpuset.h"
#include "machine/topo.h"

/* True when sel is a cpulist or "-" rather than a named selector. */
bool select_is_cpulist(const char *sel);

/*
 * Resolve the named selector sel against t into out (replacing it).
 * Returns 0; -EINVAL for a selector that is unknown, malformed or names
 * something t does not have (err says which, e.g. "invalid selector
 * 'node:9': no NUMA node 9"); -ENOMEM.
 */
int select_resolve(const struct topo *t, const char *sel, struct cpuset *out,
		   char *err, size_t errlen);

/* True for the selectors that need the core types (type:, capacity:,
 * part:). */
bool select_needs_types(const char *sel);

struct coretypes;

/*
 * Resolve any named selector: the core type ones against ct (loaded by
 * the caller when select_needs_types(sel); otherwise ct may be NULL), the
 * others as select_resolve().  Returns as select_resolve().
 */
int select_resolve_all(const struct topo *t, const struct coretypes *ct,
		       const char *sel, struct cpuset *out, char *err,
		       size_t errlen);

#endif
