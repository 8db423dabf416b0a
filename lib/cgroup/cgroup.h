/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The cgroup layer: every cgroup access in cpm goes through here.
 *
 * Terminology:
 *   hierarchy  where a controller's groups live: on cgroup v1 one mount
 *              per controller (cpu, cpuacct and cpuset may or may not be
 *              co-mounted), on cgroup v2 one unified tree for all.
 *   group      a path relative to the hierarchy root, "kubepods/pod1";
 *              "" is the root group.  Group names are the same in every
 *              v1 hierarchy, so one name addresses the group's cpu,
 *              cpuacct and cpuset directories.
 *   controller one of enum cg_ctrl; it selects the hierarchy.
 *
 * Two back ends, chosen by cg_open():
 *
 *   live   (root == NULL): mounts and versions are found in
 *          /proc/self/mountinfo as libcgroup's cgroup_init() finds
 *          them (cgmount.h), without its cost: a tool that only reads
 *          never sets libcgroup up.  Changes a user would make with
 *          libcgroup go through it, set up by the first one
 *          (cg_uses_libcgroup()): cg_write() uses cgroup_modify_cgroup(),
 *          cg_create() uses cgroup_create_cgroup() (which also enables
 *          the controller in every v2 ancestor's cgroup.subtree_control),
 *          cg_attach() on v2 uses cgroup_attach_task_pid().  Exceptions,
 *          and why:
 *            - cg_attach() on v1 writes cgroup.procs itself: libcgroup
 *              2.0.2 writes "tasks", which moves a single thread, and cpm
 *              always moves whole processes.
 *            - cg_remove() is a plain rmdir: libcgroup's delete moves the
 *              group's processes to the parent first, which cpm never
 *              does behind a user's back.
 *            - reads (cg_read(), cg_walk(), the stat helpers) use plain
 *              openat() below the mount: libcgroup's readers are
 *              per-value string copies with 100-byte limits and its tree
 *              walk is fts() over every file, far too slow for 10,000
 *              groups.
 *          Before any libcgroup call the group path is validated and
 *          its existing components opened with O_NOFOLLOW, so a symlink
 *          or a ".." can never send libcgroup outside the hierarchy.
 *          Values longer than libcgroup's 4096-byte buffers (huge
 *          cpusets) are written directly.  libcgroup's default logger
 *          prints on stdout: it is silenced.  Where libcgroup does not
 *          see a controller where mountinfo put it (it finds no usable
 *          mount: a v2 mount with no controllers, unsupported by 2.0.2),
 *          changes are plain file I/O; where mountinfo has no cpu or
 *          cpuset hierarchy at all, /sys/fs/cgroup is looked at, with
 *          plain file I/O (h->use_libcgroup false).
 *
 *   tree   (root, e.g. --cgroup-root DIR): a plain directory
 *          tree for replay and tests.  DIR holding cgroup.controllers is
 *          v2; otherwise v1 with DIR/cpu, DIR/cpuacct, DIR/cpuset,
 *          DIR/memory (a missing directory is an absent controller; a
 *          symlink such as DIR/cpuacct -> cpu is a co-mount).  All access
 *          is plain file I/O: libcgroup has no way to point it at another
 *          root.  Writes replace the file's content, and cg_create() lays
 *          down the controller's interface files with the kernel's
 *          defaults (as the kernel would), so that tools can be exercised
 *          on an empty tree.  No kernel validation is emulated.  A DIR
 *          that is itself on a cgroup file system (say --cgroup-root
 *          /sys/fs/cgroup) is detected (cg_mount.kernel) and left to the
 *          kernel: plain writes, no files laid down.
 *
 * Errors: functions return 0 (or a count) on success and a negative errno
 * code on failure, and fill err (when non-NULL) with a one-line message
 * naming the file, the group and the reason, e.g.
 *   cannot write '500' to cpu.cfs_quota_us of kubepods/a: Invalid argument
 * -EINVAL always means an invalid argument (bad group path, unknown
 * controller): callers map it to exit 2.  Kernel refusals of a write keep
 * the kernel's errno (often EINVAL too, so callers that validate before
 * writing can tell the two apart by when they happen).
 */
#ifndef CPM_CGROUP_H
#define CPM_CGROUP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

enum cg_ctrl {
	CG_CPU,
	CG_CPUACCT,	/* v1 only; on v2 it is an alias of CG_CPU */
	CG_CPUSET,
	CG_MEMORY,
	CG_NCTRL
};

#define CG_PATH_MAX 4096

struct cg_mount {
	int fd;			/* O_DIRECTORY fd of the hierarchy root, -1: absent */
	int version;		/* 1 or 2; 0 when absent */
	char path[CG_PATH_MAX];	/* mount point or tree directory, for messages */
	bool kernel;		/* a real cgroupfs (live, or a tree given as
				 * --cgroup-root on one): the kernel makes
				 * the interface files and checks writes */
	dev_t dev;		/* with ino: tells co-mounted hierarchies apart */
	ino_t ino;
};

struct cg_hier {
	int version;		/* 1 or 2: the version of the cpu hierarchy
				 * (of the first present controller if none) */
	bool live;		/* discovered on the running system */
	bool use_libcgroup;	/* live, and changes may use libcgroup */
	char root[CG_PATH_MAX];	/* tree back end: the DIR given; live: "" */
	struct cg_mount ctrl[CG_NCTRL];
};

/* "cpu", "cpuacct", "cpuset", "memory". */
const char *cg_ctrl_name(enum cg_ctrl c);

/*
 * Open a hierarchy.  root: a directory tree (tree back end), or NULL for
 * the live system.
 * Returns 0; -ENOENT when no cpu or cpuset hierarchy is found, -ENOTDIR
 * or -errno when root cannot be opened.  On failure nothing needs
 * closing.
 */
int cg_open(struct cg_hier *h, const char *root, char *err, size_t errlen);
void cg_close(struct cg_hier *h);

/* True when controller c has a hierarchy. */
bool cg_has(const struct cg_hier *h, enum cg_ctrl c);

/* The cgroup version of controller c's hierarchy (1 or 2), 0 if absent. */
int cg_version(const struct cg_hier *h, enum cg_ctrl c);

/* True when controllers a and b share one hierarchy (v2, or v1 co-mount). */
bool cg_same_hier(const struct cg_hier *h, enum cg_ctrl a, enum cg_ctrl b);

/*
 * Check a group path and write its canonical form into out (size
 * outlen): components separated by single slashes, no leading or trailing
 * slash; the root group is "".  Accepted: "", "/" and "." (root), and
 * relative paths; a leading "/" is allowed and means the hierarchy root
 * (as /proc/PID/cgroup prints paths).  Rejected with -EINVAL and a
 * message: "." or ".." components, NUL or newline bytes, components
 * longer than NAME_MAX, paths longer than CG_PATH_MAX.  This checks the
 * text only; symlinks are refused when the path is opened.
 * out may be NULL to only check.
 */
int cg_path_check(const char *group, char *out, size_t outlen, char *err,
		  size_t errlen);

/* As printed to users: "/" for the root group, the path otherwise. */
const char *cg_display(const char *group);

/*
 * Open group's directory in controller c's hierarchy, component by
 * component with O_NOFOLLOW, so that a symlink anywhere below the
 * hierarchy root is refused (-ELOOP/-ENOTDIR, reported as "not a cgroup
 * directory").  Returns an O_RDONLY|O_DIRECTORY fd (caller closes),
 * -EINVAL for a bad path, -ENOENT when the group does not exist, -ENODEV
 * when controller c has no hierarchy.
 */
int cg_open_group(const struct cg_hier *h, enum cg_ctrl c, const char *group,
		  char *err, size_t errlen);

/* Is name a word of list (space- or newline-separated), as controllers
 * are in cgroup.controllers and cgroup.subtree_control? */
bool word_listed(const char *list, const char *name);

/* True when group exists in controller c's hierarchy. */
bool cg_exists(const struct cg_hier *h, enum cg_ctrl c, const char *group);

/*
 * Read a small control file of group into buf (NUL-terminated, one
 * trailing newline removed).  Returns the length, -ENOENT (group or file
 * missing), -EFBIG (does not fit), -EINVAL (bad path) or -errno.
 */
ssize_t cg_read(const struct cg_hier *h, enum cg_ctrl c, const char *group,
		const char *file, char *buf, size_t size, char *err,
		size_t errlen);

/*
 * cg_read() without a message, for a probe: one openat2 of group/file
 * below the hierarchy's root (no symlink followed), one read and one
 * close when the file gives its whole small text at once; -ENOENT at
 * once when the group or the file is missing; otherwise cg_read()'s
 * answer.  A look at 10,000 groups' cpuset files costs a third of the
 * system calls cg_read() makes.
 */
ssize_t cg_read_quiet(const struct cg_hier *h, enum cg_ctrl c,
		      const char *group, const char *file, char *buf,
		      size_t size);

/*
 * Write value to group's control file in one write(2) (live: through
 * cgroup_modify_cgroup()).  The file must exist (as in the kernel).
 * Returns 0 or -errno with "cannot write 'V' to FILE of GROUP: REASON".
 */
int cg_write(const struct cg_hier *h, enum cg_ctrl c, const char *group,
	     const char *file, const char *value, char *err, size_t errlen);

/*
 * Create group (and missing parents) in controller c's hierarchy; on v2
 * enable c in every ancestor's cgroup.subtree_control.  An existing group
 * is not an error.  Returns 0 or -errno.
 */
int cg_create(const struct cg_hier *h, enum cg_ctrl c, const char *group,
	      char *err, size_t errlen);

/*
 * Remove an empty group (rmdir; no recursion, no migration).  The root
 * group cannot be removed (-EINVAL).  Returns 0, -ENOENT, -EBUSY (still
 * has processes or children) or -errno.
 */
int cg_remove(const struct cg_hier *h, enum cg_ctrl c, const char *group,
	      char *err, size_t errlen);

/*
 * The length of the longest proper ancestor of group (canonical) that
 * exists in controller c's hierarchy: 0 when only the root does.  Taken
 * before cg_create(), it bounds what cg_remove_made() may remove.
 */
size_t cg_existing_prefix(const struct cg_hier *h, enum cg_ctrl c,
			  const char *group);

/*
 * Undo a cg_create() of group (canonical) in c's hierarchy: remove group
 * and then each ancestor longer than keep (cg_existing_prefix() before
 * the create), the deepest first, a plain rmdir each; one that something
 * else has since put a group or a process in stays, and so do those
 * above it.
 */
void cg_remove_made(const struct cg_hier *h, enum cg_ctrl c,
		    const char *group, size_t keep);

/*
 * Whether changes to controller c's groups go through libcgroup (the
 * live back end, where libcgroup sees c where cg_open() found it), not
 * plain file I/O.  The first call sets libcgroup up.
 */
bool cg_uses_libcgroup(const struct cg_hier *h, enum cg_ctrl c);

/*
 * Move the whole process pid (every thread) into group by writing
 * cgroup.procs.  Returns 0 or -errno (-ESRCH: no such process; -ENOSPC
 * on v1 cpuset: the group's cpus or mems are empty).
 */
int cg_attach(const struct cg_hier *h, enum cg_ctrl c, const char *group,
	      pid_t pid, char *err, size_t errlen);

/*
 * Where a group's control files are: in the directory fd (sub NULL), or
 * in the entry sub of directory fd, a directory checked but not opened:
 * read "sub/FILE" from fd with READ_NO_LINKS (path.h), so that whatever
 * replaced it meanwhile cannot send the read elsewhere.
 */
struct cg_at {
	int fd;
	const char *sub;
};

/*
 * Called by cg_walk() for each group, parents before children.  at says
 * where its files are (valid during the call only): its directory, or,
 * for a leaf the walk only looked at, its parent's and its name there
 * (opening a directory costs more than a control file, and most groups
 * are leaves).  st is its stat when the walk took one (it does where
 * link counts tell leaves; always when at->sub is set), else NULL.
 * Return 0 to go on, 1 to skip this group's children, a negative errno
 * to stop the walk.
 */
struct stat;
typedef int (*cg_walk_fn)(const char *group, const struct cg_at *at,
			  const struct stat *st, void *arg);

/*
 * Walk group and its descendants in controller c's hierarchy, pre-order,
 * children in name order.  One open and one readdir per directory with
 * subdirectories, openat-relative; a leaf (where link counts tell, with
 * openat2) only one fstatat() from its parent; symlinks are never
 * followed.  A group that vanishes
 * during the walk is skipped silently.  Returns 0, the callback's
 * negative code (its message in err untouched), or -errno.
 */
int cg_walk(const struct cg_hier *h, enum cg_ctrl c, const char *group,
	    cg_walk_fn fn, void *arg, char *err, size_t errlen);

#endif
