/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Opening paths safely.  Opening a file of a replayed tree (--sysroot
 * DIR) as if DIR were "/": such a tree may belong to another user, and a
 * symbolic link in it, or a path with "..", must never lead a reader to
 * a file outside it.  Opening a path with no link followed that another
 * user could have planted, and refusing what is not a regular file.
 */
#ifndef CPM_PATH_H
#define CPM_PATH_H

#include <stdbool.h>
#include <sys/stat.h>

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
 * that begins the same way (see path.c).
 */
int open_in_root_walk(int rootfd, const char *path, int flags);

/* Forget what the walk keeps open for rootfd: call before closing it. */
void open_in_root_forget(int rootfd);

/*
 * How open_how_at(), open_regular_at() and the readers of fileread.h
 * open a file (the READ_HOW_MASK bits of a reader's flags; 0: openat(2)
 * as it is).  READ_IN_ROOT: dirfd is the root of a replayed tree another user
 * may write, and path is resolved as if it were "/" (open_in_root()): no
 * link in the tree, nor "..", leads outside it.
 */
#define READ_IN_ROOT 0x1u
/*
 * READ_NO_LINK: the file itself may not be a symbolic link (-ELOOP).  No
 * cgroup file system can hold one: a link where a control file belongs
 * is a fake tree's, planted to make root read another file.  With
 * READ_IN_ROOT or READ_NO_LINK, a file of more than one hard link is
 * refused too (-EMLINK): no kernel file system has one, and in a tree
 * another user made it may be root's file, linked in.
 */
#define READ_NO_LINK 0x2u
/*
 * READ_NO_LINKS: no component of path may be a symbolic link (-ELOOP),
 * nor lead out of dirfd's directory or its mount (-EXDEV): path is a
 * file below a directory that was checked but not opened, such as
 * "leaf/cpu.stat" from the parent of a cgroup leaf, and whatever
 * replaced that directory meanwhile may not send the read elsewhere.
 * Needs openat2 (Linux 5.6): without it, -ENOSYS (open_no_links_works()
 * tells beforehand).
 */
#define READ_NO_LINKS 0x4u
#define READ_HOW_MASK (READ_IN_ROOT | READ_NO_LINK | READ_NO_LINKS)

/*
 * The open of the readers of fileread.h, for one that reads a file in
 * pieces: path (how: READ_HOW_MASK bits) open O_RDONLY | O_NONBLOCK, its
 * stat in *stp (optional); -EISDIR, -EFTYPE_CPM for anything but a
 * regular file, or -errno.
 */
int open_regular_at(int dirfd, const char *path, struct stat *stp,
		    unsigned int how);
/* openat(dirfd, path, flags) as how (READ_HOW_MASK bits) says: an fd or
 * -errno. */
int open_how_at(int dirfd, const char *path, int flags, unsigned int how);
/* Whether READ_NO_LINKS opens can be made here (asked once). */
bool open_no_links_works(void);

/*
 * Open directory path (relative to dirfd unless absolute) one component
 * at a time, never following a symbolic link another user could have
 * planted: a link is followed only when it belongs to root or to us and
 * sits in a directory others cannot write (or a sticky one).  DIR_CREATE
 * creates missing components with mode; DIR_NO_LINKS follows no link at
 * all; DIR_PATH opens O_PATH (enough to open what is below, and needs
 * no read permission on the way).  Returns the directory's fd or -errno
 * (-ELOOP for a refused link).
 */
#define DIR_CREATE	1u
#define DIR_NO_LINKS	2u
#define DIR_PATH	4u
int open_dir_at(int dirfd, const char *path, unsigned int flags,
		unsigned int mode);
/* open_dir_at() of path's directory; *basep gets path's last component. */
int open_parent_at(int dirfd, const char *path, unsigned int flags,
		   unsigned int mode, const char **basep);

/*
 * May a walk follow the symbolic link 'name' in directory dfd?  Only when
 * no other user could have put it there: it belongs to root or to us, and
 * the directory holding it is not open to others (or is sticky, so that
 * they cannot replace our link).  This is the kernel's protected_symlinks
 * rule, applied whatever the sysctl says.
 */
bool path_link_trusted(int dfd, const char *name);

#endif
