/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the standard tools read from a dumped tree: lscpu --sysroot DIR
 * and hwloc's lstopo --input DIR want files cpm itself does not read
 * (every topology and cache attribute, node and CPU masks, the kernel's
 * CPU limit, the memory totals), so that anyone can check a dump with
 * them.
 */
#ifndef CPM_DUMPSTD_H
#define CPM_DUMPSTD_H

#include "base/strbuf.h"
#include "machine/sysroot.h"
#include "machine/topo.h"

/*
 * Append to paths, one per line, the files below root that lscpu and
 * hwloc read for the machine t: the files that exist of a fixed list,
 * and every regular file of each possible CPU's topology/ and
 * cache/index*\/ directories.  Returns 0 or -ENOMEM.
 */
int dumpstd_paths(const struct sysroot *root, const struct topo *t,
		  struct strbuf *paths);

#endif
