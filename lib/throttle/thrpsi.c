// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "base/err.h"
#include "base/fileread.h"
#include "base/num.h"
#include "throttle/thrpsi.h"

const char *const thr_psi_name[THR_PSI_NRES] = { "cpu", "memory", "io" };

static const char *const files[THR_PSI_NRES] = {
	"cpu.pressure", "memory.pressure", "io.pressure"
};

/* The value of key= in the n bytes at s, into buf; false if absent. */
static bool
field(const char *s, size_t n, const char *key, char *buf, size_t size)
{
	size_t kl = strlen(key);
	const char *p = s, *end = s + n;

	while (p < end) {
		const char *e = memchr(p, ' ', (size_t)(end - p));
		size_t len = e ? (size_t)(e - p) : (size_t)(end - p);

		if (len > kl && memcmp(p, key, kl) == 0 && p[kl] == '=') {
			if (len - kl - 1 >= size)
				return false;
			memcpy(buf, p + kl + 1, len - kl - 1);
			buf[len - kl - 1] = '\0';
			return true;
		}
		p += len + 1;
	}
	return false;
}

/* "12.34" (at most two decimals, up to 100) in hundredths. */
static int
parse_pct(const char *s, uint16_t *out)
{
	uint64_t whole, frac = 0;
	const char *dot = strchr(s, '.');
	char w[8];
	size_t wl = dot ? (size_t)(dot - s) : strlen(s);

	if (wl == 0 || wl >= sizeof(w))
		return -EINVAL;
	memcpy(w, s, wl);
	w[wl] = '\0';
	if (parse_u64(w, 100, &whole) < 0)
		return -EINVAL;
	if (dot) {
		size_t fl = strlen(dot + 1);

		if (fl == 0 || fl > 2)
			return -EINVAL;
		for (size_t i = 0; i < 2; i++) {
			char d = i < fl ? dot[1 + i] : '0';

			if (d < '0' || d > '9')
				return -EINVAL;
			frac = frac * 10 + (uint64_t)(d - '0');
		}
	}
	*out = (uint16_t)(whole * 100 + frac);
	return 0;
}

int
thr_psi_parse(const char *text, struct thr_psi *p)
{
	const char *s = text;

	memset(p, 0, sizeof(*p));
	while (*s != '\0') {
		const char *eol = strchr(s, '\n');
		size_t n = eol ? (size_t)(eol - s) : strlen(s);
		char a10[16], a60[16], a300[16], tot[24];
		uint16_t avg, ignored;
		uint64_t total;
		bool full;

		if (n == 0) {
			s++;
			continue;
		}
		if (n > 5 && memcmp(s, "some ", 5) == 0)
			full = false;
		else if (n > 5 && memcmp(s, "full ", 5) == 0)
			full = true;
		else
			return -EBADMSG;
		if (!field(s + 5, n - 5, "avg10", a10, sizeof(a10)) ||
		    !field(s + 5, n - 5, "avg60", a60, sizeof(a60)) ||
		    !field(s + 5, n - 5, "avg300", a300, sizeof(a300)) ||
		    !field(s + 5, n - 5, "total", tot, sizeof(tot)) ||
		    parse_pct(a10, &avg) < 0 || parse_pct(a60, &ignored) < 0 ||
		    parse_pct(a300, &ignored) < 0 ||
		    parse_u64(tot, UINT64_MAX, &total) < 0)
			return -EBADMSG;
		if (full) {
			p->full_us = total;
			p->full_avg10 = avg;
			p->has |= THR_PSI_FULL;
		} else {
			p->some_us = total;
			p->some_avg10 = avg;
			p->has |= THR_PSI_SOME;
		}
		s += n + (eol != NULL);
	}
	return 0;
}

/* After a read of path failed with n: -ENOENT for "none here". */
static int
absent(ssize_t n)
{
	/* PSI off (psi=0, or cgroup1 PSI not enabled): the file may be
	 * there and refuse reads */
	if (n == -ENOENT || n == -EOPNOTSUPP || n == -ENOTSUP ||
	    n == -ENOTDIR || n == -EINVAL)
		return -ENOENT;
	return (int)n;
}

int
thr_psi_read_at(const struct cg_at *at, enum thr_psi_res res,
		const char *group, struct thr_psi *p, char *err, size_t errlen)
{
	char path[NAME_MAX + 32], buf[512];
	unsigned int how = READ_NO_LINK | READ_KERNFS;
	const char *f = files[res];
	ssize_t n;

	memset(p, 0, sizeof(*p));
	if (at->sub != NULL) {
		if ((size_t)snprintf(path, sizeof(path), "%s/%s", at->sub,
				     f) >= sizeof(path))
			return -ENAMETOOLONG;
		f = path;
		how |= READ_NO_LINKS;
	}
	n = read_buf_at(at->fd, f, how, buf, sizeof(buf), NULL);
	if (n < 0) {
		if (absent(n) == -ENOENT)
			return -ENOENT;
		err_set(err, errlen, "cannot read %s of %s: %s", files[res],
			cg_display(group), n == -ELOOP ? "a symbolic link" :
			read_strerror((int)n));
		return n == -ELOOP || n == -EFTYPE_CPM || n == -EFBIG
			       ? -EBADMSG : (int)n;
	}
	if (thr_psi_parse(buf, p) < 0) {
		memset(p, 0, sizeof(*p));
		err_set(err, errlen, "%s of %s: unexpected content", files[res],
			cg_display(group));
		return -EBADMSG;
	}
	return 0;
}

int
thr_psi_read_node(const char *root, struct thr_psi node[THR_PSI_NRES],
		  char *err, size_t errlen)
{
	for (int i = 0; i < THR_PSI_NRES; i++) {
		char path[4096], buf[512];
		ssize_t n;

		memset(&node[i], 0, sizeof(node[i]));
		if ((size_t)snprintf(path, sizeof(path), "%s/proc/pressure/%s",
				     root ? root : "", thr_psi_name[i]) >=
		    sizeof(path))
			return -ENAMETOOLONG;
		n = read_buf_at(AT_FDCWD, path, READ_KERNFS, buf, sizeof(buf),
				NULL);
		if (n < 0 && absent(n) == -ENOENT)
			continue;
		if (n < 0) {
			err_set(err, errlen, "cannot read %s: %s", path,
				read_strerror((int)n));
			return n == -EFTYPE_CPM || n == -EFBIG ? -EBADMSG
							       : (int)n;
		}
		if (thr_psi_parse(buf, &node[i]) < 0) {
			memset(&node[i], 0, sizeof(node[i]));
			err_set(err, errlen, "%s: unexpected content", path);
			return -EBADMSG;
		}
	}
	return 0;
}

uint64_t
thr_psi_delta(const struct thr_psi *old, const struct thr_psi *cur, bool full)
{
	unsigned int bit = full ? THR_PSI_FULL : THR_PSI_SOME;
	uint64_t c = full ? cur->full_us : cur->some_us, o;

	if (old == NULL || !(old->has & bit))
		return c;
	o = full ? old->full_us : old->some_us;
	return c >= o ? c - o : c;
}

double
thr_psi_share(const struct thr_psi *old, const struct thr_psi *cur, bool full,
	      uint64_t window_us)
{
	unsigned int bit = full ? THR_PSI_FULL : THR_PSI_SOME;
	double v;

	if (!(cur->has & bit))
		return -1.0;
	if (old == NULL || !(old->has & bit) || window_us == 0)
		v = (full ? cur->full_avg10 : cur->some_avg10) / 10000.0;
	else
		v = (double)thr_psi_delta(old, cur, full) / (double)window_us;
	return v > 1.0 ? 1.0 : v;
}

int
thr_psi_mask_parse(const char *s, unsigned int *mask)
{
	unsigned int m = 0;
	const char *p = s;

	if (strcmp(s, "none") == 0) {
		*mask = 0;
		return 0;
	}
	if (strcmp(s, "all") == 0) {
		*mask = THR_PSI_MASK_ALL;
		return 0;
	}
	while (*p) {
		const char *e = strchr(p, ',');
		size_t n = e ? (size_t)(e - p) : strlen(p);
		int i;

		for (i = 0; i < THR_PSI_NRES; i++)
			if (strlen(thr_psi_name[i]) == n &&
			    strncmp(p, thr_psi_name[i], n) == 0)
				break;
		if (i == THR_PSI_NRES)
			return -EINVAL;
		m |= 1u << i;
		p += n;
		if (*p == ',') {
			p++;
			if (*p == '\0')
				return -EINVAL;
		}
	}
	if (m == 0)
		return -EINVAL;
	*mask = m;
	return 0;
}
