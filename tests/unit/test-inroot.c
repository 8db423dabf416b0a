// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Paths resolved with a directory as the root: links absolute, relative,
 * chained, looping and climbing with "..", in a real tree in /tmp.  Each
 * case runs twice: through the kernel's openat2 (RESOLVE_IN_ROOT) and
 * through the walk cpm does where openat2 is missing, and both must land
 * on the same file (device and inode) as the case says, or fail with
 * its errno.  A child under a seccomp filter that answers openat2 with
 * ENOSYS, then EPERM, as old kernels and container runtimes do, shows
 * open_in_root() falling back to the walk.
 */
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <grp.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "../helpers/deny-openat2.h"
#include "base/path.h"
#include "unit.h"

static char tmp[] = "/tmp/cpm-test-inroot-XXXXXX";
static char root[sizeof(tmp) + 8];
static int rootfd = -1;
static const char *pass = "";	/* tells the second round of cases */

static void
mk(const char *kind, const char *path, const char *arg)
{
	char p[512];
	int fd;

	snprintf(p, sizeof(p), "%s/%s", root, path);
	if (strcmp(kind, "dir") == 0) {
		if (mkdir(p, 0755) < 0)
			printf("# mkdir %s: %s\n", p, strerror(errno));
	} else if (strcmp(kind, "link") == 0) {
		if (symlink(arg, p) < 0)
			printf("# symlink %s: %s\n", p, strerror(errno));
	} else {
		fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd < 0 || write(fd, arg, strlen(arg)) < 0)
			printf("# write %s: %s\n", p, strerror(errno));
		if (fd >= 0)
			close(fd);
	}
}

static void
build_tree(void)
{
	char p[64];
	int fd;

	mk("dir", "a", NULL);
	mk("dir", "a/b", NULL);
	mk("file", "a/b/file", "ab\n");
	mk("dir", "etc", NULL);
	mk("file", "etc/passwd", "inner\n");
	mk("link", "a/abs", "/a/b");
	mk("link", "a/up", "../../../../../a/b");
	mk("link", "a/out", "/etc/passwd");
	mk("link", "a/outrel", "../../../../../../../../etc/passwd");
	mk("link", "a/gone", "/nowhere");
	mk("link", "a/loop", "loop");
	mk("link", "a/chain1", "chain2");
	mk("link", "a/chain2", "b/file");
	mk("link", "a/dotdot", "..");
	mk("link", "a/b/top", "../..");
	/* 41 links in a row: one more than the kernel follows */
	for (int i = 0; i < 41; i++) {
		char t[64];

		snprintf(p, sizeof(p), "l%d", i);
		snprintf(t, sizeof(t), i == 40 ? "a/b/file" : "l%d", i + 1);
		mk("link", p, t);
	}
	/* 39 links in a row: followed */
	for (int i = 0; i < 39; i++) {
		char t[64];

		snprintf(p, sizeof(p), "m%d", i);
		snprintf(t, sizeof(t), i == 38 ? "a/b/file" : "m%d", i + 1);
		mk("link", p, t);
	}
	fd = open(root, O_PATH | O_DIRECTORY);
	rootfd = fd;
}

/* Whether fd is the file rel (below the root). */
static bool
is(int fd, const char *rel)
{
	struct stat a, b;
	char p[512];

	snprintf(p, sizeof(p), "%s/%s", root, rel);
	return fd >= 0 && fstat(fd, &a) == 0 && stat(p, &b) == 0 &&
	       a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

/*
 * path resolved below the root lands where want (a path in the real
 * tree, relative to the root; NULL: the case fails) does, or fails with
 * want_err.
 */
static void
check(const char *path, int flags, const char *want, int want_err)
{
	char name[512];
	int (*open_fn[2])(int, const char *, int) = {
		open_in_root, open_in_root_walk
	};
	const char *how[2] = { "openat2", "the walk" };

	for (int i = 0; i < 2; i++) {
		int fd = open_fn[i](rootfd, path, flags);
		bool good;

		snprintf(name, sizeof(name), "%s%s: '%s' %s%s", pass, how[i], path,
			 want ? "is " : "fails with ", want ? want :
			 strerror(want_err));
		good = want ? is(fd, want) : fd == -want_err;
		if (!good)
			printf("# got %d (%s)\n", fd, fd < 0 ?
			       strerror(-fd) : "a descriptor elsewhere");
		CHECK(name, good);
		if (fd >= 0)
			close(fd);
	}
}

static void
cases(void)
{
	const int rd = O_RDONLY | O_CLOEXEC, dir = rd | O_DIRECTORY;

	check("a/b/file", rd, "a/b/file", 0);
	check("/a/b/file", rd, "a/b/file", 0);
	check("../../a/b/file", rd, "a/b/file", 0);
	check("a/b/../../../../a/b/file", rd, "a/b/file", 0);
	check("a/./b//file", rd, "a/b/file", 0);
	check("a/abs/file", rd, "a/b/file", 0);
	check("a/up/file", rd, "a/b/file", 0);
	check("a/out", rd, "etc/passwd", 0);
	check("a/outrel", rd, "etc/passwd", 0);
	check("a/chain1", rd, "a/b/file", 0);
	check("a/dotdot/a/b/file", rd, "a/b/file", 0);
	check("a/b/top/etc/passwd", rd, "etc/passwd", 0);
	check("a/abs/../b/file", rd, "a/b/file", 0);
	check("a/abs", dir, "a/b", 0);
	check("a/abs/", dir, "a/b", 0);
	check("", dir, NULL, ENOENT);
	check("/", dir, ".", 0);
	check("..", dir, ".", 0);
	check("m0", rd, "a/b/file", 0);
	check("a/gone", rd, NULL, ENOENT);
	check("a/missing", rd, NULL, ENOENT);
	check("a/missing/file", rd, NULL, ENOENT);
	check("a/loop", rd, NULL, ELOOP);
	check("a/loop/x", rd, NULL, ELOOP);
	check("l0", rd, NULL, ELOOP);
	check("a/b/file/x", rd, NULL, ENOTDIR);
	check("a/b/file", dir, NULL, ENOTDIR);
	check("a/chain1/", rd, NULL, ENOTDIR);
}

/* The walk's answer for path is the file rel (below the root). */
static bool
walk_is(const char *path, const char *rel)
{
	int fd = open_in_root_walk(rootfd, path, O_RDONLY);
	bool r = is(fd, rel);

	if (fd >= 0)
		close(fd);
	return r;
}

/*
 * The walk keeps the directory of the last path it resolved without a
 * link: the next file there comes through it, and a link planted there
 * since still resolves in the root.
 */
static void
kept_dir(void)
{
	char p[512];

	open_in_root_forget(rootfd);
	mk("file", "a/b/other", "other\n");
	CHECK("the walk: a/b/file, its directory kept",
	      walk_is("a/b/file", "a/b/file"));
	CHECK("the walk: a/b/other through the kept directory",
	      walk_is("a/b/other", "a/b/other"));
	CHECK("the walk: a missing file in the kept directory is ENOENT",
	      open_in_root_walk(rootfd, "a/b/none", O_RDONLY) == -ENOENT);
	snprintf(p, sizeof(p), "%s/a/b/other", root);
	unlink(p);
	mk("link", "a/b/other", "/etc/passwd");
	CHECK("the walk: a link planted in the kept directory resolves in "
	      "the root", walk_is("a/b/other", "etc/passwd"));
	open_in_root_forget(rootfd);
	CHECK("the walk: after open_in_root_forget(), the same answer",
	      walk_is("a/b/other", "etc/passwd"));
	open_in_root_forget(rootfd);
}

/*
 * A directory others may search but not read (mode 0111), met again by
 * ".." as a user without root's override: the walk goes back down from
 * the root through it, and it opens as a path (O_PATH), which needs no
 * read permission.  Opened for reading it would fail with EACCES.
 */
static void
unreadable_dir(void)
{
	char name[160];
	pid_t pid;
	int st = -1;

	mk("dir", "a/nr", NULL);
	mk("dir", "a/nr/sub", NULL);
	mk("file", "a/nr/sub/file", "nr\n");
	snprintf(name, sizeof(name), "%s/a/nr", root);
	if (chmod(name, 0111) < 0 || chmod(tmp, 0711) < 0)
		printf("# chmod: %s\n", strerror(errno));
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		int (*open_fn[2])(int, const char *, int) = {
			open_in_root, open_in_root_walk
		};
		int fd;

		open_in_root_forget(rootfd);
		if (setgroups(0, NULL) < 0 || setresgid(65534, 65534, 65534) < 0 ||
		    setresuid(65534, 65534, 65534) < 0)
			_exit(3);
		fd = openat(rootfd, "a/nr", O_RDONLY | O_DIRECTORY);
		if (fd >= 0 || errno != EACCES)
			_exit(4);	/* the case shows nothing */
		for (int i = 0; i < 2; i++) {
			char buf[8] = "";

			fd = open_fn[i](rootfd, "a/nr/sub/../sub/file", O_RDONLY);
			if (fd < 0 || read(fd, buf, sizeof(buf) - 1) != 3 ||
			    strcmp(buf, "nr\n") != 0)
				_exit(5 + i);
			close(fd);
		}
		_exit(0);
	}
	if (pid > 0)
		waitpid(pid, &st, 0);
	if (!(WIFEXITED(st) && WEXITSTATUS(st) == 0))
		printf("# child status %d\n", st);
	CHECK("a searchable, unreadable directory met again by '..' opens "
	      "for another user, through openat2 and the walk",
	      WIFEXITED(st) && WEXITSTATUS(st) == 0);
	chmod(name, 0755);
}

static void
fallback(unsigned int e, const char *label)
{
	char name[128];
	pid_t pid;
	int st = -1;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		struct open_how_probe { unsigned long long a, b, c; } how = {
			O_RDONLY, 0, 0
		};
		long r;
		int fd;

		if (deny_openat2(e) < 0)
			_exit(3);
		r = syscall(SYS_openat2, rootfd, "a/b/file", &how, sizeof(how));
		if (r >= 0 || errno != (int)e)
			_exit(4);	/* the filter does not hold */
		fd = open_in_root(rootfd, "a/out", O_RDONLY);
		if (fd < 0)
			_exit(5);
		{
			char buf[16] = "";

			if (read(fd, buf, sizeof(buf) - 1) < 0 ||
			    strcmp(buf, "inner\n") != 0)
				_exit(6);
		}
		close(fd);
		/* and again, with openat2 known to be missing */
		fd = open_in_root(rootfd, "a/up/file", O_RDONLY);
		_exit(fd >= 0 ? 0 : 7);
	}
	if (pid > 0)
		waitpid(pid, &st, 0);
	snprintf(name, sizeof(name), "openat2 answering %s: open_in_root() "
		 "walks, and stays in the root", label);
	if (!(WIFEXITED(st) && WEXITSTATUS(st) == 0))
		printf("# child status %d\n", st);
	CHECK(name, WIFEXITED(st) && WEXITSTATUS(st) == 0);
}

int
main(void)
{
	char cmd[128];

	if (!mkdtemp(tmp)) {
		printf("not ok - mkdtemp\n");
		return 1;
	}
	snprintf(root, sizeof(root), "%s/root", tmp);
	if (mkdir(root, 0755) < 0) {
		printf("not ok - mkdir\n");
		return 1;
	}
	build_tree();
	CHECK("the root opens", rootfd >= 0);
	cases();
	kept_dir();
	pass = "again, a directory kept: ";
	cases();
	unreadable_dir();
	fallback(ENOSYS, "ENOSYS");
	fallback(EPERM, "EPERM");
	close(rootfd);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
	if (system(cmd) != 0)
		printf("# could not remove %s\n", tmp);
	return unit_failed;
}
