// SPDX-License-Identifier: GPL-2.0-or-later
/* irqbalance's banned CPUs over its runtime socket. */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/un.h>
#include <unistd.h>

#include "base/num.h"
#include "base/strbuf.h"
#include "base/strutils.h"
#include "machine/irqbalance.h"

#define PREFIX "irqbalance"
#define SUFFIX ".sock"

void
irqb_sock_path(pid_t pid, char *buf, size_t size)
{
	snprintf(buf, size, IRQB_SOCK_DIR "/" PREFIX "%d" SUFFIX, (int)pid);
}

pid_t
irqb_sock_pid(const char *path)
{
	const char *base = strrchr(path, '/');
	char word[16];
	unsigned int pid;
	size_t n;

	base = base ? base + 1 : path;
	if (!startswith(base, PREFIX))
		return 0;
	base += sizeof(PREFIX) - 1;
	n = strlen(base);
	if (n <= sizeof(SUFFIX) - 1 || n - (sizeof(SUFFIX) - 1) >= sizeof(word) ||
	    strcmp(base + n - (sizeof(SUFFIX) - 1), SUFFIX) != 0)
		return 0;
	memcpy(word, base, n - (sizeof(SUFFIX) - 1));
	word[n - (sizeof(SUFFIX) - 1)] = '\0';
	return parse_uint(word, INT_MAX, &pid) < 0 || pid == 0 ? 0 : (pid_t)pid;
}

size_t
irqb_find(const struct sysroot *root, pid_t *pids, size_t max)
{
	struct dirent *de;
	size_t n = 0;
	DIR *d;

	if (!root->live || (d = opendir(IRQB_SOCK_DIR)) == NULL)
		return 0;
	while (n < max && (de = readdir(d)) != NULL) {
		pid_t pid = irqb_sock_pid(de->d_name);
		char path[64], comm[64];

		if (pid == 0)
			continue;
		snprintf(path, sizeof(path), "proc/%d/comm", (int)pid);
		if (sysroot_read(root, path, comm, sizeof(comm)) < 0 ||
		    strcmp(strstrip(comm), "irqbalance") != 0)
			continue;	/* a socket left by one gone */
		pids[n++] = pid;
	}
	closedir(d);
	return n;
}

/* Send cmd with our credentials; the connected socket, or -errno. */
static int
talk(pid_t pid, const char *cmd)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	struct ucred cred = { getpid(), geteuid(), getegid() };
	union {
		char buf[CMSG_SPACE(sizeof(struct ucred))];
		struct cmsghdr align;
	} ctl;
	struct iovec iov = { (void *)cmd, strlen(cmd) };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1,
			      .msg_control = ctl.buf,
			      .msg_controllen = sizeof(ctl.buf) };
	struct timeval tv = { 2, 0 };
	struct cmsghdr *c;
	int fd, e;

	memset(&ctl, 0, sizeof(ctl));
	c = CMSG_FIRSTHDR(&msg);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_CREDENTIALS;
	c->cmsg_len = CMSG_LEN(sizeof(cred));
	memcpy(CMSG_DATA(c), &cred, sizeof(cred));
	irqb_sock_path(pid, addr.sun_path, sizeof(addr.sun_path));
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) < 0 ||
	    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv)) < 0 ||
	    connect(fd, (struct sockaddr *)&addr, sizeof(addr)) < 0 ||
	    sendmsg(fd, &msg, MSG_NOSIGNAL) != (ssize_t)iov.iov_len) {
		e = -errno;
		close(fd);
		return e ? e : -EIO;
	}
	return fd;
}

int
irqb_banned(pid_t pid, struct cpuset *banned)
{
	char buf[8192], *p;
	size_t len = 0;
	ssize_t n;
	int fd = talk(pid, "setup");

	if (fd < 0)
		return fd;
	while (len < sizeof(buf) - 1 &&
	       (n = recv(fd, buf + len, sizeof(buf) - 1 - len, 0)) > 0)
		len += (size_t)n;
	close(fd);
	buf[len] = '\0';
	p = strstr(buf, "BANNED ");
	if (p == NULL)
		return -EPROTO;
	return cpuset_parse_mask(strstrip(p + 7), banned) < 0 ? -EPROTO : 0;
}

int
irqb_ban(pid_t pid, const struct cpuset *cpus)
{
	struct strbuf sb;
	char c;
	int fd;

	strbuf_init(&sb);
	strbuf_puts(&sb, "settings cpus ");
	if (cpus == NULL || cpuset_empty(cpus))
		strbuf_puts(&sb, "NULL");
	else
		cpuset_format(cpus, &sb);
	if (sb.oom) {
		strbuf_free(&sb);
		return -ENOMEM;
	}
	fd = talk(pid, sb.buf);
	strbuf_free(&sb);
	if (fd < 0)
		return fd;
	/* It closes the connection once it has taken the setting. */
	while (recv(fd, &c, 1, 0) > 0)
		;
	close(fd);
	return 0;
}

int
irqb_own(const struct sysroot *root, pid_t pid, struct cpuset *own)
{
	static const char *const files[] = { "sys/devices/system/cpu/isolated",
					     "sys/devices/system/cpu/nohz_full" };
	struct cpuset s = CPUSET_INIT;
	char path[64], *env = NULL, buf[4096];
	size_t len = 0, k, i;
	int r;

	cpuset_zero(own);
	snprintf(path, sizeof(path), "proc/%d/environ", (int)pid);
	r = sysroot_read_file(root, path, &env, &len);
	if (r < 0)
		return r;
	/* irqbalance takes IRQBALANCE_BANNED_CPUS (a mask) first. */
	for (k = 0; k < len; k += strlen(env + k) + 1)
		if (startswith(env + k, "IRQBALANCE_BANNED_CPUS=") &&
		    env[k + 23]) {
			r = cpuset_parse_mask(env + k + 23, own);
			free(env);
			return r;
		}
	for (k = 0; k < len; k += strlen(env + k) + 1)
		if (startswith(env + k, "IRQBALANCE_BANNED_CPULIST=") &&
		    env[k + 26]) {
			r = cpuset_parse_list(env + k + 26, own, NULL, 0);
			free(env);
			return r;
		}
	free(env);
	for (i = 0; i < 2; i++) {
		if (sysroot_read(root, files[i], buf, sizeof(buf)) < 0 ||
		    cpuset_parse_list(strstrip(buf), &s, NULL, 0) < 0)
			continue;
		if (cpuset_or(own, &s) < 0) {
			cpuset_free(&s);
			return -ENOMEM;
		}
	}
	cpuset_free(&s);
	return 0;
}
