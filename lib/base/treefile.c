// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Files of a tree that is not the kernel's; see treefile.h.
 */
#include <errno.h>

#include "base/treefile.h"

int
tree_file_check(int dirfd, const struct stat *st)
{
	struct stat ds;

	if (st->st_nlink != 1)
		return -EXDEV;
	if (fstat(dirfd, &ds) < 0)
		return -errno;
	return st->st_uid == ds.st_uid ? 0 : -EXDEV;
}
