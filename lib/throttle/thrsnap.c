// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The snapshot files of cpm-throttle --since: a text format, written and
 * read a piece at a time.  A snapshot of 10,000 groups is some 600 KB;
 * neither side holds the whole text in memory (each page a process
 * touches first costs it a page fault).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/err.h"
#include "base/filewrite.h"
#include "base/macros.h"
#include "base/num.h"
#include "base/numfmt.h"
#include "base/path.h"
#include "base/strbuf.h"
#include "throttle/throttle.h"

#define SNAP_MAGIC "cpm-throttle-snapshot 1"

/* The longest line: a group path, every byte escaped, and the numbers. */
#define SNAP_LINE_MAX (4 * CG_PATH_MAX + 256)

/* The pieces the file is read and written in. */
#define SNAP_CHUNK (64u << 10)

/* Samples formatted between two writes (some 60 bytes each). */
#define SNAP_SLICE 512

/* str_escape(), with "/" standing for the empty string. */
static void
put_escaped(struct strbuf *sb, const char *s)
{
	if (*s == '\0')
		strbuf_puts(sb, "/");
	else
		str_escape(sb, s);
}

/* Decode put_escaped() in place; false on a malformed escape. */
static bool
unescape(char *s)
{
	if (strcmp(s, "/") == 0) {
		*s = '\0';
		return true;
	}
	return str_unescape(s) == 0;
}

static void put_node(const struct thr_snap *s, struct strbuf *sb);

static void
put_head(const struct thr_snap *s, struct strbuf *sb)
{
	strbuf_puts(sb, SNAP_MAGIC "\n");
	strbuf_printf(sb, "version %d\n", s->version);
	strbuf_puts(sb, "hierarchy ");
	put_escaped(sb, s->hier);
	strbuf_printf(sb, "\ntime %llu\n", (unsigned long long)s->realtime_us);
	put_node(s, sb);
}

/* " N" or " -" */
static char *
put_opt(char *p, bool has, uint64_t v)
{
	*p++ = ' ';
	if (!has)
		*p++ = '-';
	else
		p += numfmt_u64(p, v);
	return p;
}

/*
 * The fields after usage: nr_bursts and burst_ns, then the some and
 * full totals of cpu, memory and io pressure ("-": none).
 */
static char *
put_extra(char *p, const struct thr_sample *x)
{
	*p++ = ' ';
	if (x->has_burst)
		p += numfmt_i64(p, x->nr_bursts);
	else
		*p++ = '-';
	p = put_opt(p, x->has_burst, x->burst_ns);
	for (int k = 0; k < THR_PSI_NRES; k++) {
		p = put_opt(p, x->psi[k].has & THR_PSI_SOME, x->psi[k].some_us);
		p = put_opt(p, x->psi[k].has & THR_PSI_FULL, x->psi[k].full_us);
	}
	return p;
}

/* The node's pressure lines, "node RES SOME FULL", where known. */
static void
put_node(const struct thr_snap *s, struct strbuf *sb)
{
	for (int k = 0; k < THR_PSI_NRES; k++) {
		char line[4 * NUMFMT_MAX], *p = line;

		if (!s->node[k].has)
			continue;
		strbuf_printf(sb, "node %s", thr_psi_name[k]);
		p = put_opt(p, s->node[k].has & THR_PSI_SOME,
			    s->node[k].some_us);
		p = put_opt(p, s->node[k].has & THR_PSI_FULL,
			    s->node[k].full_us);
		*p++ = '\n';
		strbuf_add(sb, line, (size_t)(p - line));
	}
}

/* The lines of samples [from, to). */
static void
put_samples(const struct thr_snap *s, size_t from, size_t to,
	    struct strbuf *sb)
{
	for (size_t i = from; i < to; i++) {
		const struct thr_sample *x = &s->v[i];

		/* numfmt, not printf: a snapshot of 10,000 groups has
		 * 80,000 numbers */
		char line[17 * NUMFMT_MAX], *p = line;

		strbuf_puts(sb, "g ");
		put_escaped(sb, x->group);
		*p++ = ' ';
		p += numfmt_u64(p, x->ino);
		*p++ = ' ';
		p += numfmt_i64(p, x->quota_us);
		*p++ = ' ';
		p += numfmt_u64(p, x->period_us);
		*p++ = ' ';
		*p++ = x->has_bandwidth ? '1' : '0';
		*p++ = ' ';
		p += numfmt_i64(p, x->nr_periods);
		*p++ = ' ';
		p += numfmt_i64(p, x->nr_throttled);
		*p++ = ' ';
		p += numfmt_u64(p, x->throttled_ns);
		*p++ = ' ';
		if (x->has_usage)
			p += numfmt_u64(p, x->usage_ns);
		else
			*p++ = '-';
		p = put_extra(p, x);
		*p++ = '\n';
		strbuf_add(sb, line, (size_t)(p - line));
	}
}

void
thr_snap_format(const struct thr_snap *s, struct strbuf *sb)
{
	put_head(s, sb);
	put_samples(s, 0, s->n, sb);
	strbuf_printf(sb, "end %zu\n", s->n);
}

/* Write s to fd, SNAP_SLICE samples at a time through one buffer. */
static int
fill_snap(int fd, void *arg)
{
	const struct thr_snap *s = arg;
	struct strbuf sb;
	size_t i = 0;
	int r = 0;

	strbuf_init(&sb);
	put_head(s, &sb);
	do {
		size_t to = s->n - i > SNAP_SLICE ? i + SNAP_SLICE : s->n;

		put_samples(s, i, to, &sb);
		i = to;
		if (i == s->n)
			strbuf_printf(&sb, "end %zu\n", s->n);
		if (sb.oom) {
			r = -ENOMEM;
			break;
		}
		r = write_all(fd, sb.buf, sb.len);
		sb.len = 0;
	} while (r == 0 && i < s->n);
	strbuf_free(&sb);
	return r;
}

int
thr_snap_save(const char *path, const struct thr_snap *s)
{
	return write_file_atomic(path, NULL, 0, &(struct write_opts){
					.mode = 0644, .fill = fill_snap,
					.arg = (void *)s,
				 });
}

/*
 * Split line into at most max fields separated by runs of spaces (as
 * strtok_r would, without its per-call scans); returns the count, or
 * max + 1 when there are more.
 */
static size_t
split(char *line, char **f, size_t max)
{
	size_t n = 0;
	char *p = line;

	for (;;) {
		while (*p == ' ')
			p++;
		if (*p == '\0')
			return n;
		if (n == max)
			return max + 1;
		f[n++] = p;
		while (*p != ' ' && *p != '\0')
			p++;
		if (*p == ' ')
			*p++ = '\0';
	}
}

/* A snapshot's text, line by line. */
struct snap_parser {
	struct thr_snap *s;
	size_t lineno;
	size_t end;		/* the end line's count; -1: none yet */
	bool seen_version, seen_hier, seen_time;
	char *err;
	size_t errlen;
};

static void
parser_init(struct snap_parser *p, struct thr_snap *s, char *err,
	    size_t errlen)
{
	thr_snap_free(s);
	memset(p, 0, sizeof(*p));
	p->s = s;
	p->end = (size_t)-1;
	p->err = err;
	p->errlen = errlen;
}

/* "-" (has false) or a number up to max: 0 or -EINVAL. */
static int
parse_opt(const char *f, uint64_t max, bool *has, uint64_t *v)
{
	*has = strcmp(f, "-") != 0;
	*v = 0;
	return *has ? parse_u64(f, max, v) : 0;
}

/* Fields 10 to 17 of a group record (put_extra()): 0 or -EINVAL. */
static int
parse_extra(char **f, struct thr_sample *x)
{
	uint64_t v;
	bool has, has2;

	x->has_burst = strcmp(f[10], "-") != 0;
	if (x->has_burst &&
	    parse_i64(f[10], INT64_MIN, INT64_MAX, &x->nr_bursts) < 0)
		return -EINVAL;
	if (parse_opt(f[11], UINT64_MAX, &has, &x->burst_ns) < 0 ||
	    has != x->has_burst)
		return -EINVAL;
	for (int k = 0; k < THR_PSI_NRES; k++) {
		struct thr_psi *p = &x->psi[k];

		if (parse_opt(f[12 + 2 * k], UINT64_MAX, &has, &v) < 0)
			return -EINVAL;
		p->some_us = v;
		if (parse_opt(f[13 + 2 * k], UINT64_MAX, &has2, &v) < 0)
			return -EINVAL;
		p->full_us = v;
		p->has = (has ? THR_PSI_SOME : 0) | (has2 ? THR_PSI_FULL : 0);
	}
	return 0;
}

/* A node line's fields: 0, -EBADMSG. */
static int
parse_node(struct snap_parser *p, char **f)
{
	struct thr_psi *n = NULL;
	bool has, has2;

	for (int k = 0; k < THR_PSI_NRES; k++)
		if (strcmp(f[1], thr_psi_name[k]) == 0)
			n = &p->s->node[k];
	if (n == NULL || n->has ||
	    parse_opt(f[2], UINT64_MAX, &has, &n->some_us) < 0 ||
	    parse_opt(f[3], UINT64_MAX, &has2, &n->full_us) < 0 ||
	    !(has || has2)) {
		err_set(p->err, p->errlen, "line %zu: bad node record",
			p->lineno);
		return -EBADMSG;
	}
	n->has = (has ? THR_PSI_SOME : 0) | (has2 ? THR_PSI_FULL : 0);
	return 0;
}

/* A group record's ten fields (or eighteen, with bursts and pressure):
 * 0, -EBADMSG, -ENOMEM. */
static int
parse_group(struct snap_parser *p, char **f, size_t nf)
{
	struct thr_snap *s = p->s;
	struct thr_sample *x;
	uint64_t ino, period, bw, tns, use = 0;
	int64_t quota, np, nt;

	if (!unescape(f[1]) || cg_path_check(f[1], NULL, 0, NULL, 0) < 0 ||
	    parse_u64(f[2], UINT64_MAX, &ino) < 0 ||
	    parse_i64(f[3], -1, INT64_MAX, &quota) < 0 ||
	    parse_u64(f[4], UINT64_MAX, &period) < 0 ||
	    parse_u64(f[5], 1, &bw) < 0 ||
	    parse_i64(f[6], INT64_MIN, INT64_MAX, &np) < 0 ||
	    parse_i64(f[7], INT64_MIN, INT64_MAX, &nt) < 0 ||
	    parse_u64(f[8], UINT64_MAX, &tns) < 0 ||
	    (strcmp(f[9], "-") != 0 && parse_u64(f[9], UINT64_MAX, &use) < 0)) {
		err_set(p->err, p->errlen, "line %zu: bad group record",
			p->lineno);
		return -EBADMSG;
	}
	if (s->n > 0 && strcmp(s->v[s->n - 1].group, f[1]) >= 0) {
		err_set(p->err, p->errlen, "line %zu: groups out of order",
			p->lineno);
		return -EBADMSG;
	}
	x = thr_snap_add(s, f[1]);
	if (x == NULL)
		return -ENOMEM;
	x->ino = ino;
	x->quota_us = quota;
	x->has_limit = quota >= 0;
	x->period_us = period;
	x->has_bandwidth = bw == 1;
	x->nr_periods = np;
	x->nr_throttled = nt;
	x->throttled_ns = tns;
	x->has_usage = strcmp(f[9], "-") != 0;
	x->usage_ns = use;
	if (nf > 10 && parse_extra(f, x) < 0) {
		s->n--;
		err_set(p->err, p->errlen, "line %zu: bad group record",
			p->lineno);
		return -EBADMSG;
	}
	return 0;
}

/*
 * The next line (not empty: empty lines are passed over, len bytes,
 * no newline) into p->s, cut up in place.  0, -EBADMSG with the line
 * and reason in p->err, -ENOMEM.
 */
static int
parse_line(struct snap_parser *p, char *line, size_t len)
{
	struct thr_snap *s = p->s;
	char *f[20];
	size_t nf;

	p->lineno++;
	if (len >= SNAP_LINE_MAX) {
		err_set(p->err, p->errlen, "line %zu: too long", p->lineno);
		return -EBADMSG;
	}
	line[len] = '\0';
	if (p->end != (size_t)-1) {
		err_set(p->err, p->errlen, "line %zu: text after the end line",
			p->lineno);
		return -EBADMSG;
	}
	if (p->lineno == 1) {
		if (strcmp(line, SNAP_MAGIC) == 0)
			return 0;
		err_set(p->err, p->errlen, "not a cpm-throttle snapshot");
		return -EBADMSG;
	}
	nf = split(line, f, ARRAY_SIZE(f));
	if (nf == 0) {
		err_set(p->err, p->errlen, "line %zu: empty line", p->lineno);
		return -EBADMSG;
	}
	if (strcmp(f[0], "version") == 0 && nf == 2 && !p->seen_version) {
		int64_t v;

		if (parse_i64(f[1], 1, 2, &v) < 0) {
			err_set(p->err, p->errlen, "line %zu: bad version",
				p->lineno);
			return -EBADMSG;
		}
		s->version = (int)v;
		p->seen_version = true;
	} else if (strcmp(f[0], "hierarchy") == 0 && nf == 2 && !p->seen_hier) {
		if (!unescape(f[1]) || strlen(f[1]) >= sizeof(s->hier)) {
			err_set(p->err, p->errlen, "line %zu: bad hierarchy",
				p->lineno);
			return -EBADMSG;
		}
		strcpy(s->hier, f[1]);
		p->seen_hier = true;
	} else if (strcmp(f[0], "time") == 0 && nf == 2 && !p->seen_time) {
		if (parse_u64(f[1], UINT64_MAX, &s->realtime_us) < 0) {
			err_set(p->err, p->errlen, "line %zu: bad time",
				p->lineno);
			return -EBADMSG;
		}
		p->seen_time = true;
	} else if (strcmp(f[0], "g") == 0 && (nf == 10 || nf == 18)) {
		return parse_group(p, f, nf);
	} else if (strcmp(f[0], "node") == 0 && nf == 4 && p->s->n == 0) {
		return parse_node(p, f);
	} else if (strcmp(f[0], "end") == 0 && nf == 2) {
		uint64_t cnt;

		if (parse_u64(f[1], SIZE_MAX, &cnt) < 0 || cnt != s->n) {
			err_set(p->err, p->errlen,
				"line %zu: group count does not match",
				p->lineno);
			return -EBADMSG;
		}
		p->end = (size_t)cnt;
	} else {
		err_set(p->err, p->errlen, "line %zu: unexpected '%.40s'",
			p->lineno, f[0]);
		return -EBADMSG;
	}
	return 0;
}

/*
 * The complete lines at the start of buf[0, len) (a '\n' after each),
 * cut up in place; *used gets how many bytes they took.  0 or an error
 * of parse_line().
 */
static int
parse_lines(struct snap_parser *p, char *buf, size_t len, size_t *used)
{
	char *at = buf, *end = buf + len, *nl;
	int r = 0;

	while (r == 0 && (nl = memchr(at, '\n', (size_t)(end - at))) != NULL) {
		if (nl > at)
			r = parse_line(p, at, (size_t)(nl - at));
		at = nl + 1;
	}
	*used = (size_t)(at - buf);
	return r;
}

/* After the last line: 0, or -EBADMSG for a snapshot cut short. */
static int
parse_end(struct snap_parser *p)
{
	if (p->lineno == 0) {
		err_set(p->err, p->errlen, "empty file");
		return -EBADMSG;
	}
	if (!p->seen_version || !p->seen_hier || !p->seen_time ||
	    p->end == (size_t)-1) {
		err_set(p->err, p->errlen, "incomplete snapshot (truncated?)");
		return -EBADMSG;
	}
	return 0;
}

static int
not_complete(struct snap_parser *p)
{
	err_set(p->err, p->errlen, "not a complete snapshot file");
	return -EBADMSG;
}

int
thr_snap_parse(const char *text, struct thr_snap *s, char *err, size_t errlen)
{
	struct snap_parser p;
	size_t len = strlen(text), used;
	char *copy;
	int r;

	parser_init(&p, s, err, errlen);
	if (memchr(text, '\r', len) != NULL || (len > 0 && text[len - 1] != '\n'))
		return not_complete(&p);
	copy = malloc(len + 1);
	if (copy == NULL)
		return -ENOMEM;
	memcpy(copy, text, len + 1);
	r = parse_lines(&p, copy, len, &used);
	free(copy);
	if (r == 0)
		r = parse_end(&p);
	if (r < 0)
		thr_snap_free(s);
	return r;
}

/* Read from fd into buf: the count, 0 at the end, or -errno. */
static ssize_t
read_some(int fd, char *buf, size_t size)
{
	ssize_t n;

	do
		n = read(fd, buf, size);
	while (n < 0 && errno == EINTR);
	return n < 0 ? -errno : n;
}

static int
load_fd(struct snap_parser *p, int fd, char *buf)
{
	size_t have = 0, total = 0;

	for (;;) {
		ssize_t n = read_some(fd, buf + have, SNAP_CHUNK - have);
		size_t used;
		int r;

		if (n < 0)
			return (int)n;
		if (n == 0)
			return have > 0 ? not_complete(p) : parse_end(p);
		total += (size_t)n;
		if (total > THR_SNAP_MAX)
			return -EFBIG;
		if (memchr(buf + have, '\0', (size_t)n) != NULL)
			return -EILSEQ;
		if (memchr(buf + have, '\r', (size_t)n) != NULL)
			return not_complete(p);
		have += (size_t)n;
		r = parse_lines(p, buf, have, &used);
		if (r < 0)
			return r;
		have -= used;
		memmove(buf, buf + used, have);
		/* A line that does not end within a chunk is too long. */
		if (have == SNAP_CHUNK)
			return parse_line(p, buf, have);
	}
}

int
thr_snap_load(const char *path, struct thr_snap *s, char *err, size_t errlen)
{
	struct snap_parser p;
	char *buf;
	int fd, r;

	parser_init(&p, s, err, errlen);
	fd = open_regular_at(AT_FDCWD, path, NULL, 0);
	if (fd < 0)
		return fd;
	buf = malloc(SNAP_CHUNK);
	r = buf ? load_fd(&p, fd, buf) : -ENOMEM;
	free(buf);
	close(fd);
	if (r < 0)
		thr_snap_free(s);
	return r;
}
