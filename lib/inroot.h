/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Opening a file of a replayed tree (--sysroot DIR) as if DIR were "/".
 * Such a tree may belong to another user: a symbolic link in it, or a
 * path with "..", must never lead a reader to a file outside it.
 */
#ifndef CPM_INROOT_H
#define CPM_INROOT_H

/*
 * openat(rootfd, path, flags) with rootfd as the root directory: ".."
 * never climbs above it and every symbolic link, absolute or relative,
 * resolves below it, as in a chroot (openat2's RESOLVE_IN_ROOT).  The
 * kernel's "magic" links (/proc/PID/fd/N and the like) are refused.
 * Where openat2 is missing or forbidden (kernels before 5.6, seccomp
 * filters, valgrind), open_in_root_walk() does the same in user space.
 * Returns the descriptor or -errno.
 */
int open_in_root(int rootfd, const char *path, int flags);

/*
 * open_in_root() one component at a time, with no openat2: each
 * component is opened O_NOFOLLOW from its parent's descriptor, a link
 * (which that refuses) is read and its text spliced in front of what is
 * left of the path, and ".." goes back to the root and down again, so
 * no rename of a directory during the walk can carry it outside the
 * root.  At most 40 links (the kernel's MAXSYMLINKS): -ELOOP after that.
 * The directories of the last path walked stay open for the next one
 * that begins the same way (see inroot.c).
 */
int open_in_root_walk(int rootfd, const char *path, int flags);

/* Forget what the walk keeps open for rootfd: call before closing it. */
void open_in_root_forget(int rootfd);

#endif
