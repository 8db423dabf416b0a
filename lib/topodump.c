// SPDX-License-Identifier: GPL-2.0-or-later
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "coretype.h"
#include "topo.h"
#include "topodump.h"
#include "util.h"

/* mkdir -p of the directories leading to path (relative to dirfd). */
static int
make_parents(int dirfd, const char *path)
{
	char buf[4096];
	char *p;

	if (strlen(path) >= sizeof(buf))
		return -ENAMETOOLONG;
	strcpy(buf, path);
	for (p = strchr(buf, '/'); p; p = strchr(p + 1, '/')) {
		*p = '\0';
		if (mkdirat(dirfd, buf, 0755) < 0 && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	return 0;
}

static int
dir_is_empty(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int empty = 1;

	if (d == NULL)
		return errno == ENOENT ? 1 : -errno;
	while ((de = readdir(d)) != NULL)
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..")) {
			empty = 0;
			break;
		}
	closedir(d);
	return empty;
}

int
topo_dump(const struct sysroot *root, const char *dir, char *err,
	  size_t errlen)
{
	struct sysroot rec = *root;
	struct strbuf paths;
	struct topo t;
	char *line, *save = NULL;
	int r, outfd;

	r = dir_is_empty(dir);
	if (r < 0) {
		snprintf(err, errlen, "cannot read '%s': %s", dir, strerror(-r));
		return r;
	}
	if (r == 0) {
		snprintf(err, errlen, "'%s' exists and is not empty", dir);
		return -EEXIST;
	}
	strbuf_init(&paths);
	rec.record = &paths;
	r = topo_load(&t, &rec, TOPO_PROCESS, err, errlen);
	if (r < 0)
		return r == -ENOMEM ? r : -EINVAL;
	{
		/* Core types read files of their own. */
		struct coretypes ct;

		r = coretype_load(&ct, &rec, &t, err, errlen);
		coretype_free(&ct);
	}
	topo_free(&t);
	if (r < 0) {
		strbuf_free(&paths);
		return r;
	}
	if (paths.oom) {
		strbuf_free(&paths);
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	if (mkdir(dir, 0755) < 0 && errno != EEXIST) {
		r = -errno;
		snprintf(err, errlen, "cannot create '%s': %s", dir, strerror(errno));
		strbuf_free(&paths);
		return r;
	}
	outfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (outfd < 0) {
		r = -errno;
		snprintf(err, errlen, "cannot open '%s': %s", dir, strerror(errno));
		strbuf_free(&paths);
		return r;
	}
	for (line = paths.buf ? strtok_r(paths.buf, "\n", &save) : NULL; line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *data;
		size_t len;
		int fd;

		/* A file read twice is copied once. */
		if (faccessat(outfd, line, F_OK, 0) == 0)
			continue;
		r = read_file_at(root->fd, line, &data, &len, false);
		if (r < 0)
			continue;	/* vanished since: nothing to copy */
		r = make_parents(outfd, line);
		if (r == 0) {
			fd = openat(outfd, line, O_WRONLY | O_CREAT | O_EXCL |
				    O_CLOEXEC, 0644);
			if (fd < 0)
				r = -errno;
			else {
				r = write_all(fd, data, len);
				close(fd);
			}
		}
		free(data);
		if (r < 0) {
			snprintf(err, errlen, "cannot write '%s/%s': %s", dir, line,
				 strerror(-r));
			break;
		}
	}
	close(outfd);
	strbuf_free(&paths);
	return r < 0 ? r : 0;
}
