// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * floor-state FILE SIZE: the least work one change of a cpm-alloc state
 * can cost -- take the lock (FILE.lock, flock), write SIZE bytes to a
 * temporary file, fsync it, rename it over FILE, fsync the directory.
 * A benchmark floor, not a tool.
 */
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

int
main(int argc, char **argv)
{
	char lock[4096], tmp[4096], dir[4096];
	size_t size, off = 0;
	char *data;
	int lfd, fd, dfd;

	if (argc != 3) {
		fprintf(stderr, "usage: floor-state FILE SIZE\n");
		return 2;
	}
	size = strtoul(argv[2], NULL, 10);
	snprintf(lock, sizeof(lock), "%s.lock", argv[1]);
	snprintf(tmp, sizeof(tmp), "%s.tmp", argv[1]);
	snprintf(dir, sizeof(dir), "%s", argv[1]);
	data = malloc(size + 1);
	if (!data)
		return 1;
	memset(data, 'x', size);
	lfd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (lfd < 0 || flock(lfd, LOCK_EX) < 0) {
		perror(lock);
		return 1;
	}
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		perror(tmp);
		return 1;
	}
	while (off < size) {
		ssize_t n = write(fd, data + off, size - off);

		if (n <= 0) {
			perror(tmp);
			return 1;
		}
		off += n;
	}
	if (fsync(fd) < 0 || close(fd) < 0 || rename(tmp, argv[1]) < 0) {
		perror(argv[1]);
		return 1;
	}
	dfd = open(dirname(dir), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0 || fsync(dfd) < 0) {
		perror(dir);
		return 1;
	}
	close(dfd);
	close(lfd);
	free(data);
	return 0;
}
