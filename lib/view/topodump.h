/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Dumping the sysfs/procfs files cpm reads, so that --sysroot DIR replays
 * this machine elsewhere.
 */
#ifndef CPM_TOPODUMP_H
#define CPM_TOPODUMP_H

#include <stddef.h>

#include "machine/sysroot.h"

/*
 * Load the topology of root (with the process view) while recording every
 * file read, then copy each of those files below dir, which must not exist
 * or be empty.  Returns 0; -EEXIST when dir holds files, -EINVAL when the
 * topology cannot be read, or -errno; err gets a one-line explanation.
 */
int topo_dump(const struct sysroot *root, const char *dir, char *err,
	      size_t errlen);

#endif
