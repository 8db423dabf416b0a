/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Core types and capacity on hybrid processors: Intel's P- and E-cores,
 * ARM big.LITTLE and DynamIQ parts with two to four kinds of core.
 *
 * Terminology:
 *   capacity    the kernel's cpu_capacity (1024 for the fastest CPU of the
 *               machine); without it, 1024 scaled by cpufreq's
 *               cpuinfo_max_freq relative to the fastest CPU.
 *   core type   a class of CPUs as the kernel's scheduler sees them.  cpm
 *               learns it, in this order, from the cpu_core/cpu_atom/
 *               cpu_lowpower PMU devices' CPU lists (Intel), from
 *               cpu_capacity, or from cpufreq (base_frequency, else
 *               cpuinfo_max_freq).  Capacities and frequencies within 10%
 *               of the highest value of a class belong to it, so a favoured
 *               core with a higher turbo does not make a type of its own;
 *               two classes of equal capacity are one type.
 *   part        ARM's MIDR implementer and part number (/proc/cpuinfo's
 *               "CPU implementer" and "CPU part"): an attribute of a CPU
 *               and a selector (part:0xd47, part:cortex-a710), never a
 *               type of its own.
 *   type names  by rank, fastest first, so that they mean the same on
 *               both vendors: two types are "performance" and
 *               "efficiency"; three "performance", "mid", "efficiency";
 *               four "prime", "performance", "mid", "efficiency"; more
 *               "prime", "performance", "mid1".."midN", "efficiency".
 *               "big"/"p" and "little"/"e" are accepted for performance
 *               and efficiency.
 *
 * A machine with one core type is not hybrid: tools show nothing new on it.
 */
#ifndef CPM_CORETYPE_H
#define CPM_CORETYPE_H

#include <stdbool.h>

#include "base/cpuset.h"
#include "base/strbuf.h"
#include "machine/sysroot.h"
#include "machine/topo.h"

struct coretype {
	char name[16];
	struct cpuset cpus;	/* the CPUs known to be of this type */
	int capacity;		/* highest capacity of its CPUs, -1 unknown */
	unsigned int cores;	/* cores among its online CPUs */
};

struct coretypes {
	int ncpus;		/* as topo.ncpus */
	int *type;		/* [ncpus] index into types[], -1 unknown */
	int *capacity;		/* [ncpus] 0..1024ish, -1 unknown; both
				 * NULL in core types taken from a state's
				 * layout without them (statetopo_types()) */
	int *part;		/* [ncpus] implementer << 12 | part, -1
				 * unknown; NULL when cpuinfo names none */
	int ntypes;		/* 0 unknown, 1 uniform, > 1 hybrid */
	struct coretype *types;	/* fastest first */
	const char *source;	/* "pmu", "capacity", "cpufreq", or NULL
				 * when nothing told ("midr" in states
				 * written when parts made types) */
};

/*
 * Learn the core type and capacity of every possible CPU of t below root.
 * Returns 0 (also when the machine tells nothing: ntypes is then 0), or
 * -ENOMEM; err gets a message.
 */
int coretype_load(struct coretypes *ct, const struct sysroot *root,
		  const struct topo *t, char *err, size_t errlen);
void coretype_free(struct coretypes *ct);

/* True when the machine has more than one core type. */
static inline bool
coretype_hybrid(const struct coretypes *ct)
{
	return ct->ntypes > 1;
}

/*
 * The index of the type called name (or one of its aliases, any case),
 * or -1.  On a machine with fewer than two types there is none.
 */
int coretype_find(const struct coretypes *ct, const char *name);

/*
 * The type a --core-type argument name asks for: its index; -1 for none
 * on a machine with one core type when name is one the machine would
 * accept there (performance, efficiency and their aliases name every
 * CPU); -EINVAL when the machine has no such type (err says so, with the
 * valid names on a hybrid machine).
 */
int coretype_arg(const struct coretypes *ct, const struct topo *t,
		 const char *name, char *err, size_t errlen);

/* The names of the types, fastest first, as "a, b or c" into buf. */
void coretype_list_names(const struct coretypes *ct, char *buf, size_t len);

/* The name of an ARM part (ct->part's value), "Cortex-A710", or NULL. */
const char *coretype_part_name(int part);

/*
 * Resolve the selectors "type:NAME", "part:0xNNN" (the part number, any
 * implementer), "part:NAME" (an ARM part's name, "Cortex-" optional) and
 * "capacity:MIN-MAX" (also "MIN-",
 * "-MAX" and "N") into the online CPUs they name.  Returns 0, -ENOENT when
 * sel is neither kind (not an error: another grammar may know it), -EINVAL
 * with a message for a malformed selector or one naming what the machine
 * does not have, -ENOMEM.  On a machine with one core type,
 * type:performance and type:efficiency (and their aliases) both name
 * every online CPU, so that scripts work unchanged there.
 */
int coretype_select(const struct coretypes *ct, const struct topo *t,
		    const char *sel, struct cpuset *out, char *err,
		    size_t errlen);

/*
 * The types that s's CPUs belong to, as a set of type indexes (CPUs of
 * unknown type are ignored).
 */
int coretype_types_of(const struct coretypes *ct, const struct cpuset *s,
		      struct cpuset *types);

/*
 * Append a "warning: ..." line to out when cpus mix core types, naming the
 * CPUs of each type and, when one type's online CPUs could hold them all,
 * the fastest such type.  Returns the number of findings (0 or 1), or
 * -ENOMEM.
 */
int coretype_check(const struct coretypes *ct, const struct topo *t,
		   const struct cpuset *cpus, struct strbuf *out);

#endif
