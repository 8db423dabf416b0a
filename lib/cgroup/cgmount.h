/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The cgroup mounts that /proc/self/mountinfo lists: where the live
 * back end of the cgroup layer (cgroup.h) finds each hierarchy, the way
 * libcgroup's cgroup_init() does, without its cost (it clears an 800 KB
 * table, some 200 pages touched for the first time, before it reads a
 * line), which a tool that only reads has no use for.
 */
#ifndef CPM_CGMOUNT_H
#define CPM_CGMOUNT_H

#include <stddef.h>

/*
 * The mount point of the first mount in text (mountinfo's format, see
 * proc(5)) of a cgroup v1 hierarchy whose super options list controller
 * ctrl, or, ctrl NULL, of the first cgroup2 mount; unescaped ("\040" is a
 * space) into path (size bytes).  1 found, 0 not, -ENAMETOOLONG.  Lines
 * that do not parse are passed over.
 */
int cg_mountinfo_find(const char *text, const char *ctrl, char *path,
		      size_t size);

#endif
