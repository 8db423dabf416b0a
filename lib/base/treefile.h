/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Files of a tree that is not the kernel's (a --sysroot or --cgroup-root
 * another user may have made): whether one is the tree's own or a file
 * linked in from outside it.
 */
#ifndef CPM_TREEFILE_H
#define CPM_TREEFILE_H

#include <sys/stat.h>

/*
 * Whether the file st, found in the directory dirfd of such a tree, is
 * the tree's own: 0, or -EXDEV when it has more than one link or belongs
 * to another owner than the directory (with protected_hardlinks off, any
 * user can link any file into a tree of theirs; neither sysfs, procfs nor
 * a cgroup file system has a file of two names), or -errno when dirfd
 * cannot be looked at.
 */
int tree_file_check(int dirfd, const struct stat *st);

#endif
