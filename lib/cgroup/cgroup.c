// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The cgroup layer; see cgroup.h for the two back ends and why each
 * operation goes through libcgroup or plain file I/O.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <linux/openat2.h>

#include <libcgroup.h>

#include "base/err.h"
#include "base/fileread.h"
#include "base/filewrite.h"
#include "base/macros.h"
#include "base/path.h"
#include "base/treefile.h"
#include "cgroup/cgmount.h"
#include "cgroup/cgroup.h"

#define CGROUP2_MAGIC	0x63677270
#define CGROUP1_MAGIC	0x27e0eb

static const char *const ctrl_names[CG_NCTRL] = {
	[CG_CPU] = "cpu",
	[CG_CPUACCT] = "cpuacct",
	[CG_CPUSET] = "cpuset",
	[CG_MEMORY] = "memory",
};

const char *
cg_ctrl_name(enum cg_ctrl c)
{
	if ((unsigned int)c >= CG_NCTRL)
		return "?";
	return ctrl_names[c];
}

const char *
cg_display(const char *group)
{
	return group[0] == '\0' ? "/" : group;
}

bool
cg_has(const struct cg_hier *h, enum cg_ctrl c)
{
	return (unsigned int)c < CG_NCTRL && h->ctrl[c].fd >= 0;
}

int
cg_version(const struct cg_hier *h, enum cg_ctrl c)
{
	return cg_has(h, c) ? h->ctrl[c].version : 0;
}

bool
cg_same_hier(const struct cg_hier *h, enum cg_ctrl a, enum cg_ctrl b)
{
	return cg_has(h, a) && cg_has(h, b) &&
	       h->ctrl[a].dev == h->ctrl[b].dev &&
	       h->ctrl[a].ino == h->ctrl[b].ino;
}

/* ---- opening a hierarchy ---- */

static void
mount_init(struct cg_mount *m)
{
	m->fd = -1;
	m->version = 0;
	m->kernel = false;
	m->path[0] = '\0';
	m->dev = 0;
	m->ino = 0;
}

/* A control file: read_buf_at(), never through a link (no cgroup file
 * system holds one; a fake tree may, planted to make root read another
 * file). */
static ssize_t
cg_read_at(int dirfd, const char *file, char *buf, size_t size)
{
	return read_buf_at(dirfd, file, READ_NO_LINK, buf, size, NULL);
}

/* Open dir as controller c's hierarchy; version 0 means "by statfs". */
static int
mount_set(struct cg_mount *m, const char *dir, int version)
{
	struct stat st;
	struct statfs sf;
	int fd;

	if (strlen(dir) >= sizeof(m->path))
		return -ENAMETOOLONG;
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0) {
		int e = -errno;

		close(fd);
		return e;
	}
	if (version == 0) {
		if (fstatfs(fd, &sf) < 0) {
			int e = -errno;

			close(fd);
			return e;
		}
		version = (unsigned long)sf.f_type == CGROUP2_MAGIC ? 2 : 1;
	}
	m->kernel = fstatfs(fd, &sf) == 0 &&
		    ((unsigned long)sf.f_type == CGROUP2_MAGIC ||
		     (unsigned long)sf.f_type == CGROUP1_MAGIC);
	m->fd = fd;
	m->version = version;
	m->dev = st.st_dev;
	m->ino = st.st_ino;
	strcpy(m->path, dir);
	return 0;
}

static int
mount_dup(struct cg_mount *dst, const struct cg_mount *src)
{
	*dst = *src;
	dst->fd = fcntl(src->fd, F_DUPFD_CLOEXEC, 0);
	return dst->fd < 0 ? -errno : 0;
}

bool
word_listed(const char *list, const char *name)
{
	size_t n = strlen(name);
	const char *p = list;

	while ((p = strstr(p, name)) != NULL) {
		if ((p == list || p[-1] == ' ' || p[-1] == '\n') &&
		    (p[n] == '\0' || p[n] == ' ' || p[n] == '\n'))
			return true;
		p += n;
	}
	return false;
}

/*
 * A v2 hierarchy at dir: the controllers its cgroup.controllers lists (or
 * all of them, for a tree whose file is empty) share one directory.
 */
static int
open_v2(struct cg_hier *h, const char *dir, bool all_if_empty)
{
	char list[1024];
	ssize_t n;
	int r;

	r = mount_set(&h->ctrl[CG_CPU], dir, 2);
	if (r < 0)
		return r;
	n = cg_read_at(h->ctrl[CG_CPU].fd, "cgroup.controllers", list,
		       sizeof(list));
	if (n < 0)
		list[0] = '\0';
	for (int c = CG_CPUSET; c < CG_NCTRL; c++) {
		if ((list[0] == '\0' && all_if_empty) ||
		    word_listed(list, ctrl_names[c])) {
			r = mount_dup(&h->ctrl[c], &h->ctrl[CG_CPU]);
			if (r < 0)
				return r;
		}
	}
	if (list[0] != '\0' && !word_listed(list, "cpu")) {
		close(h->ctrl[CG_CPU].fd);
		mount_init(&h->ctrl[CG_CPU]);
		return 0;
	}
	/* cpu.stat carries the usage on v2: cpuacct is an alias of cpu. */
	return mount_dup(&h->ctrl[CG_CPUACCT], &h->ctrl[CG_CPU]);
}

static void
set_version(struct cg_hier *h)
{
	h->version = 0;
	if (cg_has(h, CG_CPU)) {
		h->version = h->ctrl[CG_CPU].version;
		return;
	}
	for (int c = 0; c < CG_NCTRL; c++)
		if (cg_has(h, c)) {
			h->version = h->ctrl[c].version;
			return;
		}
}

static int
open_tree(struct cg_hier *h, const char *dir, char *err, size_t errlen)
{
	char path[CG_PATH_MAX + 32];
	struct stat st;
	int r;

	if (strlen(dir) >= CG_PATH_MAX) {
		err_set(err, errlen, "cgroup root '%.64s...' is too long", dir);
		return -ENAMETOOLONG;
	}
	if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode)) {
		r = stat(dir, &st) < 0 ? -errno : -ENOTDIR;
		err_set(err, errlen, "cannot open cgroup root '%s': %s", dir,
		       strerror(-r));
		return r;
	}
	strcpy(h->root, dir);
	snprintf(path, sizeof(path), "%s/cgroup.controllers", dir);
	if (access(path, F_OK) == 0) {
		r = open_v2(h, dir, true);
		if (r < 0) {
			err_set(err, errlen, "cannot open cgroup root '%s': %s",
			       dir, strerror(-r));
			return r;
		}
	} else {
		for (int c = 0; c < CG_NCTRL; c++) {
			snprintf(path, sizeof(path), "%s/%s", dir, ctrl_names[c]);
			r = mount_set(&h->ctrl[c], path, 1);
			if (r < 0 && r != -ENOENT) {
				err_set(err, errlen, "cannot open '%s': %s", path,
				       strerror(-r));
				return r;
			}
		}
	}
	if (!cg_has(h, CG_CPU) && !cg_has(h, CG_CPUSET)) {
		err_set(err, errlen,
		       "no cgroup hierarchy in '%s' (want cgroup.controllers, or cpu/ or cpuset/)",
		       dir);
		return -ENOENT;
	}
	return 0;
}

/*
 * The hierarchies /proc/self/mountinfo lists, found as libcgroup's
 * cgroup_init() finds them: for each controller the first v1 mount that
 * has it, else the first v2 mount when its cgroup.controllers lists it.
 */
static void
open_mounts(struct cg_hier *h)
{
	char path[CG_PATH_MAX], file[CG_PATH_MAX + 32], list[1024];
	size_t len;
	char *text;
	int r;

	if (read_file_at(AT_FDCWD, "/proc/self/mountinfo",
			 &(struct read_opts){ .flags = READ_TEXT }, &text,
			 &len) < 0)
		return;
	for (int c = 0; c < CG_NCTRL; c++)
		if (cg_mountinfo_find(text, ctrl_names[c], path,
				      sizeof(path)) == 1 &&
		    mount_set(&h->ctrl[c], path, 1) < 0)
			mount_init(&h->ctrl[c]);
	r = cg_mountinfo_find(text, NULL, path, sizeof(path));
	free(text);
	if (r != 1)
		return;
	snprintf(file, sizeof(file), "%s/cgroup.controllers", path);
	if (read_buf_at(AT_FDCWD, file, 0, list, sizeof(list), NULL) < 0)
		return;
	for (int c = 0; c < CG_NCTRL; c++)
		if (c != CG_CPUACCT && !cg_has(h, c) &&
		    word_listed(list, ctrl_names[c]) &&
		    mount_set(&h->ctrl[c], path, 2) < 0)
			mount_init(&h->ctrl[c]);
	/* cpu.stat carries the usage on v2: cpuacct is an alias of cpu. */
	if (cg_version(h, CG_CPU) == 2 && !cg_has(h, CG_CPUACCT) &&
	    mount_dup(&h->ctrl[CG_CPUACCT], &h->ctrl[CG_CPU]) < 0)
		mount_init(&h->ctrl[CG_CPUACCT]);
}

static int
open_live(struct cg_hier *h, char *err, size_t errlen)
{
	struct statfs sf;
	int r;

	h->live = true;
	/* libcgroup itself only for a write: cg_uses_libcgroup() */
	h->use_libcgroup = true;
	open_mounts(h);
	if (cg_has(h, CG_CPU) || cg_has(h, CG_CPUSET))
		return 0;
	cg_close(h);
	h->live = true;
	/* None found there (a v2 mount with no controllers): the usual
	 * places, with plain file I/O. */
	h->use_libcgroup = false;
	if (statfs("/sys/fs/cgroup", &sf) == 0 &&
	    (unsigned long)sf.f_type == CGROUP2_MAGIC) {
		r = open_v2(h, "/sys/fs/cgroup", false);
		if (r < 0) {
			err_set(err, errlen, "cannot open '/sys/fs/cgroup': %s",
			       strerror(-r));
			return r;
		}
	} else {
		for (int c = 0; c < CG_NCTRL; c++) {
			char path[64];

			snprintf(path, sizeof(path), "/sys/fs/cgroup/%s",
				 ctrl_names[c]);
			if (statfs(path, &sf) == 0 &&
			    (unsigned long)sf.f_type == CGROUP1_MAGIC)
				mount_set(&h->ctrl[c], path, 1);
		}
	}
	if (!cg_has(h, CG_CPU) && !cg_has(h, CG_CPUSET)) {
		err_set(err, errlen, "no cpu or cpuset cgroup hierarchy is mounted");
		return -ENOENT;
	}
	return 0;
}

int
cg_open(struct cg_hier *h, const char *root, char *err, size_t errlen)
{
	int r;

	memset(h, 0, sizeof(*h));
	for (int c = 0; c < CG_NCTRL; c++)
		mount_init(&h->ctrl[c]);
	if (root != NULL)
		r = open_tree(h, root, err, errlen);
	else
		r = open_live(h, err, errlen);
	if (r < 0) {
		cg_close(h);
		return r;
	}
	set_version(h);
	return 0;
}

void
cg_close(struct cg_hier *h)
{
	for (int c = 0; c < CG_NCTRL; c++) {
		if (h->ctrl[c].fd >= 0)
			close(h->ctrl[c].fd);
		mount_init(&h->ctrl[c]);
	}
	h->version = 0;
	h->use_libcgroup = false;
}

/* ---- group paths ---- */

int
cg_path_check(const char *group, char *out, size_t outlen, char *err,
	      size_t errlen)
{
	char buf[CG_PATH_MAX];
	size_t len = 0;
	const char *p = group;

	if (group == NULL) {
		err_set(err, errlen, "missing cgroup path");
		return -EINVAL;
	}
	if (strcmp(group, ".") == 0)
		p = "";
	while (*p != '\0') {
		const char *e;
		size_t n;

		while (*p == '/')
			p++;
		if (*p == '\0')
			break;
		e = strchr(p, '/');
		n = e ? (size_t)(e - p) : strlen(p);
		if ((n == 1 && p[0] == '.') || (n == 2 && p[0] == '.' && p[1] == '.')) {
			err_set(err, errlen,
			       "invalid cgroup path '%s': '%.*s' components are not allowed",
			       group, (int)n, p);
			return -EINVAL;
		}
		if (memchr(p, '\n', n) != NULL) {
			err_set(err, errlen,
			       "invalid cgroup path: a newline is not allowed");
			return -EINVAL;
		}
		if (n > NAME_MAX) {
			err_set(err, errlen,
			       "invalid cgroup path: component '%.32s...' is too long",
			       p);
			return -EINVAL;
		}
		if (len + n + 2 > sizeof(buf)) {
			err_set(err, errlen, "invalid cgroup path: too long");
			return -EINVAL;
		}
		if (len > 0)
			buf[len++] = '/';
		memcpy(buf + len, p, n);
		len += n;
		p += n;
	}
	buf[len] = '\0';
	if (out != NULL) {
		if (len + 1 > outlen) {
			err_set(err, errlen, "invalid cgroup path: too long");
			return -EINVAL;
		}
		memcpy(out, buf, len + 1);
	}
	return 0;
}

/* Open group below a hierarchy root without following any symlink. */
static int
open_beneath(int rootfd, const char *group)
{
	struct open_how how;
	char comp[NAME_MAX + 1];
	const char *p;
	long fd;
	int cur;

	if (group[0] == '\0') {
		fd = openat(rootfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		return fd < 0 ? -errno : (int)fd;
	}
	memset(&how, 0, sizeof(how));
	how.flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW;
	how.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS |
		      RESOLVE_NO_MAGICLINKS;
	fd = syscall(SYS_openat2, rootfd, group, &how, sizeof(how));
	if (fd >= 0)
		return (int)fd;
	if (errno == ENOENT)
		return -ENOENT;
	/* No openat2 (or a refusal to explain): one component at a time. */
	cur = rootfd;
	p = group;
	while (*p != '\0') {
		const char *e = strchr(p, '/');
		size_t n = e ? (size_t)(e - p) : strlen(p);
		int nfd, saved;
		struct stat st;

		memcpy(comp, p, n);
		comp[n] = '\0';
		nfd = openat(cur, comp,
			     O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
		saved = errno;
		if (nfd < 0 && (saved == ELOOP || saved == ENOTDIR) &&
		    fstatat(cur, comp, &st, AT_SYMLINK_NOFOLLOW) == 0)
			saved = S_ISLNK(st.st_mode) ? ELOOP : ENOTDIR;
		if (cur != rootfd)
			close(cur);
		if (nfd < 0)
			return -saved;
		cur = nfd;
		p += n;
		if (*p == '/')
			p++;
	}
	return cur;
}

/*
 * Canonicalise group into canon and make sure controller c has a
 * hierarchy: the first step of every operation on a group.
 */
static int
group_canon(const struct cg_hier *h, enum cg_ctrl c, const char *group,
	    char *canon, size_t size, char *err, size_t errlen)
{
	int r = cg_path_check(group, canon, size, err, errlen);

	if (r < 0)
		return r;
	if (!cg_has(h, c)) {
		err_set(err, errlen, "no %s cgroup hierarchy", cg_ctrl_name(c));
		return -ENODEV;
	}
	return 0;
}

int
cg_open_group(const struct cg_hier *h, enum cg_ctrl c, const char *group,
	      char *err, size_t errlen)
{
	char canon[CG_PATH_MAX];
	int r;

	r = group_canon(h, c, group, canon, sizeof(canon), err, errlen);
	if (r < 0)
		return r;
	r = open_beneath(h->ctrl[c].fd, canon);
	if (r >= 0)
		return r;
	switch (r) {
	case -ENOENT:
		err_set(err, errlen, "cgroup '%s' not found in %s",
		       cg_display(canon), h->ctrl[c].path);
		break;
	case -ELOOP:
	case -EXDEV:
		err_set(err, errlen,
		       "invalid cgroup path '%s': it goes through a symbolic link",
		       cg_display(canon));
		r = -EINVAL;
		break;
	case -ENOTDIR:
		err_set(err, errlen, "invalid cgroup path '%s': not a cgroup directory",
		       cg_display(canon));
		r = -EINVAL;
		break;
	default:
		err_set(err, errlen, "cannot open cgroup '%s' in %s: %s",
		       cg_display(canon), h->ctrl[c].path, strerror(-r));
	}
	return r;
}

bool
cg_exists(const struct cg_hier *h, enum cg_ctrl c, const char *group)
{
	int fd = cg_open_group(h, c, group, NULL, 0);

	if (fd < 0)
		return false;
	close(fd);
	return true;
}

/* ---- reading ---- */

ssize_t
cg_read(const struct cg_hier *h, enum cg_ctrl c, const char *group,
	const char *file, char *buf, size_t size, char *err, size_t errlen)
{
	ssize_t n;
	int fd;

	fd = cg_open_group(h, c, group, err, errlen);
	if (fd < 0)
		return fd;
	n = cg_read_at(fd, file, buf, size);
	close(fd);
	if (n < 0 && err != NULL)
		err_set(err, errlen, "cannot read %s of %s: %s", file,
		       cg_display(group), read_strerror((int)n));
	return n;
}

ssize_t
cg_read_quiet(const struct cg_hier *h, enum cg_ctrl c, const char *group,
	      const char *file, char *buf, size_t size)
{
	char path[CG_PATH_MAX + NAME_MAX + 2];
	struct open_how how;
	size_t len;
	ssize_t n;
	long fd;

	if (size < 2 || !cg_has(h, c) ||
	    cg_path_check(group, path, CG_PATH_MAX, NULL, 0) < 0 ||
	    strchr(file, '/') != NULL || strlen(file) > NAME_MAX)
		return cg_read(h, c, group, file, buf, size, NULL, 0);
	len = strlen(path);
	if (len > 0)
		path[len++] = '/';
	strcpy(path + len, file);
	memset(&how, 0, sizeof(how));
	how.flags = O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY | O_NOFOLLOW;
	how.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS |
		      RESOLVE_NO_MAGICLINKS;
	fd = syscall(SYS_openat2, h->ctrl[c].fd, path, &how, sizeof(how));
	if (fd < 0 && errno == ENOENT)
		return -ENOENT;
	if (fd < 0)
		return cg_read(h, c, group, file, buf, size, NULL, 0);
	n = read((int)fd, buf, size - 1);
	close((int)fd);
	/* A whole small text at once, as a control file gives it; else
	 * cg_read()'s answer and checks. */
	if (n <= 0 || (size_t)n >= size - 1)
		return cg_read(h, c, group, file, buf, size, NULL, 0);
	buf[n] = '\0';
	if (buf[n - 1] == '\n')
		buf[--n] = '\0';
	return n;
}

/* ---- writing ---- */

/* A libcgroup return code as a negative errno. */
static int
lcg_errno(int r)
{
	switch (r) {
	case 0:
		return 0;
	case ECGOTHER:
		return cgroup_get_last_errno() ? -cgroup_get_last_errno() : -EIO;
	case ECGROUPNOTOWNER:
		return -EPERM;
	case ECGROUPNOTEXIST:
	case ECGROUPVALUENOTEXIST:
	case ECGROUPSUBSYSNOTMOUNTED:
		return -ENOENT;
	case ECGROUPNOTALLOWED:
		return -EACCES;
	case ECGINVAL:
		return -EINVAL;
	default:
		return -EIO;
	}
}

static const char *
lcg_strerror(int r, int e)
{
	if (r == ECGOTHER || e != -EIO)
		return strerror(-e);
	return cgroup_strerror(r);
}

/*
 * libcgroup is set up by the first change, not by cg_open(): its
 * cgroup_init() costs some 5 ms of page faults (cgmount.h), which a tool
 * that only reads has no use for.  It must see c where cg_open() found
 * it; where it cannot (no mount it supports, as a v2 mount with no
 * controllers on libcgroup 2.0.2), the change is made with plain file
 * I/O.
 */
bool
cg_uses_libcgroup(const struct cg_hier *h, enum cg_ctrl c)
{
	static int state;	/* 0 not tried, 1 set up, -1 failed */
	enum cg_ctrl lc = c == CG_CPUACCT && cg_version(h, c) == 2 ? CG_CPU : c;
	char *mp = NULL;
	bool same;

	if (!h->use_libcgroup || !cg_has(h, c))
		return false;
	if (state == 0) {
		/*
		 * libcgroup's default logger prints errors on stdout,
		 * where they would mix with data: silence it, errors come
		 * back as codes.
		 */
		cgroup_set_logger(NULL, CGROUP_LOG_ERROR, NULL);
		state = cgroup_init() == 0 ? 1 : -1;
	}
	if (state < 0 || cgroup_get_subsys_mount_point(ctrl_names[lc], &mp) != 0)
		return false;
	same = strcmp(mp, h->ctrl[c].path) == 0;
	free(mp);
	return same;
}

/* A libcgroup struct cgroup naming group with controller c added. */
static struct cgroup *
lcg_new(const struct cg_hier *h, enum cg_ctrl c, const char *group,
	struct cgroup_controller **ctlp)
{
	struct cgroup *cg;
	struct cgroup_controller *ctl;
	enum cg_ctrl lc = c;

	/* On v2 cpuacct is our alias of cpu, unknown to libcgroup. */
	if (c == CG_CPUACCT && cg_version(h, c) == 2)
		lc = CG_CPU;
	cg = cgroup_new_cgroup(group[0] ? group : "/");
	if (cg == NULL)
		return NULL;
	ctl = cgroup_add_controller(cg, ctrl_names[lc]);
	if (ctl == NULL) {
		cgroup_free(&cg);
		return NULL;
	}
	if (ctlp)
		*ctlp = ctl;
	return cg;
}

/*
 * Control file file in the group directory dirfd opened for writing (and
 * emptied unless append, in a tree): without following a link or blocking
 * on a FIFO, and refused unless a regular file (-EFTYPE_CPM).  In a tree
 * that is not the kernel's, also unless it has one link and belongs to
 * the directory's owner (-EXDEV): a file hard-linked in from elsewhere is
 * another's file, not the tree's.  The fd, or -errno.
 */
static int
open_control_write(int dirfd, const char *file, bool append, bool tree)
{
	struct stat st;
	int fd, r = 0;

	/* Opened first, then looked at: a FIFO swapped in between a look
	 * and a blocking open would hang the writer. */
	fd = openat(dirfd, file, O_WRONLY | O_CLOEXEC | O_NOFOLLOW |
		    O_NONBLOCK | O_NOCTTY | (append ? O_APPEND : 0));
	if (fd < 0)
		return errno == ENXIO ? -EFTYPE_CPM : -errno;
	if (fstat(fd, &st) < 0)
		r = -errno;
	else if (!S_ISREG(st.st_mode))
		r = -EFTYPE_CPM;	/* kernel control files are regular */
	else if (tree && (r = tree_file_check(dirfd, &st)) < 0)
		r = -EXDEV;	/* linked in from outside the tree */
	else if (tree && !append && ftruncate(fd, 0) < 0)
		r = -errno;
	if (r < 0) {
		close(fd);
		return r;
	}
	return fd;
}

/* Plain write of value to dirfd/file in one write(2). */
static int
write_value_at(int dirfd, const char *file, const char *value, bool append,
	       bool newline)
{
	size_t n = strlen(value);
	char *buf;
	int fd, r;

	fd = open_control_write(dirfd, file, append, newline);
	if (fd < 0)
		return fd;
	buf = malloc(n + 2);
	if (buf == NULL) {
		close(fd);
		return -ENOMEM;
	}
	memcpy(buf, value, n);
	if (newline && (n == 0 || value[n - 1] != '\n'))
		buf[n++] = '\n';
	r = 0;
	for (;;) {
		ssize_t w = write(fd, buf, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			r = -errno;
		else if ((size_t)w != n)
			r = -EIO;
		break;
	}
	free(buf);
	if (close(fd) < 0 && r == 0)
		r = -errno;
	return r;
}

int
cg_write(const struct cg_hier *h, enum cg_ctrl c, const char *group,
	 const char *file, const char *value, char *err, size_t errlen)
{
	char canon[CG_PATH_MAX];
	int fd, r;

	if (strchr(file, '/') != NULL || file[0] == '.' || file[0] == '\0') {
		err_set(err, errlen, "invalid cgroup file name '%s'", file);
		return -EINVAL;
	}
	r = cg_path_check(group, canon, sizeof(canon), err, errlen);
	if (r < 0)
		return r;
	fd = cg_open_group(h, c, canon, err, errlen);
	if (fd < 0)
		return fd;
	/* Looked at as opened (open_control_write()), not by name; its
	 * write opens it again, looking again. */
	r = open_control_write(fd, file, true, !h->ctrl[c].kernel);
	if (r < 0) {
		close(fd);
		err_set(err, errlen, "cannot write '%s' to %s of %s: %s", value,
			file, cg_display(canon), r == -ENOENT ? "no such file" :
			r == -EFTYPE_CPM ? "not a regular file" :
			r == -EXDEV ? "a file linked in from outside the tree" :
			r == -ELOOP ? "a symbolic link" : strerror(-r));
		return r == -ENOENT || r == -EFTYPE_CPM || r == -ELOOP ? -ENOENT
		       : r;
	}
	close(r);
	/*
	 * libcgroup 2.0.2 stores values in 4096-byte buffers, and writes
	 * nothing at all for an empty one (it writes line by line): an
	 * empty list ("" or a bare newline: a v2 cpuset's "inherit") is
	 * written directly, as one newline.
	 */
	if (value[strspn(value, " \t\n")] == '\0')
		value = "\n";
	else if (strlen(value) < 4000 && cg_uses_libcgroup(h, c)) {
		struct cgroup_controller *ctl;
		struct cgroup *cg;
		int lr;

		close(fd);
		cg = lcg_new(h, c, canon, &ctl);
		if (cg == NULL) {
			err_set(err, errlen, "cannot write '%s' to %s of %s: %s",
			       value, file, cg_display(canon), strerror(ENOMEM));
			return -ENOMEM;
		}
		lr = cgroup_add_value_string(ctl, file, value);
		if (lr == 0)
			lr = cgroup_modify_cgroup(cg);
		r = lcg_errno(lr);
		if (r < 0)
			err_set(err, errlen, "cannot write '%s' to %s of %s: %s",
			       value, file, cg_display(canon),
			       lcg_strerror(lr, r));
		cgroup_free(&cg);
		return r;
	}
	r = write_value_at(fd, file, value, false, !h->ctrl[c].kernel);
	close(fd);
	if (r < 0)
		err_set(err, errlen, "cannot write '%s' to %s of %s: %s",
			strcmp(value, "\n") ? value : "", file,
			cg_display(canon), strerror(-r));
	return r;
}

/* ---- creating ---- */

struct default_file {
	const char *name;
	const char *value;	/* NULL: copy the parent's */
};

static const struct default_file v1_cpu_files[] = {
	{ "cpu.shares", "1024" },
	{ "cpu.cfs_period_us", "100000" },
	{ "cpu.cfs_quota_us", "-1" },
	{ "cpu.cfs_burst_us", "0" },
	{ "cpu.stat", "nr_periods 0\nnr_throttled 0\nthrottled_time 0\n"
		      "nr_bursts 0\nburst_time 0" },
	{ NULL, NULL }
};
static const struct default_file v1_cpuacct_files[] = {
	{ "cpuacct.usage", "0" },
	{ NULL, NULL }
};
static const struct default_file v1_cpuset_files[] = {
	{ "cpuset.cpus", NULL },
	{ "cpuset.mems", NULL },
	{ "cpuset.effective_cpus", NULL },
	{ "cpuset.effective_mems", NULL },
	{ "cpuset.cpu_exclusive", "0" },
	{ "cpuset.mem_exclusive", "0" },
	{ NULL, NULL }
};
static const struct default_file v1_memory_files[] = {
	{ "memory.limit_in_bytes", "9223372036854771712" },
	{ "memory.usage_in_bytes", "0" },
	{ NULL, NULL }
};
static const struct default_file v2_cpu_files[] = {
	{ "cpu.max", "max 100000" },
	{ "cpu.max.burst", "0" },
	{ "cpu.weight", "100" },
	{ "cpu.stat", "usage_usec 0\nuser_usec 0\nsystem_usec 0\n"
		      "nr_periods 0\nnr_throttled 0\nthrottled_usec 0\n"
		      "nr_bursts 0\nburst_usec 0" },
	{ NULL, NULL }
};
static const struct default_file v2_cpuset_files[] = {
	{ "cpuset.cpus", "" },
	{ "cpuset.mems", "" },
	{ "cpuset.cpus.effective", NULL },
	{ "cpuset.mems.effective", NULL },
	{ "cpuset.cpus.partition", "member" },
	{ NULL, NULL }
};
static const struct default_file v2_memory_files[] = {
	{ "memory.max", "max" },
	{ "memory.current", "0" },
	{ NULL, NULL }
};

/*
 * Write a file below dirfd with content (tree back end only): replacing
 * it, or with keep set leaving an existing file alone, so that a group's
 * state is never overwritten when its interface files are laid down.
 */
static int
write_tree_file(int dirfd, const char *name, const char *value, bool keep)
{
	int fd, r;

	fd = openat(dirfd, name, O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW |
		    (keep ? O_EXCL : O_TRUNC), 0644);
	if (fd < 0)
		return keep && errno == EEXIST ? 0 : -errno;
	r = write_all(fd, value, strlen(value));
	if (r == 0 && value[0] != '\0')
		r = write_all(fd, "\n", 1);
	if (close(fd) < 0 && r == 0)
		r = -errno;
	return r;
}

static int
put_file(int dirfd, const char *name, const char *value)
{
	return write_tree_file(dirfd, name, value, false);
}

static int
add_file(int dirfd, const char *name, const char *value)
{
	return write_tree_file(dirfd, name, value, true);
}

/* Lay down a new group's interface files in a tree (as the kernel would). */
static int
tree_populate(const struct cg_hier *h, enum cg_ctrl c, int parentfd, int fd)
{
	const struct default_file *df;
	int v = cg_version(h, c), r;

	if (v == 2) {
		char ctl[1024];

		if (cg_read_at(parentfd, "cgroup.subtree_control", ctl,
			       sizeof(ctl)) < 0)
			ctl[0] = '\0';
		if ((r = add_file(fd, "cgroup.procs", "")) < 0 ||
		    (r = add_file(fd, "cgroup.controllers", ctl)) < 0 ||
		    (r = add_file(fd, "cgroup.subtree_control", "")) < 0)
			return r;
		df = c == CG_CPUSET ? v2_cpuset_files :
		     c == CG_MEMORY ? v2_memory_files : v2_cpu_files;
	} else {
		if ((r = add_file(fd, "cgroup.procs", "")) < 0 ||
		    (r = add_file(fd, "tasks", "")) < 0)
			return r;
		df = c == CG_CPUSET ? v1_cpuset_files :
		     c == CG_MEMORY ? v1_memory_files :
		     c == CG_CPUACCT ? v1_cpuacct_files : v1_cpu_files;
	}
	for (; df->name != NULL; df++) {
		char val[4096];

		if (df->value != NULL) {
			r = add_file(fd, df->name, df->value);
		} else {
			/*
			 * Copied from the parent: v1 cpus and mems as with
			 * cgroup.clone_children, v2 effective sets.
			 */
			if (cg_read_at(parentfd, df->name, val, sizeof(val)) < 0)
				val[0] = '\0';
			r = add_file(fd, df->name, val);
		}
		if (r < 0)
			return r;
	}
	return 0;
}

/*
 * v2: make sure controller name is in dirfd's cgroup.subtree_control:
 * on a kernel by writing "+name" (only when missing: the write fails
 * with EBUSY in a group that has processes), in a tree by rewriting the
 * list.  Returns 1 when it was added, 0 when it was there, or -errno.
 */
static int
enable_controller(int dirfd, const char *name, bool kernel)
{
	char ctl[1024], nv[1100];
	int r;

	if (cg_read_at(dirfd, "cgroup.subtree_control", ctl,
		       sizeof(ctl)) < 0)
		ctl[0] = '\0';
	if (word_listed(ctl, name))
		return 0;
	if (kernel) {
		snprintf(nv, sizeof(nv), "+%s", name);
		r = write_value_at(dirfd, "cgroup.subtree_control", nv, false,
				   false);
	} else {
		snprintf(nv, sizeof(nv), "%s%s%s", ctl, ctl[0] ? " " : "", name);
		r = put_file(dirfd, "cgroup.subtree_control", nv);
	}
	return r < 0 ? r : 1;
}

/* v1 cpuset: give a new group its parent's cpus and mems. */
static int
lcg_clone_cpuset(const struct cg_hier *h, const char *parent,
		 const char *group, char *err, size_t errlen)
{
	static const char *const files[] = { "cpuset.cpus", "cpuset.mems" };
	char val[4096];

	for (size_t i = 0; i < ARRAY_SIZE(files); i++) {
		ssize_t n = cg_read(h, CG_CPUSET, parent, files[i], val,
				    sizeof(val), err, errlen);
		int r;

		if (n < 0)
			return (int)n;
		if (n == 0)
			continue;
		r = cg_write(h, CG_CPUSET, group, files[i], val, err, errlen);
		if (r < 0)
			return r;
	}
	return 0;
}

int
cg_create(const struct cg_hier *h, enum cg_ctrl c, const char *group,
	  char *err, size_t errlen)
{
	char canon[CG_PATH_MAX], prefix[CG_PATH_MAX];
	size_t len, plen = 0;
	int cur, r = 0;
	bool lcg;

	r = group_canon(h, c, group, canon, sizeof(canon), err, errlen);
	if (r < 0)
		return r;
	lcg = cg_uses_libcgroup(h, c);
	len = strlen(canon);
	cur = fcntl(h->ctrl[c].fd, F_DUPFD_CLOEXEC, 0);
	if (cur < 0)
		return -errno;
	prefix[0] = '\0';
	while (plen < len) {
		const char *p = canon + plen + (plen > 0);
		const char *e = strchr(p, '/');
		size_t n = e ? (size_t)(e - p) : strlen(p);
		char comp[NAME_MAX + 1], parent[CG_PATH_MAX];
		bool created = false, enabled = false;
		int nfd;

		memcpy(comp, p, n);
		comp[n] = '\0';
		strcpy(parent, prefix);
		plen = (size_t)(p - canon) + n;
		memcpy(prefix, canon, plen);
		prefix[plen] = '\0';
		/* libcgroup enables controllers itself on v2. */
		if (cg_version(h, c) == 2 && !lcg) {
			r = enable_controller(cur, cg_ctrl_name(c == CG_CPUACCT ?
							       CG_CPU : c),
					      h->ctrl[c].kernel);
			if (r < 0) {
				err_set(err, errlen,
				       "cannot enable %s in cgroup.subtree_control of %s: %s",
				       cg_ctrl_name(c), cg_display(parent), strerror(-r));
				break;
			}
			enabled = r == 1;
			r = 0;
		}
		nfd = openat(cur, comp, O_RDONLY | O_DIRECTORY | O_CLOEXEC |
			     O_NOFOLLOW);
		if (nfd < 0 && errno == ENOENT) {
			if (lcg) {
				struct cgroup *cg = lcg_new(h, c, prefix, NULL);
				int lr = cg ? cgroup_create_cgroup(cg, 1) : ECGFAIL;

				r = lcg_errno(lr);
				if (cg)
					cgroup_free(&cg);
				if (r < 0) {
					err_set(err, errlen,
					       "cannot create cgroup '%s' in %s: %s",
					       prefix, h->ctrl[c].path,
					       lcg_strerror(lr, r));
					break;
				}
			} else if (mkdirat(cur, comp, 0755) < 0 && errno != EEXIST) {
				r = -errno;
				err_set(err, errlen,
				       "cannot create cgroup '%s' in %s: %s",
				       prefix, h->ctrl[c].path, strerror(-r));
				break;
			}
			created = true;
			nfd = openat(cur, comp, O_RDONLY | O_DIRECTORY |
				     O_CLOEXEC | O_NOFOLLOW);
		}
		if (nfd < 0) {
			r = errno == ELOOP || errno == ENOTDIR ? -EINVAL : -errno;
			if (r == -EINVAL)
				err_set(err, errlen,
				       "invalid cgroup path '%s': '%s' is not a cgroup directory",
				       canon, prefix);
			else
				err_set(err, errlen, "cannot open cgroup '%s' in %s: %s",
				       prefix, h->ctrl[c].path, strerror(-r));
			break;
		}
		/* New, or the controller just enabled: its files appear. */
		if ((created || enabled) && !h->ctrl[c].kernel) {
			r = tree_populate(h, c, cur, nfd);
			if (r < 0) {
				err_set(err, errlen,
				       "cannot create the files of cgroup '%s' in %s: %s",
				       prefix, h->ctrl[c].path, strerror(-r));
				close(nfd);
				break;
			}
		}
		close(cur);
		cur = nfd;
		if (created && h->ctrl[c].kernel && c == CG_CPUSET &&
		    cg_version(h, c) == 1) {
			r = lcg_clone_cpuset(h, parent, prefix, err, errlen);
			if (r < 0)
				break;
		}
	}
	close(cur);
	return r;
}

/* ---- removing ---- */

size_t
cg_existing_prefix(const struct cg_hier *h, enum cg_ctrl c, const char *group)
{
	char sub[CG_PATH_MAX];
	size_t n = strlen(group);

	if (n >= sizeof(sub))
		return 0;
	memcpy(sub, group, n + 1);
	while (n > 0) {
		while (n > 0 && sub[n] != '/')
			n--;
		if (n == 0)
			break;
		sub[n] = '\0';
		if (cg_exists(h, c, sub))
			return n;
	}
	return 0;
}

void
cg_remove_made(const struct cg_hier *h, enum cg_ctrl c, const char *group,
	       size_t keep)
{
	char sub[CG_PATH_MAX];
	size_t n = strlen(group);

	if (n >= sizeof(sub) || n <= keep)
		return;
	memcpy(sub, group, n + 1);
	for (;;) {
		if (cg_exists(h, c, sub) && cg_remove(h, c, sub, NULL, 0) < 0)
			return;
		while (n > keep && sub[n] != '/')
			n--;
		if (n <= keep)
			return;
		sub[n] = '\0';
	}
}

int
cg_remove(const struct cg_hier *h, enum cg_ctrl c, const char *group,
	  char *err, size_t errlen)
{
	char canon[CG_PATH_MAX], *slash, *base;
	int pfd, gfd, r = 0;

	r = cg_path_check(group, canon, sizeof(canon), err, errlen);
	if (r < 0)
		return r;
	if (canon[0] == '\0') {
		err_set(err, errlen, "cannot remove the root cgroup");
		return -EINVAL;
	}
	gfd = cg_open_group(h, c, canon, err, errlen);
	if (gfd < 0)
		return gfd;
	slash = strrchr(canon, '/');
	if (slash) {
		*slash = '\0';
		base = slash + 1;
		pfd = cg_open_group(h, c, canon, err, errlen);
		*slash = '/';
	} else {
		base = canon;
		pfd = cg_open_group(h, c, "", err, errlen);
	}
	if (pfd < 0) {
		close(gfd);
		return pfd;
	}
	if (!h->ctrl[c].kernel) {
		/* A tree: refuse what the kernel would, then drop the files. */
		char procs[64];
		DIR *d;
		struct dirent *de;

		if (cg_read_at(gfd, "cgroup.procs", procs, sizeof(procs)) > 0)
			r = -EBUSY;
		d = r == 0 ? fdopendir(dup(gfd)) : NULL;
		if (r == 0 && d == NULL)
			r = -errno;
		while (d && r == 0 && (de = readdir(d)) != NULL) {
			if (de->d_type == DT_DIR && strcmp(de->d_name, ".") &&
			    strcmp(de->d_name, ".."))
				r = -EBUSY;
		}
		if (d)
			rewinddir(d);
		while (d && r == 0 && (de = readdir(d)) != NULL) {
			if (de->d_type != DT_DIR &&
			    unlinkat(gfd, de->d_name, 0) < 0)
				r = -errno;
		}
		if (d)
			closedir(d);
	}
	close(gfd);
	/*
	 * Plain rmdir on the live system too: libcgroup's delete moves the
	 * group's processes to the parent first, which cpm never does
	 * behind a user's back.
	 */
	if (r == 0 && unlinkat(pfd, base, AT_REMOVEDIR) < 0)
		r = -errno;
	close(pfd);
	if (r < 0)
		err_set(err, errlen, "cannot remove cgroup '%s' from %s: %s%s",
		       canon, h->ctrl[c].path, strerror(-r),
		       r == -EBUSY ? " (it still has processes or child groups)"
				   : "");
	return r;
}

/* ---- attaching ---- */

int
cg_attach(const struct cg_hier *h, enum cg_ctrl c, const char *group,
	  pid_t pid, char *err, size_t errlen)
{
	char canon[CG_PATH_MAX], val[32];
	int fd, r;

	r = cg_path_check(group, canon, sizeof(canon), err, errlen);
	if (r < 0)
		return r;
	if (pid <= 0) {
		err_set(err, errlen, "invalid process id %ld", (long)pid);
		return -EINVAL;
	}
	fd = cg_open_group(h, c, canon, err, errlen);
	if (fd < 0)
		return fd;
	snprintf(val, sizeof(val), "%ld", (long)pid);
	if (cg_version(h, c) == 2 && cg_uses_libcgroup(h, c)) {
		struct cgroup *cg = lcg_new(h, c, canon, NULL);
		int lr = cg ? cgroup_attach_task_pid(cg, pid) : ECGFAIL;

		r = lcg_errno(lr);
		if (cg)
			cgroup_free(&cg);
		close(fd);
		if (r < 0)
			err_set(err, errlen,
			       "cannot move process %ld into cgroup '%s': %s",
			       (long)pid, cg_display(canon), lcg_strerror(lr, r));
		return r;
	}
	/* v1: cgroup.procs moves every thread; libcgroup writes "tasks". */
	r = write_value_at(fd, "cgroup.procs", val, !h->ctrl[c].kernel,
			   !h->ctrl[c].kernel);
	close(fd);
	if (r < 0)
		err_set(err, errlen, "cannot move process %ld into cgroup '%s': %s%s",
		       (long)pid, cg_display(canon), strerror(-r),
		       r == -ENOSPC && c == CG_CPUSET
			       ? " (its cpuset.cpus or cpuset.mems is empty)" : "");
	return r;
}

/* ---- walking ---- */

struct walk {
	cg_walk_fn fn;
	void *arg;
	bool fn_failed;		/* the error is the callback's, with its message */
	/*
	 * On the file systems below, a directory's link count is 2 plus
	 * its subdirectories (kernfs sets it so for cgroupfs), so a count
	 * of 2 is a leaf: one fstat instead of the two getdents64 calls
	 * that would find no subgroup.  Only on the walk's own device.
	 */
	bool leaf_nlink;
	/*
	 * And a leaf is read from its parent (cg_at.sub) after one
	 * fstatat(), not opened, fstat'ed and closed: it needs openat2,
	 * for reads that follow no link.
	 */
	bool leaf_at;
	dev_t dev;
	char path[CG_PATH_MAX];
	/* getdents64 records; shared by every level, since a directory's
	 * names are copied out before its subgroups are walked */
	char dents[32768] __attribute__((aligned(8)));
};

/*
 * Whether fd's file system counts a directory's subdirectories in its
 * link count, and its device.  Not every one does (btrfs counts 1, some
 * network and FUSE file systems anything): only these are trusted.
 */
static bool
nlink_counts_subdirs(int fd, dev_t *dev)
{
	struct statfs sf;
	struct stat st;

	if (fstatfs(fd, &sf) < 0 || fstat(fd, &st) < 0)
		return false;
	*dev = st.st_dev;
	switch ((unsigned long)sf.f_type) {
	case CGROUP1_MAGIC:
	case CGROUP2_MAGIC:
	case 0x01021994:	/* tmpfs */
	case 0xEF53:		/* ext2, ext3, ext4 */
	case 0x58465342:	/* xfs */
		return true;
	default:
		return false;
	}
}

static int
cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Whether st, a directory's stat, tells a group without subgroups. */
static bool
is_leaf(const struct walk *w, const struct stat *st)
{
	return st->st_dev == w->dev && S_ISDIR(st->st_mode) &&
	       st->st_nlink == 2;
}

/* The callback's answer as the walk's: 0 on, 1 skip, or its error. */
static int
called(struct walk *w, int r)
{
	if (r < 0)
		w->fn_failed = true;
	return r;
}

/* Walk the directory fd (owned) whose group path is w->path[0..len). */
static int
walk_dir(struct walk *w, int fd, size_t len)
{
	char **names = NULL;
	size_t nn = 0, cap = 0;
	ssize_t got = 0, off = 0;
	struct stat st;
	struct cg_at at = { fd, NULL };
	bool have_st = w->leaf_nlink && fstat(fd, &st) == 0;
	int r;

	r = called(w, w->fn(w->path, &at, have_st ? &st : NULL, w->arg));
	if (r != 0 || (have_st && is_leaf(w, &st))) {
		close(fd);
		return r < 0 ? r : 0;
	}
	/* getdents64 itself, not opendir: fdopendir costs an fstat and
	 * two fcntl calls per group, and a walk can meet 10,000 groups. */
	for (;;) {
		struct dirent64 *de;

		if (off >= got) {
			got = getdents64(fd, w->dents, sizeof(w->dents));
			if (got < 0 && errno == EINTR) {
				got = 0;
				continue;
			}
			if (got < 0) {
				r = -errno;
				break;
			}
			if (got == 0)
				break;
			off = 0;
		}
		de = (struct dirent64 *)(w->dents + off);
		off += de->d_reclen;
		if (de->d_name[0] == '.' &&
		    (de->d_name[1] == '\0' ||
		     (de->d_name[1] == '.' && de->d_name[2] == '\0')))
			continue;
		/* The kernel refuses such names; a tree could hold one. */
		if (strchr(de->d_name, '\n') != NULL)
			continue;
		if (de->d_type != DT_DIR) {
			struct stat cst;

			if (de->d_type != DT_UNKNOWN ||
			    fstatat(fd, de->d_name, &cst,
				    AT_SYMLINK_NOFOLLOW) < 0 ||
			    !S_ISDIR(cst.st_mode))
				continue;
		}
		if (nn == cap) {
			size_t ncap = cap ? cap * 2 : 16;
			char **nv = realloc(names, ncap * sizeof(*nv));

			if (nv == NULL) {
				r = -ENOMEM;
				break;
			}
			names = nv;
			cap = ncap;
		}
		names[nn] = strdup(de->d_name);
		if (names[nn] == NULL) {
			r = -ENOMEM;
			break;
		}
		nn++;
	}
	if (r == 0 && nn > 1)
		qsort(names, nn, sizeof(*names), cmp_names);
	for (size_t i = 0; i < nn && r == 0; i++) {
		size_t n = strlen(names[i]);
		struct stat cst;
		int cfd;

		if (len + n + 2 > sizeof(w->path))
			continue;
		if (len > 0)
			w->path[len] = '/';
		memcpy(w->path + len + (len > 0), names[i], n + 1);
		if (w->leaf_at) {
			if (fstatat(fd, names[i], &cst,
				    AT_SYMLINK_NOFOLLOW) < 0 ||
			    !S_ISDIR(cst.st_mode)) {
				/* vanished meanwhile, or a symlink */
				w->path[len] = '\0';
				continue;
			}
			if (is_leaf(w, &cst)) {
				struct cg_at leaf = { fd, names[i] };

				r = called(w, w->fn(w->path, &leaf, &cst,
						    w->arg));
				r = r < 0 ? r : 0;
				w->path[len] = '\0';
				continue;
			}
		}
		cfd = openat(fd, names[i],
			     O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
		if (cfd >= 0)	/* else vanished meanwhile, or a symlink */
			r = walk_dir(w, cfd, len + (len > 0) + n);
		w->path[len] = '\0';
	}
	for (size_t i = 0; i < nn; i++)
		free(names[i]);
	free(names);
	close(fd);
	return r;
}

int
cg_walk(const struct cg_hier *h, enum cg_ctrl c, const char *group,
	cg_walk_fn fn, void *arg, char *err, size_t errlen)
{
	struct walk *w;
	int fd, r;

	w = malloc(sizeof(*w));
	if (w == NULL)
		return -ENOMEM;
	r = cg_path_check(group, w->path, sizeof(w->path), err, errlen);
	if (r < 0) {
		free(w);
		return r;
	}
	fd = cg_open_group(h, c, w->path, err, errlen);
	if (fd < 0) {
		free(w);
		return fd;
	}
	w->fn = fn;
	w->arg = arg;
	w->fn_failed = false;
	w->leaf_nlink = nlink_counts_subdirs(fd, &w->dev);
	w->leaf_at = w->leaf_nlink && open_no_links_works();
	r = walk_dir(w, fd, strlen(w->path));
	if (r < 0 && !w->fn_failed)
		err_set(err, errlen, "cannot walk the cgroups below '%s': %s",
		       cg_display(group), strerror(-r));
	free(w);
	return r;
}
