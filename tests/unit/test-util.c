// SPDX-License-Identifier: GPL-2.0-or-later
/* Strict numbers, durations, sizes, atomic writes. */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <time.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/err.h"
#include "base/fileread.h"
#include "base/filewrite.h"
#include "base/lock.h"
#include "base/num.h"
#include "base/path.h"
#include "base/sort.h"
#include "base/strbuf.h"
#include "unit.h"

static const struct read_opts read_text = { .flags = READ_TEXT };
static const struct write_opts mode_0644 = { .mode = 0644 };
static const struct write_opts mode_0600 = { .mode = 0600 };
static const struct write_opts mode_0640 = { .mode = 0640 };
static const struct write_opts locked_0644 = {
	.mode = 0644, .flags = WRITE_LOCKED,
};

/* A write that would block forever on a planted FIFO fails instead. */
static void
on_alarm(int sig)
{
	(void)sig;
	printf("not ok - a file operation blocked for 60 seconds\n");
	_exit(1);
}

/* Count the entries of dir other than . and .. */
static int
count_entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int n = 0;

	if (d == NULL)
		return -1;
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			n++;
	closedir(d);
	return n;
}

/*
 * What another user can plant next to a file cpm publishes: the old
 * predictable temporary name as a FIFO, a symlink or a file of theirs;
 * a symlink in place of a directory; a FIFO where a file is read.
 */
static void
hostile(const char *dir)
{
	char path[PATH_MAX + 64], tmp[PATH_MAX + 64], sub[PATH_MAX], target[PATH_MAX];
	char name[NAME_MAX + 1], *buf;
	struct stat st;
	size_t len;
	int fd, r;

	signal(SIGALRM, on_alarm);
	alarm(60);
	snprintf(path, sizeof(path), "%s/pub", dir);
	snprintf(tmp, sizeof(tmp), "%s/.pub.tmp.%ld", dir, (long)getpid());
	CHECK("plant a FIFO at the old temporary name", mkfifo(tmp, 0666) == 0);
	CHECK("atomic write beside a planted FIFO",
	      write_file_atomic(path, "fifo\n", 5, &mode_0640) == 0);
	CHECK("the planted FIFO is left alone",
	      lstat(tmp, &st) == 0 && S_ISFIFO(st.st_mode));
	unlink(tmp);
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL, 0666);
	CHECK("plant a file of another user at the old temporary name",
	      fd >= 0 && fchown(fd, 65534, 65534) == 0);
	if (fd >= 0)
		close(fd);
	CHECK("atomic write beside a planted file",
	      write_file_atomic(path, "file\n", 5, &mode_0640) == 0);
	CHECK("the published file is ours, with the mode asked for",
	      lstat(path, &st) == 0 && S_ISREG(st.st_mode) &&
	      st.st_uid == geteuid() && (st.st_mode & 07777) == 0640);
	CHECK("the planted file is not published",
	      lstat(tmp, &st) == 0 && st.st_uid == 65534);
	unlink(tmp);
	CHECK("plant a symlink at the old temporary name",
	      symlink("/nonexistent/x", tmp) == 0);
	CHECK("atomic write beside a planted symlink",
	      write_file_atomic(path, "link\n", 5, &mode_0640) == 0);
	unlink(tmp);
	{
		mode_t old = umask(0077);

		CHECK("atomic write sets the mode whatever the umask",
		      write_file_atomic(path, "m\n", 2, &mode_0644) == 0 &&
		      lstat(path, &st) == 0 && (st.st_mode & 07777) == 0644);
		umask(old);
	}
	CHECK("nothing but the published file is left",
	      count_entries(dir) == 2);	/* state and pub */

	/* A killed writer's temporary: ours, old enough, is removed. */
	snprintf(tmp, sizeof(tmp), "%s/.pub.tmp.0123456789abcdef", dir);
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL, 0600);
	if (fd >= 0)
		close(fd);
	{
		struct timespec old[2] = { { 1000000000, 0 }, { 1000000000, 0 } };

		utimensat(AT_FDCWD, tmp, old, 0);
	}
	/* Under a lock that swept when taken, nothing is looked for. */
	len = 0;
	CHECK("a locked atomic write leaves other temporaries alone",
	      write_file_atomic(path, "y\n", 2, &locked_0644) == 0 &&
	      access(tmp, F_OK) == 0 &&
	      read_file_at(AT_FDCWD, path, &read_text, &buf, &len) == 0 &&
	      len == 2 && buf[0] == 'y');
	if (len == 2)
		free(buf);
	/*
	 * A lock holder killed between naming its temporary and the
	 * rename leaves the locked writer's name: the next holder replaces
	 * it and, shown that a holder died there, removes the others too.
	 */
	{
		char fixed[PATH_MAX + 64];

		snprintf(fixed, sizeof(fixed), "%s/.pub.tmp.locked", dir);
		fd = open(fixed, O_WRONLY | O_CREAT | O_EXCL, 0600);
		CHECK("a killed holder's temporary at the locked name",
		      fd >= 0 && write(fd, "old", 3) == 3);
		if (fd >= 0)
			close(fd);
		len = 0;
		CHECK("a locked write over a killed holder's temporary",
		      write_file_atomic(path, "z\n", 2, &locked_0644) == 0 &&
		      read_file_at(AT_FDCWD, path, &read_text, &buf, &len) == 0 &&
		      len == 2 && buf[0] == 'z');
		if (len == 2)
			free(buf);
		CHECK("it leaves no temporary at all",
		      access(fixed, F_OK) != 0 && access(tmp, F_OK) != 0 &&
		      count_entries(dir) == 2);
		/* Another user's file there is theirs: a random name
		 * instead, their file untouched. */
		fd = open(fixed, O_WRONLY | O_CREAT | O_EXCL, 0666);
		CHECK("plant a file of another user at the locked name",
		      fd >= 0 && fchown(fd, 65534, 65534) == 0);
		if (fd >= 0)
			close(fd);
		len = 0;
		CHECK("a locked write beside a planted file",
		      write_file_atomic(path, "w\n", 2, &locked_0644) == 0 &&
		      read_file_at(AT_FDCWD, path, &read_text, &buf, &len) == 0 &&
		      len == 2 && buf[0] == 'w' && lstat(path, &st) == 0 &&
		      st.st_uid == geteuid());
		if (len == 2)
			free(buf);
		CHECK("the planted file at the locked name is left alone",
		      lstat(fixed, &st) == 0 && st.st_uid == 65534 &&
		      count_entries(dir) == 3);
		unlink(fixed);
	}
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL, 0600);
	if (fd >= 0)
		close(fd);
	{
		struct timespec old[2] = { { 1000000000, 0 }, { 1000000000, 0 } };

		utimensat(AT_FDCWD, tmp, old, 0);
	}
	CHECK("atomic write removes a stale temporary of ours",
	      write_file_atomic(path, "x\n", 2, &mode_0644) == 0 &&
	      access(tmp, F_OK) != 0);

	/* A name as long as a name can be. */
	memset(name, 'n', NAME_MAX);
	name[NAME_MAX] = '\0';
	snprintf(sub, sizeof(sub), "%s/%s", dir, name);
	CHECK("atomic write of a NAME_MAX long name",
	      write_file_atomic(sub, "long\n", 5, &mode_0644) == 0 &&
	      read_file_at(AT_FDCWD, sub, &read_text, &buf, &len) == 0 && len == 5);
	if (len == 5)
		free(buf);
	unlink(sub);

	/* Readers: a FIFO or a device is refused at once. */
	snprintf(tmp, sizeof(tmp), "%s/fifo", dir);
	mkfifo(tmp, 0666);
	CHECK("read_file_at refuses a FIFO",
	      read_file_at(AT_FDCWD, tmp, &read_text, &buf, &len) == -EFTYPE_CPM);
	{
		char small[16];

		bool whole;

		CHECK("read_buf_at refuses a FIFO",
		      read_buf_at(AT_FDCWD, tmp, 0, small, sizeof(small), NULL) ==
		      -EFTYPE_CPM);
		CHECK("read_buf_at READ_HEAD refuses a FIFO",
		      read_buf_at(AT_FDCWD, tmp, READ_HEAD, small, sizeof(small), &whole) ==
		      -EFTYPE_CPM);
		/* Nothing to read at once: read_buf_at()'s answer. */
		CHECK("read_buf_at READ_KERNFS refuses a FIFO",
		      read_buf_at(AT_FDCWD, tmp, READ_KERNFS, small, sizeof(small), NULL) ==
		      -EFTYPE_CPM);
		CHECK("read_buf_at READ_KERNFS refuses /dev/zero",
		      read_buf_at(AT_FDCWD, "/dev/zero", READ_KERNFS, small, sizeof(small), NULL) ==
		      -EFTYPE_CPM);
		CHECK("read_buf_at READ_KERNFS refuses a directory",
		      read_buf_at(AT_FDCWD, "/", READ_KERNFS, small, sizeof(small), NULL) ==
		      -EISDIR);
	}
	unlink(tmp);
	CHECK("read_file_at refuses /dev/zero",
	      read_file_at(AT_FDCWD, "/dev/zero", NULL, &buf, &len) ==
	      -EFTYPE_CPM);
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL, 0600);
	r = fd >= 0 && ftruncate(fd, 4096) == 0;
	if (fd >= 0)
		close(fd);
	CHECK("read_file_at with a cap refuses a file above the cap",
	      r && read_file_at(AT_FDCWD, tmp, &(struct read_opts){ .max = 1000 }, &buf, &len) ==
	      -EFBIG);
	unlink(tmp);

	/* Readers stop at a file's size without the read that returns 0,
	 * and still read every byte: around one page, and a sparse page
	 * (no blocks, like a sysfs attribute's stat). */
	{
		static const size_t sizes[] = { 1, 4095, 4096, 4097, 10000 };
		static char want[10000], small[12000];
		size_t i;

		for (i = 0; i < sizeof(want); i++)
			want[i] = (char)('a' + i % 26);
		for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
			char label[80];
			ssize_t n;

			unlink(tmp);
			write_file_atomic(tmp, want, sizes[i], &mode_0600);
			snprintf(label, sizeof(label), "read_file_at reads all %zu bytes", sizes[i]);
			CHECK(label, read_file_at(AT_FDCWD, tmp, &read_text, &buf, &len) == 0 &&
			      len == sizes[i] && memcmp(buf, want, len) == 0);
			if (len == sizes[i])
				free(buf);
			snprintf(label, sizeof(label), "read_file_at with a cap reads %zu "
				 "bytes under a cap of as many", sizes[i]);
			CHECK(label, read_file_at(AT_FDCWD, tmp, &(struct read_opts){ .flags = READ_TEXT, .max = sizes[i] }, &buf, &len) == 0 &&
			      len == sizes[i] && memcmp(buf, want, len) == 0);
			if (len == sizes[i])
				free(buf);
			n = read_buf_at(AT_FDCWD, tmp, 0, small, sizeof(small), NULL);
			snprintf(label, sizeof(label), "read_buf_at reads all %zu bytes", sizes[i]);
			CHECK(label, n == (ssize_t)sizes[i] && memcmp(small, want, sizes[i]) == 0);
			/* A head of 4096 holds 4095 bytes: whole up to them. */
			{
				bool whole = !(sizes[i] <= 4095);
				size_t head = sizes[i] <= 4095 ? sizes[i] : 4095;

				memset(small, 'X', sizeof(small));
				n = read_buf_at(AT_FDCWD, tmp, READ_HEAD, small, 4096, &whole);
				snprintf(label, sizeof(label), "read_buf_at READ_HEAD reads the first "
					 "%zu of %zu bytes", head, sizes[i]);
				CHECK(label, n == (ssize_t)head &&
				      memcmp(small, want, head) == 0 &&
				      small[head] == '\0' &&
				      whole == (sizes[i] <= 4095));
			}
		}
		/* read_buf_at: size-1 bytes and the NUL, no more. */
		unlink(tmp);
		write_file_atomic(tmp, want, 100, &mode_0600);
		CHECK("read_buf_at reads 100 bytes into 101",
		      read_buf_at(AT_FDCWD, tmp, 0, small, 101, NULL) == 100);
		CHECK("read_buf_at refuses 100 bytes for 100",
		      read_buf_at(AT_FDCWD, tmp, 0, small, 100, NULL) == -EFBIG);
		CHECK("read_buf_at refuses 100 bytes for 50",
		      read_buf_at(AT_FDCWD, tmp, 0, small, 50, NULL) == -EFBIG);
		/* read_buf_at READ_KERNFS: as read_buf_at, at its limit too. */
		CHECK("read_buf_at READ_KERNFS reads 100 bytes into 101",
		      read_buf_at(AT_FDCWD, tmp, READ_KERNFS, small, 101, NULL) == 100 &&
		      memcmp(small, want, 100) == 0 && small[100] == '\0');
		CHECK("read_buf_at READ_KERNFS refuses 100 bytes for 100",
		      read_buf_at(AT_FDCWD, tmp, READ_KERNFS, small, 100, NULL) == -EFBIG);
		/* READ_NO_LINK: a link where a control file belongs. */
		{
			char lnk[sizeof(tmp) + 8];

			snprintf(lnk, sizeof(lnk), "%s.link", tmp);
			unlink(lnk);
			if (symlink(tmp, lnk) == 0) {
				CHECK("read_buf_at reads through a link",
				      read_buf_at(AT_FDCWD, lnk, 0, small, 101, NULL) == 100);
				CHECK("read_buf_at READ_NO_LINK refuses a link",
				      read_buf_at(AT_FDCWD, lnk, READ_NO_LINK, small, 101, NULL) == -ELOOP);
				CHECK("read_buf_at READ_KERNFS | READ_NO_LINK refuses a link",
				      read_buf_at(AT_FDCWD, lnk, READ_KERNFS | READ_NO_LINK, small, 101, NULL) == -ELOOP);
				CHECK("read_buf_at READ_KERNFS | READ_NO_LINK reads a file",
				      read_buf_at(AT_FDCWD, tmp, READ_KERNFS | READ_NO_LINK, small, 101, NULL) == 100);
				unlink(lnk);
			} else {
				CHECK("symlink for READ_NO_LINK", 0);
			}
		}
		{
			/* procfs claims size 0: read until the end is seen. */
			bool whole = false;
			ssize_t n;

			n = read_buf_at(AT_FDCWD, "/proc/self/stat", READ_HEAD, small, sizeof(small), &whole);
			CHECK("read_buf_at READ_HEAD reads a procfs file whole",
			      n > 0 && whole && small[n - 1] == '\n' &&
			      small[n] == '\0');
			n = read_buf_at(AT_FDCWD, "/proc/self/stat", READ_HEAD, small, 8, &whole);
			CHECK("read_buf_at READ_HEAD stops at 7 bytes of a procfs file",
			      n == 7 && !whole && strlen(small) == 7);
			/* A sysfs attribute: one read, its newline dropped. */
			n = read_buf_at(AT_FDCWD, "/sys/devices/system/cpu/possible", READ_KERNFS, small, sizeof(small), NULL);
			CHECK("read_buf_at READ_KERNFS reads a sysfs attribute",
			      n > 0 && small[0] == '0' && small[n - 1] != '\n' &&
			      small[n] == '\0');
		}
		unlink(tmp);
		fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL, 0600);
		r = fd >= 0 && ftruncate(fd, 4096) == 0;
		if (fd >= 0)
			close(fd);
		CHECK("read_file_at reads a sparse page whole",
		      r && read_file_at(AT_FDCWD, tmp, NULL, &buf, &len) == 0 &&
		      len == 4096 && buf[0] == '\0' && buf[4095] == '\0');
		if (r && len == 4096)
			free(buf);
		unlink(tmp);
	}

	/* Directories: a symlink someone else planted is not followed. */
	snprintf(sub, sizeof(sub), "%s/shared", dir);
	snprintf(target, sizeof(target), "%s/target", dir);
	mkdir(sub, 0777);
	chmod(sub, 0777);
	mkdir(target, 0755);
	snprintf(tmp, sizeof(tmp), "%s/shared/link", dir);
	CHECK("plant a symlink of another user in a shared directory",
	      symlink(target, tmp) == 0 &&
	      lchown(tmp, 65534, 65534) == 0);
	snprintf(path, sizeof(path), "%s/shared/link/sub", dir);
	CHECK("mkdir_p does not follow it", mkdir_p(path, 0755) == -ELOOP);
	CHECK("nothing is created through it", count_entries(target) == 0);
	snprintf(path, sizeof(path), "%s/shared/link/file", dir);
	CHECK("atomic write does not follow it",
	      write_file_atomic(path, "x", 1, &mode_0644) == -ELOOP &&
	      count_entries(target) == 0);
	unlink(tmp);
	CHECK("a symlink of ours is followed",
	      symlink(target, tmp) == 0 &&
	      write_file_atomic(path, "x", 1, &mode_0644) == 0 &&
	      count_entries(target) == 1);
	snprintf(path, sizeof(path), "%s/file", target);
	unlink(path);
	unlink(tmp);
	rmdir(target);
	snprintf(path, sizeof(path), "%s/a/b/c", sub);
	CHECK("mkdir_p creates a tree", mkdir_p(path, 0755) == 0 &&
	      stat(path, &st) == 0 && S_ISDIR(st.st_mode));
	rmdir(path);
	snprintf(path, sizeof(path), "%s/a/b", sub);
	rmdir(path);
	snprintf(path, sizeof(path), "%s/a", sub);
	rmdir(path);
	rmdir(sub);

	/* Locks */
	snprintf(path, sizeof(path), "%s/l.lock", dir);
	{
		char err[256];
		int64_t ms;
		int a, b;

		pid_t child;
		int pfd[2];
		char c;

		a = lock_file(path, -1, err, sizeof(err));
		CHECK("lock_file takes a lock", a >= 0);
		unlock_file(a);
		/* A holder in another process, named from /proc/locks. */
		if (pipe(pfd) < 0)
			pfd[0] = pfd[1] = -1;
		child = fork();
		if (child == 0) {
			a = lock_file(path, -1, err, sizeof(err));
			(void)!write(pfd[1], "x", 1);
			pause();
			_exit(0);
		}
		(void)!read(pfd[0], &c, 1);
		CHECK("lock_holder names the holding process",
		      lock_holder(path) == child);
		b = lock_file(path, 30, err, sizeof(err));
		CHECK("a second lock times out", b == -ETIMEDOUT);
		snprintf(tmp, sizeof(tmp), "locked by process %ld", (long)child);
		CHECK("the message names the holder", strstr(err, tmp) != NULL);
		b = lock_file(path, 0, err, sizeof(err));
		CHECK("--wait 0 does not wait", b == -ETIMEDOUT);
		kill(child, SIGKILL);
		waitpid(child, NULL, 0);
		close(pfd[0]);
		close(pfd[1]);
		a = lock_file(path, 0, err, sizeof(err));
		CHECK("a killed holder's lock is free", a >= 0);
		unlock_file(a);
		b = lock_file(path, 0, err, sizeof(err));
		CHECK("a released lock is free", b >= 0);
		unlock_file(b);
		CHECK("a lock file is created 0600",
		      stat(path, &st) == 0 && (st.st_mode & 07777) == 0600);
		CHECK("a lock file others may write is refused",
		      chmod(path, 0666) == 0 &&
		      lock_file(path, -1, err, sizeof(err)) == -EFTYPE_CPM &&
		      strstr(err, "writable by other users") != NULL);
		chmod(path, 0644);
		b = lock_file(path, 0, err, sizeof(err));
		CHECK("an older 0644 lock file is closed to others",
		      b >= 0 && stat(path, &st) == 0 &&
		      (st.st_mode & 07777) == 0600);
		unlock_file(b);
		CHECK("a lock file of another user is refused",
		      chown(path, 65534, 65534) == 0 &&
		      lock_file(path, -1, err, sizeof(err)) == -EFTYPE_CPM);
		unlink(path);
		mkfifo(path, 0666);
		CHECK("a FIFO as lock file is refused",
		      lock_file(path, -1, err, sizeof(err)) == -EFTYPE_CPM);
		unlink(path);
		/* What may be locked beside: cpm's own files only. */
		snprintf(tmp, sizeof(tmp), "%s/o.file", dir);
		CHECK("no file is nothing to refuse",
		      own_file_check(tmp, "state", "cpm-x ", 0, err,
				     sizeof(err)) == 0);
		fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		CHECK("an empty file is nothing to lose", fd >= 0 &&
		      own_file_check(tmp, "state", "cpm-x ", 0, err,
				     sizeof(err)) == 0);
		(void)!write(fd, "root:x:0:0\n", 11);
		close(fd);
		CHECK("a file without the magic is refused",
		      own_file_check(tmp, "state", "cpm-x ", 0, err,
				     sizeof(err)) == -EFTYPE_CPM &&
		      strstr(err, "is not a cpm state file") != NULL);
		CHECK("any text passes without a magic",
		      own_file_check(tmp, "state", NULL, 0, err,
				     sizeof(err)) == 0);
		CHECK("a file others may write is refused",
		      chmod(tmp, 0646) == 0 &&
		      own_file_check(tmp, "state", NULL, 0, err,
				     sizeof(err)) == -EFTYPE_CPM &&
		      strstr(err, "writable by other users") != NULL);
		CHECK("a file of another user is refused",
		      chmod(tmp, 0644) == 0 &&
		      chown(tmp, 65534, 65534) == 0 &&
		      own_file_check(tmp, "state", NULL, 0, err,
				     sizeof(err)) == -EFTYPE_CPM &&
		      strstr(err, "owned by another user") != NULL);
		unlink(tmp);
		mkfifo(tmp, 0600);
		CHECK("a FIFO is refused, not waited on",
		      own_file_check(tmp, "state", NULL, 0, err,
				     sizeof(err)) == -EFTYPE_CPM);
		unlink(tmp);
		CHECK("a directory is refused",
		      own_file_check(dir, "state", NULL, 0, err,
				     sizeof(err)) == -EISDIR);
		CHECK("a private directory passes",
		      chmod(dir, 0700) == 0 &&
		      own_file_check(tmp, "journal", NULL, OWN_PRIVATE_DIR,
				     err, sizeof(err)) == 0);
		CHECK("a directory others may write is refused",
		      chmod(dir, 0777) == 0 &&
		      own_file_check(tmp, "journal", NULL, OWN_PRIVATE_DIR,
				     err, sizeof(err)) == -EFTYPE_CPM);
		CHECK("a sticky one passes",
		      chmod(dir, 01777) == 0 &&
		      own_file_check(tmp, "journal", NULL, OWN_PRIVATE_DIR,
				     err, sizeof(err)) == 0);
		chmod(dir, 0700);
		CHECK("parse_wait seconds", parse_wait("5", &ms) == 0 && ms == 5000);
		CHECK("parse_wait duration", parse_wait("250ms", &ms) == 0 && ms == 250);
		CHECK("parse_wait forever", parse_wait("forever", &ms) == 0 && ms < 0);
		CHECK("parse_wait junk", parse_wait("-1", &ms) == -EINVAL);
	}
	alarm(0);
}

/* Room reserved once: the appends that fill it do not move the buffer. */
static void
test_reserve(void)
{
	struct strbuf sb;
	const char *was;
	int i, moved = 0;

	strbuf_init(&sb);
	strbuf_puts(&sb, "ab");
	CHECK("strbuf_reserve makes room", strbuf_reserve(&sb, 10000) &&
	      sb.cap >= 10003 && strcmp(sb.buf, "ab") == 0);
	was = sb.buf;
	for (i = 0; i < 1000; i++) {
		strbuf_puts(&sb, "0123456789");
		moved |= sb.buf != was;
	}
	CHECK("appends within the room stay in place", !moved &&
	      sb.len == 10002);
	strbuf_free(&sb);
}

/* The printf-free integer writers print what printf prints. */
static void
test_putint(void)
{
	static const long long vals[] = { 0, 7, -7, 10, 99, 100, 4095, -12345,
		9223372036854775807LL, -9223372036854775807LL - 1 };
	static const int widths[] = { 0, 1, 5, 6, 40 };
	char want[128], buf[24], name[160];
	struct strbuf sb;
	size_t i, k;

	for (i = 0; i < sizeof(vals) / sizeof(vals[0]); i++) {
		snprintf(want, sizeof(want), "%lld", vals[i]);
		snprintf(name, sizeof(name), "fmt_int %s", want);
		CHECK(name, fmt_int(buf, vals[i]) == strlen(want) &&
		      strcmp(buf, want) == 0);
		for (k = 0; k < sizeof(widths) / sizeof(widths[0]); k++) {
			strbuf_init(&sb);
			strbuf_puts(&sb, "x");
			strbuf_putint_w(&sb, vals[i], widths[k]);
			snprintf(want, sizeof(want), "x%*lld", widths[k], vals[i]);
			snprintf(name, sizeof(name), "putint_w '%s'", want);
			CHECK_STR(name, sb.buf, want);
			strbuf_free(&sb);
		}
	}
	strbuf_init(&sb);
	strbuf_putint(&sb, -42);
	strbuf_pad(&sb, "Sockets:", 22);
	strbuf_pad(&sb, "a-label-longer-than-its-width", 5);
	strbuf_pad(&sb, "|", 40);
	snprintf(want, sizeof(want), "-42%-22s%-5s%-40s", "Sockets:",
		 "a-label-longer-than-its-width", "|");
	CHECK_STR("strbuf_pad pads as %-*s does", sb.buf, want);
	strbuf_free(&sb);
}

static int
cmp_ref(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return x < y ? -1 : x > y;
}

/*
 * sort_ints() against qsort(3) on arrays of every shape it treats apart:
 * short, sorted, reversed, full-range random (negative too, every byte
 * significant), and ids with only a low byte that varies.
 */
static void
test_sort_ints(void)
{
	static const size_t sizes[] = { 0, 1, 2, 63, 64, 65, 1000, 4096 };
	unsigned int seed = 12345;
	size_t si, i;
	int shape, bad = 0;

	for (si = 0; si < sizeof(sizes) / sizeof(sizes[0]); si++) {
		size_t n = sizes[si];

		for (shape = 0; shape < 4; shape++) {
			int *v = malloc((n + 1) * sizeof(int));
			int *w = malloc((n + 1) * sizeof(int));

			for (i = 0; i < n; i++) {
				seed = seed * 1103515245u + 12345u;
				v[i] = shape == 0 ? (int)i :
				       shape == 1 ? (int)(n - i) - 5 :
				       shape == 2 ? (int)(seed ^ (seed << 13)) :
				       (int)((seed >> 16) & 0xff);
			}
			if (n > 2 && shape == 2) {
				v[0] = INT_MIN;
				v[1] = INT_MAX;
			}
			memcpy(w, v, n * sizeof(int));
			qsort(w, n, sizeof(int), cmp_ref);
			sort_ints(v, n);
			if (n && memcmp(v, w, n * sizeof(int)) != 0)
				bad++;
			free(v);
			free(w);
		}
	}
	CHECK("sort_ints sorts as qsort does, every size and shape", bad == 0);
}

/*
 * uniq_ints() against qsort(3) and a pass dropping repeats, on both of its
 * ways: small non-negative ids (the bitmap) and values it must sort.
 */
static void
test_uniq_ints(void)
{
	static const size_t sizes[] = { 0, 1, 2, 63, 64, 65, 1000, 4096 };
	unsigned int seed = 777;
	size_t si, i, m, k;
	int shape, bad = 0;

	for (si = 0; si < sizeof(sizes) / sizeof(sizes[0]); si++) {
		size_t n = sizes[si];

		for (shape = 0; shape < 5; shape++) {
			int *v = malloc((n + 1) * sizeof(int));
			int *w = malloc((n + 1) * sizeof(int));

			for (i = 0; i < n; i++) {
				seed = seed * 1103515245u + 12345u;
				v[i] = shape == 0 ? (int)(i / 2) :
				       shape == 1 ? (int)((seed >> 16) % 7) :
				       shape == 2 ? (int)(seed ^ (seed << 13)) :
				       shape == 3 ? (int)((seed >> 8) % 100000) :
				       (int)((seed >> 16) % 50) - 25;
			}
			memcpy(w, v, n * sizeof(int));
			qsort(w, n, sizeof(int), cmp_ref);
			for (i = 0, k = 0; i < n; i++)
				if (i == 0 || w[i] != w[k - 1])
					w[k++] = w[i];
			m = uniq_ints(v, n);
			if (m != k || (k && memcmp(v, w, k * sizeof(int)) != 0))
				bad++;
			free(v);
			free(w);
		}
	}
	CHECK("uniq_ints leaves the sorted distinct values, every shape",
	      bad == 0);
}

/* Write len bytes of a pattern to path, replacing it. */
static int
put_pattern(const char *path, size_t len)
{
	char *b = malloc(len ? len : 1);
	size_t i;
	int r;

	if (!b)
		return -ENOMEM;
	for (i = 0; i < len; i++)
		b[i] = (char)('a' + i % 26);
	b[len ? len - 1 : 0] = '\n';
	r = write_file_atomic(path, b, len, &mode_0600);
	free(b);
	return r;
}

/* Whether buf holds put_pattern()'s len bytes and READ_PAD zeroes. */
static bool
is_pattern(const char *buf, size_t len)
{
	size_t i;

	for (i = 0; i + 1 < len; i++)
		if (buf[i] != (char)('a' + i % 26))
			return false;
	if (len && buf[len - 1] != '\n')
		return false;
	for (i = len; i < len + READ_PAD; i++)
		if (buf[i])
			return false;
	return true;
}

/*
 * read_file_at() with held: a file of three pages or more is read into pages
 * of its own, smaller ones into a malloc'ed buffer; the same bytes and
 * padding either way.  A file cut or written in place after the read
 * leaves the bytes read as they were, and is not intact.
 */
static void
test_held(const char *dir)
{
	const size_t pg = (size_t)sysconf(_SC_PAGESIZE);
	const struct { size_t len; bool own; } cases[] = {
		{ 100, false }, { 2 * pg, false }, { 2 * pg + 1, true },
		{ 3 * pg - READ_PAD, true }, { 3 * pg - READ_PAD + 1, true },
		{ 3 * pg, true }, { 10 * pg + 7, true },
	};
	struct held_file h[10];
	char path[256], label[120], *buf, *bufs[10];
	size_t len, i;
	int fd, r;

	snprintf(path, sizeof(path), "%s/held", dir);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		memset(&h[0], 0, sizeof(h[0]));
		r = put_pattern(path, cases[i].len);
		r = r < 0 ? r : read_file_at(AT_FDCWD, path, &(struct read_opts){ .held = &h[0] }, &buf, &len);
		snprintf(label, sizeof(label), "read_file_at held: %zu bytes, "
			 "%s, padded", cases[i].len,
			 cases[i].own ? "pages of its own" : "malloc'ed");
		CHECK(label, r == 0 && len == cases[i].len &&
		      (h[0].map != NULL) == cases[i].own &&
		      is_pattern(buf, len) && held_file_intact(&h[0]) == 1 &&
		      held_file_same(&h[0], AT_FDCWD, path) == 1);
		if (r == 0) {
			held_file_free_buf(&h[0], buf);
			held_file_close(&h[0]);
		}
	}
	CHECK("read_file_at held: a file over the cap is refused",
	      put_pattern(path, 5 * pg + 1) == 0 &&
	      read_file_at(AT_FDCWD, path, &(struct read_opts){ .max = 5 * pg, .held = &h[0] }, &buf, &len) ==
	      -EFBIG);
	{
		/* READ_TEXT holds for a file read into pages of its own. */
		const struct read_opts held_text = {
			.flags = READ_TEXT, .held = &h[0],
		};

		fd = open(path, O_WRONLY | O_CLOEXEC);
		r = fd >= 0 && pwrite(fd, "", 1, 3 * pg) == 1 ? 0 : -1;
		if (fd >= 0)
			close(fd);
		memset(&h[0], 0, sizeof(h[0]));
		CHECK("read_file_at held: READ_TEXT refuses a NUL byte",
		      r == 0 && read_file_at(AT_FDCWD, path, &held_text, &buf,
					     &len) == -EILSEQ && !h[0].open);
	}

	/* Many files held at once, each whole. */
	for (i = 0; i < 10; i++) {
		char p2[300];

		memset(&h[i], 0, sizeof(h[i]));
		snprintf(p2, sizeof(p2), "%s/held%zu", dir, i);
		bufs[i] = NULL;
		if (put_pattern(p2, 4 * pg + 1 + i) == 0 &&
		    read_file_at(AT_FDCWD, p2, &(struct read_opts){ .held = &h[i] }, &bufs[i], &len) < 0)
			bufs[i] = NULL;
	}
	for (r = 0, i = 0; i < 10; i++)
		r += bufs[i] && h[i].map && is_pattern(bufs[i], 4 * pg + 1 + i);
	CHECK("read_file_at held: ten files held at once, each whole", r == 10);
	for (i = 0; i < 10; i++) {
		char p2[300];

		held_file_free_buf(&h[i], bufs[i]);
		held_file_close(&h[i]);
		snprintf(p2, sizeof(p2), "%s/held%zu", dir, i);
		unlink(p2);
	}

	/* Cut in place (truncated, not replaced) after the read. */
	memset(&h[0], 0, sizeof(h[0]));
	r = put_pattern(path, 6 * pg + 100);
	r = r < 0 ? r : read_file_at(AT_FDCWD, path, &(struct read_opts){ .held = &h[0] }, &buf, &len);
	CHECK("read_file_at held: six pages read", r == 0 && h[0].map);
	if (r == 0) {
		fd = open(path, O_WRONLY);
		r = fd >= 0 && ftruncate(fd, (off_t)pg) == 0;
		if (fd >= 0)
			close(fd);
		CHECK("a file cut in place: the bytes read stay as read",
		      r && is_pattern(buf, 6 * pg + 100));
		CHECK("a file cut in place is not intact",
		      held_file_intact(&h[0]) == 0 &&
		      held_file_same(&h[0], AT_FDCWD, path) == 0);
		held_file_free_buf(&h[0], buf);
		held_file_close(&h[0]);
	}
	/* Written in place, same size: not intact either (its times). */
	memset(&h[0], 0, sizeof(h[0]));
	r = put_pattern(path, 4 * pg + 1);
	r = r < 0 ? r : read_file_at(AT_FDCWD, path, &(struct read_opts){ .held = &h[0] }, &buf, &len);
	if (r == 0) {
		struct timespec later[2] = { { 0, UTIME_OMIT }, { 1, 0 } };

		fd = open(path, O_WRONLY);
		r = fd >= 0 && pwrite(fd, "Z", 1, 10) == 1 &&
		    futimens(fd, later) == 0;
		if (fd >= 0)
			close(fd);
		CHECK("a file written in place is not intact, its bytes as read",
		      r && held_file_intact(&h[0]) == 0 && buf[10] != 'Z');
		held_file_free_buf(&h[0], buf);
		held_file_close(&h[0]);
	}
	unlink(path);
}

int
main(void)
{
	uint64_t v;
	int64_t i;
	char dir[] = "/tmp/cpm-unit.XXXXXX", path[128], *buf;
	size_t len;

	test_putint();
	test_reserve();
	CHECK("u64 plain", parse_u64("42", 100, &v) == 0 && v == 42);
	CHECK("u64 zero", parse_u64("0", 100, &v) == 0 && v == 0);
	CHECK("u64 above max", parse_u64("101", 100, &v) == -ERANGE);
	CHECK("u64 overflow", parse_u64("18446744073709551616", UINT64_MAX, &v) == -ERANGE);
	CHECK("u64 max", parse_u64("18446744073709551615", UINT64_MAX, &v) == 0 &&
	      v == UINT64_MAX);
	CHECK("u64 19 digits", parse_u64("9999999999999999999", UINT64_MAX, &v) == 0 &&
	      v == 9999999999999999999ULL);
	CHECK("u64 20 digits above max", parse_u64("18446744073709551620", UINT64_MAX, &v) == -ERANGE);
	CHECK("u64 20 nines", parse_u64("99999999999999999999", UINT64_MAX, &v) == -ERANGE);
	CHECK("u64 21 digits", parse_u64("100000000000000000000", UINT64_MAX, &v) == -ERANGE);
	CHECK("u64 junk as the 20th byte", parse_u64("1844674407370955161x", UINT64_MAX, &v) == -EINVAL);
	CHECK("u64 junk as the 19th byte", parse_u64("184467440737095516x", UINT64_MAX, &v) == -EINVAL);
	CHECK("u64 leading zero", parse_u64("010", 100, &v) == -EINVAL);
	CHECK("u64 sign", parse_u64("+1", 100, &v) == -EINVAL);
	CHECK("u64 space", parse_u64(" 1", 100, &v) == -EINVAL);
	CHECK("u64 trailing junk", parse_u64("1x", 100, &v) == -EINVAL);
	CHECK("u64 empty", parse_u64("", 100, &v) == -EINVAL);
	CHECK("i64 negative", parse_i64("-1", -1, 10, &i) == 0 && i == -1);
	CHECK("i64 below min", parse_i64("-2", -1, 10, &i) == -ERANGE);
	CHECK("i64 minus zero", parse_i64("-0", -1, 10, &i) == -EINVAL);
	CHECK("i64 min", parse_i64("-9223372036854775808", INT64_MIN, 0, &i) == 0 &&
	      i == INT64_MIN);
	CHECK("duration ms", parse_duration_us("100ms", &v) == 0 && v == 100000);
	CHECK("duration s fraction", parse_duration_us("1.5s", &v) == 0 && v == 1500000);
	CHECK("duration us", parse_duration_us("250us", &v) == 0 && v == 250);
	CHECK("duration needs unit", parse_duration_us("100", &v) == -EINVAL);
	CHECK("duration finer than us", parse_duration_us("1.5us", &v) == -EINVAL);
	CHECK("duration junk", parse_duration_us("1.s", &v) == -EINVAL);
	CHECK("duration unknown unit", parse_duration_us("5m", &v) == -EINVAL);
	CHECK("size Gi", parse_size_bytes("2Gi", &v) == 0 && v == 2ULL << 30);
	CHECK("size M", parse_size_bytes("512M", &v) == 0 && v == 512ULL << 20);
	CHECK("size bytes", parse_size_bytes("4096", &v) == 0 && v == 4096);
	CHECK("size junk", parse_size_bytes("12X", &v) == -EINVAL);
	CHECK("size overflow", parse_size_bytes("99999999999999T", &v) == -ERANGE);

	{
		struct strbuf sb;
		char copy[64], err[16];

		strbuf_init(&sb);
		str_escape(&sb, "a b%c\td\xc3\xa9");
		CHECK_STR("escape spaces, percent, control and non-ASCII bytes",
			  sb.buf, "a%20b%25c%09d%C3%A9");
		snprintf(copy, sizeof(copy), "%s", sb.buf);
		CHECK("unescape round trip", str_unescape(copy) == 0 &&
		      strcmp(copy, "a b%c\td\xc3\xa9") == 0);
		strbuf_free(&sb);
		strbuf_init(&sb);
		str_escape(&sb, "");
		str_escape(&sb, "\x7f~kubepods/pod-1 \x01");
		str_escape(&sb, "%");
		CHECK_STR("escape: runs of plain bytes between escapes at either end",
			  sb.buf ? sb.buf : "", "%7F~kubepods/pod-1%20%01%25");
		strbuf_free(&sb);
		snprintf(copy, sizeof(copy), "x%%2");
		CHECK("unescape refuses a short escape", str_unescape(copy) == -EINVAL);
		snprintf(copy, sizeof(copy), "x%%00y");
		CHECK("unescape refuses an encoded NUL", str_unescape(copy) == -EINVAL);
		snprintf(copy, sizeof(copy), "%%7e%%7E");
		CHECK("unescape takes either case", str_unescape(copy) == 0 &&
		      strcmp(copy, "~~") == 0);
		err_set(err, sizeof(err), "%s %d", "truncated message", 42);
		CHECK_STR("err_set truncates to the buffer", err, "truncated messa");
		err_set(NULL, 0, "nothing %d", 1);	/* must not crash */
	}

	CHECK("mkdtemp", mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/state", dir);
	CHECK("atomic write", write_file_atomic(path, "one\n", 4, &mode_0600) == 0);
	CHECK("atomic replace", write_file_atomic(path, "two\n", 4, &mode_0600) == 0);
	CHECK("read back", read_file_at(AT_FDCWD, path, &read_text, &buf, &len) == 0 &&
	      len == 4 && strcmp(buf, "two\n") == 0);
	free(buf);
	snprintf(path, sizeof(path), "%s/.state.tmp.%ld", dir, (long)getpid());
	CHECK("no temporary file left", access(path, F_OK) != 0);
	snprintf(path, sizeof(path), "%s/missing/state", dir);
	CHECK("atomic write into a missing dir fails", write_file_atomic(path, "x", 1, &mode_0600) == -ENOENT);
	hostile(dir);
	test_held(dir);
	snprintf(path, sizeof(path), "%s/state", dir);
	unlink(path);
	rmdir(dir);
	test_sort_ints();
	test_uniq_ints();
	return unit_failed;
}
