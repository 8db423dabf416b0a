// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The cpm-alloc state store.  See state.h for the file format and the
 * terms.  The file is small and rewritten whole on every change: a
 * checksum over the body detects truncation and damage, the fingerprint
 * detects a file carried over to another machine, and an exclusive lock
 * on a separate lock file serialises writers.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "alloc/state.h"
#include "base/arena.h"
#include "base/err.h"
#include "base/fileread.h"
#include "base/filewrite.h"
#include "base/lock.h"
#include "base/num.h"
#include "base/strbuf.h"
#include "base/strutils.h"
#include "base/xxh64.h"
#include "kube/topomgr.h"

/* The words of the entries' CPU sets as read: 4,096 words a block. */
#define STATE_WORDS_BLOCK (4096 * sizeof(uint64_t))

void
state_init(struct alloc_state *st)
{
	memset(st, 0, sizeof(*st));
	st->words.block_size = STATE_WORDS_BLOCK;
}

int
alloc_entry_own_cpus(struct alloc_entry *e)
{
	struct cpuset own = CPUSET_INIT;

	if (!e->cpus_kept)
		return 0;
	if (cpuset_copy(&own, &e->cpus) < 0)
		return -ENOMEM;
	e->cpus = own;
	e->cpus_kept = false;
	return 0;
}

void
alloc_entry_free(struct alloc_entry *e)
{
	if (!e->name_kept)
		free(e->name);
	if (!e->cpus_kept)
		cpuset_free(&e->cpus);
	free(e->owner);
	free(e->owner_dir);
	free(e->mem);
	free(e->huge);
	free(e->near);
	free(e->mempol);
	free(e->cname);
	memset(e, 0, sizeof(*e));
}

void
topo_print_free(struct topo_print *tp)
{
	cpuset_free(&tp->possible);
	cpuset_free(&tp->online);
	cpuset_free(&tp->nodes);
	memset(tp, 0, sizeof(*tp));
}

void
state_free(struct alloc_state *st)
{
	int i;

	for (i = 0; i < st->nentries; i++)
		alloc_entry_free(&st->entries[i]);
	free(st->entries);
	topo_print_free(&st->print);
	cpuset_free(&st->reserved);
	free(st->resmem);
	if (st->layout_own)
		free((char *)st->layout_text);
	statetopo_free(&st->layout);
	held_file_free_buf(&st->held, st->raw);
	held_file_close(&st->held);
	free(st->text);
	free(st->sums);
	free(st->names);
	arena_free(&st->words);
	cpuset_free(&st->left_cpus);
	cpuset_free(&st->left_excl);
	free(st->holes);
	free(st->wants);
	memset(st, 0, sizeof(*st));
}

/* Fingerprint */

int
topo_print_make_layout(struct topo_print *tp, const struct topo *t,
		       const struct statetopo *lay)
{
	int i;

	memset(tp, 0, sizeof(*tp));
	if (cpuset_copy(&tp->possible, &t->possible) < 0 ||
	    cpuset_copy(&tp->online, &t->online) < 0)
		goto oom;
	for (i = 0; i < t->nnodes; i++)
		if (cpuset_set(&tp->nodes, (unsigned int)t->nodes[i].id) < 0)
			goto oom;
	/* The hash goes over every online CPU: kept in the layout, it is
	 * not computed again for the CPUs it was computed for. */
	if (lay && lay->have_print && cpuset_equal(&lay->t.online, &t->online)) {
		tp->hash = lay->hash;
		tp->cores = lay->cores;
	} else {
		tp->hash = statetopo_print_hash(t, &tp->cores);
	}
	tp->sockets = t->nsockets;
	tp->threads = t->threads_per_core;
	return 0;
oom:
	topo_print_free(tp);
	return -ENOMEM;
}

int
topo_print_make(struct topo_print *tp, const struct topo *t)
{
	return topo_print_make_layout(tp, t, NULL);
}

static void
describe_diff(struct strbuf *sb, const char *what, const struct cpuset *was,
	      const struct cpuset *now)
{
	struct cpuset gone = CPUSET_INIT, added = CPUSET_INIT;

	cpuset_copy(&gone, was);
	cpuset_andnot(&gone, now);
	cpuset_copy(&added, now);
	cpuset_andnot(&added, was);
	strbuf_printf(sb, "%s CPUs were ", what);
	cpuset_format(was, sb);
	strbuf_puts(sb, ", now ");
	cpuset_format(now, sb);
	if (!cpuset_empty(&gone)) {
		strbuf_puts(sb, "; missing ");
		cpuset_format(&gone, sb);
	}
	if (!cpuset_empty(&added)) {
		strbuf_puts(sb, "; new ");
		cpuset_format(&added, sb);
	}
	cpuset_free(&gone);
	cpuset_free(&added);
}

enum topo_match
state_topo_match(const struct alloc_state *st, const struct topo_print *now,
		 char *err, size_t errlen)
{
	const struct topo_print *was = &st->print;
	struct strbuf sb;
	enum topo_match m;

	if (errlen)
		err[0] = '\0';
	if (!st->have_print)
		return TOPO_SAME;
	strbuf_init(&sb);
	if (!cpuset_equal(&was->possible, &now->possible)) {
		describe_diff(&sb, "possible", &was->possible, &now->possible);
		m = TOPO_RESIZED;
	} else if (!cpuset_equal(&was->nodes, &now->nodes)) {
		strbuf_puts(&sb, "NUMA nodes were ");
		cpuset_format(&was->nodes, &sb);
		strbuf_puts(&sb, ", now ");
		cpuset_format(&now->nodes, &sb);
		m = TOPO_FOREIGN;
	} else if (!cpuset_equal(&was->online, &now->online)) {
		describe_diff(&sb, "online", &was->online, &now->online);
		m = TOPO_ONLINE_CHANGED;
	} else if (was->hash != now->hash) {
		strbuf_printf(&sb, "the CPUs' NUMA node, socket or core "
			      "layout differs (was %d sockets, %d cores, "
			      "%d threads per core; now %d, %d, %d)",
			      was->sockets, was->cores, was->threads,
			      now->sockets, now->cores, now->threads);
		m = TOPO_FOREIGN;
	} else {
		m = TOPO_SAME;
	}
	if (errlen && sb.buf)
		snprintf(err, errlen, "%s", sb.buf);
	strbuf_free(&sb);
	return m;
}

/* The bytes of an entry name: [A-Za-z0-9._:/@-]. */
static const bool name_byte[256] = {
	['-'] = true, ['.'] = true, ['/'] = true, ['0' ... '9'] = true,
	[':'] = true, ['@'] = true, ['A' ... 'Z'] = true, ['_'] = true,
	['a' ... 'z'] = true,
};

/* The length of name when it is a valid entry name, else 0. */
static size_t
name_len(const char *name)
{
	const char *p = name;

	while (name_byte[(unsigned char)*p])
		p++;
	if (*p || p == name || p - name > STATE_NAME_MAX)
		return 0;
	return (size_t)(p - name);
}

bool
state_name_valid(const char *name)
{
	return name_len(name) != 0;
}

/* Options */

void
alloc_opts_format(const struct alloc_opts *o, struct strbuf *sb)
{
	size_t start = sb->len;

#define SEP() do { if (sb->len > start) strbuf_add(sb, ",", 1); } while (0)
	if (o->k.full_cores) {
		SEP();
		strbuf_puts(sb, "full-cores");
	}
	if (o->k.spread_cores) {
		SEP();
		strbuf_puts(sb, "spread-cores");
	}
	if (o->k.prefer_l3) {
		SEP();
		strbuf_puts(sb, "prefer-l3");
	}
	if (o->k.align_socket) {
		SEP();
		strbuf_puts(sb, "align-socket");
	}
	if (o->distribute_auto) {
		SEP();
		strbuf_puts(sb, "distribute");
	} else if (o->k.distribute) {
		SEP();
		strbuf_printf(sb, "distribute=%d", o->k.distribute);
	}
	if (o->closest) {
		SEP();
		strbuf_puts(sb, "closest-numa");
	}
	if (o->numa_policy) {
		SEP();
		strbuf_printf(sb, "numa-policy=%s",
			      tm_policy_name(o->numa_policy));
	}
#undef SEP
}

int
alloc_opts_parse(const char *s, struct alloc_opts *o)
{
	char buf[256], *tok, *save = NULL;
	unsigned int g;

	memset(o, 0, sizeof(*o));
	if (strlen(s) >= sizeof(buf))
		return -EINVAL;
	strcpy(buf, s);
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (strcmp(tok, "full-cores") == 0)
			o->k.full_cores = true;
		else if (strcmp(tok, "spread-cores") == 0)
			o->k.spread_cores = true;
		else if (strcmp(tok, "prefer-l3") == 0)
			o->k.prefer_l3 = true;
		else if (strcmp(tok, "align-socket") == 0)
			o->k.align_socket = true;
		else if (strcmp(tok, "closest-numa") == 0)
			o->closest = true;
		else if (strcmp(tok, "distribute") == 0)
			o->distribute_auto = true;
		else if (startswith(tok, "distribute=")) {
			if (parse_uint(tok + 11, 1024, &g) < 0 || g == 0)
				return -EINVAL;
			o->k.distribute = (int)g;
		} else if (startswith(tok, "numa-policy=")) {
			if (tm_policy_parse(tok + 12, &o->numa_policy) < 0)
				return -EINVAL;
		} else {
			return -EINVAL;
		}
	}
	return 0;
}

void
alloc_opts_merge(struct alloc_opts *o, const struct alloc_opts *p)
{
	o->k.full_cores |= p->k.full_cores;
	o->k.spread_cores |= p->k.spread_cores;
	o->k.prefer_l3 |= p->k.prefer_l3;
	o->k.align_socket |= p->k.align_socket;
	if (!o->k.distribute && !o->distribute_auto) {
		o->k.distribute = p->k.distribute;
		o->distribute_auto = p->distribute_auto;
	}
	o->closest |= p->closest;
	if (!o->numa_policy)
		o->numa_policy = p->numa_policy;
}

/* Formatting */

static void
add_kv_list(struct strbuf *sb, const char *key, const struct cpuset *s)
{
	strbuf_puts(sb, " ");
	strbuf_puts(sb, key);
	strbuf_puts(sb, "=");
	cpuset_format(s, sb);
}

/*
 * A digest of everything format_entry() writes of e but its name (so two
 * entries it writes alike digest alike): a change to any of it shows as
 * another digest, but for a 2^-64 chance.  The name is compared with the
 * line itself.
 */
static inline uint64_t
mix(uint64_t h, uint64_t v)
{
	h = (h ^ v) * 0x9e3779b97f4a7c15ULL;
	return h ^ (h >> 29);
}

static uint64_t
mix_str(uint64_t h, const char *s)
{
	uint64_t w = 0;
	size_t n;

	if (!s)
		return mix(h, ~0ULL);
	/* Short strings: no strlen(), no memcpy() calls. */
	for (n = 0; s[n]; n++) {
		w = w << 8 | (unsigned char)s[n];
		if ((n & 7) == 7) {
			h = mix(h, w);
			w = 0;
		}
	}
	return mix(mix(h, w), n);
}

static uint64_t
entry_digest(const struct alloc_entry *e)
{
	const struct alloc_opts *o = &e->opts;
	const uint64_t *b = e->cpus.bits;
	unsigned int i, j, n = e->cpus.nwords;
	uint64_t h = 0;
	int k;

	h = mix(h, (uint64_t)(unsigned int)e->n |
		(uint64_t)(unsigned int)o->k.distribute << 32);
	h = mix(h, (uint64_t)e->mode | (uint64_t)o->k.full_cores << 1 |
		(uint64_t)o->k.spread_cores << 2 | (uint64_t)o->k.prefer_l3 << 3 |
		(uint64_t)o->k.align_socket << 4 |
		(uint64_t)o->distribute_auto << 5 | (uint64_t)o->closest << 6 |
		(uint64_t)(unsigned int)o->numa_policy << 32);
	/* Most entries have no owner and no memory: two tests, no hash. */
	if (e->owner || e->owner_start || e->owner_dir || e->nmem ||
	    e->nhuge) {
		h = mix_str(h, e->owner);
		h = mix(h, e->owner_start);
		h = mix_str(h, e->owner_dir);
		h = mix(h, (uint64_t)(unsigned int)e->nmem);
		for (k = 0; k < e->nmem; k++)
			h = mix(mix(h, (uint64_t)(unsigned int)e->mem[k].node),
				e->mem[k].bytes);
		h = mix(h, (uint64_t)(unsigned int)e->nhuge);
		for (k = 0; k < e->nhuge; k++)
			h = mix(mix(h, (uint64_t)e->huge[k].kb << 32 |
				    (unsigned int)e->huge[k].node),
				e->huge[k].bytes);
	}
	if (e->near)
		h = mix_str(h, e->near);
	if (e->hook)
		h = mix(h, (uint64_t)(unsigned int)e->hook_pid | 1ull << 32);
	if (e->mempol)
		h = mix_str(mix(h, 1), e->mempol);
	if (e->cname)
		h = mix_str(mix(h, 2), e->cname);
	/*
	 * The set, not its storage: only the words that hold CPUs, passed
	 * over four at a time (an entry of a large machine has dozens of
	 * words, nearly all empty).
	 */
	for (i = 0; i + 4 <= n; i += 4)
		if (b[i] | b[i + 1] | b[i + 2] | b[i + 3])
			for (j = i; j < i + 4; j++)
				if (b[j])
					h = mix(mix(h, j), b[j]);
	for (; i < n; i++)
		if (b[i])
			h = mix(mix(h, i), b[i]);
	return h;
}

/* e as its "entry" line. */
static void
format_entry(const struct alloc_entry *e, struct strbuf *sb)
{
	size_t mark;
	int k;

	/* Thousands of entries: no printf on the common fields. */
	strbuf_puts(sb, "entry ");
	strbuf_puts(sb, e->name);
	strbuf_puts(sb, " n=");
	strbuf_putint(sb, e->n);
	add_kv_list(sb, "cpus", &e->cpus);
	strbuf_puts(sb, e->mode == ALLOC_SHARE ? " mode=share" :
		    " mode=exclusive");
	if (e->owner) {
		strbuf_puts(sb, " owner=");
		str_escape(sb, e->owner);
	}
	if (e->owner_start && e->owner_start <= (uint64_t)LLONG_MAX) {
		strbuf_puts(sb, " start=");
		strbuf_putint(sb, (long long)e->owner_start);
	} else if (e->owner_start) {
		strbuf_printf(sb, " start=%llu",
			      (unsigned long long)e->owner_start);
	}
	if (e->owner_dir) {
		strbuf_puts(sb, " cgdir=");
		str_escape(sb, e->owner_dir);
	}
	if (e->nmem) {
		strbuf_puts(sb, " mem=");
		for (k = 0; k < e->nmem; k++)
			strbuf_printf(sb, "%s%d:%llu", k ? "," : "",
				      e->mem[k].node,
				      (unsigned long long)e->mem[k].bytes);
	}
	if (e->nhuge) {
		strbuf_puts(sb, " hugepages=");
		for (k = 0; k < e->nhuge; k++)
			strbuf_printf(sb, "%s%u:%d:%llu", k ? "," : "",
				      e->huge[k].kb, e->huge[k].node,
				      (unsigned long long)e->huge[k].bytes);
	}
	mark = sb->len;
	strbuf_puts(sb, " opts=");
	alloc_opts_format(&e->opts, sb);
	if (sb->len == mark + 6)
		sb->len = mark;	/* no options: drop " opts=" */
	if (e->near) {
		strbuf_puts(sb, " near=");
		str_escape(sb, e->near);
	}
	if (e->hook) {
		strbuf_puts(sb, " hook=");
		strbuf_putint(sb, e->hook_pid);
	}
	if (e->mempol) {
		strbuf_puts(sb, " mempol=");
		str_escape(sb, e->mempol);
	}
	if (e->cname) {
		strbuf_puts(sb, " cname=");
		str_escape(sb, e->cname);
	}
	strbuf_puts(sb, "\n");
}

/*
 * The line e was read from, when it is in st's text and e still holds
 * what it said; else NULL.
 */
static const char *
entry_line(const struct alloc_state *st, const struct alloc_entry *e)
{
	uintptr_t line = (uintptr_t)e->src.line, body, end;
	unsigned int k;

	if (!line || !st->raw)
		return NULL;
	body = (uintptr_t)st->raw + st->body;
	end = (uintptr_t)st->raw + st->rawlen;
	if (line < body || line >= end || e->src.len > end - line ||
	    e->src.len < 7 + (size_t)e->src.name_len)
		return NULL;
	/* "entry NAME ": the name as it is now. */
	for (k = 0; k < e->src.name_len; k++)
		if (e->name[k] != e->src.line[6 + k])
			return NULL;
	if (e->name[k] || entry_digest(e) != e->src.digest)
		return NULL;
	return e->src.line;
}

/* How many bytes a and b have in common from the start. */
static size_t
common_prefix(const char *a, size_t alen, const char *b, size_t blen)
{
	size_t n = alen < blen ? alen : blen, i = 0;

	while (i + 256 <= n && memcmp(a + i, b + i, 256) == 0)
		i += 256;
	while (i < n && a[i] == b[i])
		i++;
	return i;
}

/*
 * XXH64 of the body b: resumed from the lanes of the body read at the
 * last stride boundary the two bodies share, not from the start.
 */
static uint64_t
body_sum(const struct alloc_state *st, const char *b, size_t len)
{
	struct xxh64_lanes l;
	size_t k = 0, done;

	xxh64_start(&l, 0);
	if (st->raw && st->nsums) {
		k = common_prefix(b, len, st->raw + st->body,
				  st->rawlen - st->body) / STATE_SUM_STRIDE;
		if (k >= st->nsums)
			k = st->nsums - 1;
		l = st->sums[k];
		k *= STATE_SUM_STRIDE;
	}
	done = k + xxh64_stripes(&l, b + k, len - k);
	return xxh64_end(&l, 0, len, b + done, len - done);
}

/*
 * Where the text of a state goes as it is made: into a strbuf, whole
 * (fd < 0), or into a file, its body from offset STATE_HEAD_LEN on, a
 * piece at a time: what is formatted gathers in sb and is written once
 * it fills STATE_FLUSH bytes, and a run of lines as read (of 4 KB or
 * more) is written straight from the text read, not copied (a state of
 * 1,000 entries is some 40 KB, ten pages a copy would touch first).
 * Written, the body is hashed as it goes: not at all while it is the
 * body read, byte for byte (whose hash is known at every
 * STATE_SUM_STRIDE bytes), then from the last stride boundary before it
 * parts from it, as body_sum() does.
 */
#define STATE_HEAD "cpm-alloc-state 3\nchecksum xxh64:"
#define STATE_HEAD_LEN (sizeof(STATE_HEAD) - 1 + 17)
#define STATE_FLUSH (16u << 10)

struct sink {
	const struct alloc_state *st;
	struct strbuf *sb;
	int fd;			/* -1: the text stays in sb */
	int err;		/* the first write's error */
	size_t pos;		/* body bytes passed */
	bool same;		/* so far the body read, byte for byte */
	struct xxh64_lanes l;
	unsigned char carry[XXH64_STRIPE];
	size_t ncarry;
};

/* Feed n bytes to the hash, whole stripes at once. */
static void
sink_feed(struct sink *o, const char *p, size_t n)
{
	size_t done;

	if (o->ncarry) {
		size_t take = XXH64_STRIPE - o->ncarry;

		if (take > n)
			take = n;
		memcpy(o->carry + o->ncarry, p, take);
		o->ncarry += take;
		p += take;
		n -= take;
		if (o->ncarry < XXH64_STRIPE)
			return;
		xxh64_stripes(&o->l, o->carry, XXH64_STRIPE);
		o->ncarry = 0;
	}
	done = xxh64_stripes(&o->l, p, n);
	memcpy(o->carry, p + done, n - done);
	o->ncarry = n - done;
}

/* The body parts from the body read at d: the hash resumes there. */
static void
sink_part(struct sink *o, size_t d)
{
	const struct alloc_state *st = o->st;
	size_t k = d / STATE_SUM_STRIDE;

	if (k >= st->nsums)
		k = st->nsums - 1;
	o->l = st->sums[k];
	o->ncarry = 0;
	o->same = false;
	sink_feed(o, st->raw + st->body + k * STATE_SUM_STRIDE,
		  d - k * STATE_SUM_STRIDE);
}

/* n more bytes of the body, p, into the hash. */
static void
sink_hash(struct sink *o, const char *p, size_t n)
{
	if (o->same) {
		const struct alloc_state *st = o->st;
		size_t rlen = st->rawlen - st->body;
		size_t c = common_prefix(p, n, st->raw + st->body + o->pos,
					 o->pos < rlen ? rlen - o->pos : 0);

		if (c == n) {
			o->pos += n;
			return;
		}
		sink_part(o, o->pos + c);
		o->pos += c;
		p += c;
		n -= c;
	}
	sink_feed(o, p, n);
	o->pos += n;
}

static void
sink_write(struct sink *o, const char *p, size_t n)
{
	sink_hash(o, p, n);
	if (o->err == 0)
		o->err = write_all(o->fd, p, n);
}

static void
sink_flush(struct sink *o)
{
	if (o->fd < 0 || o->sb->oom)
		return;
	sink_write(o, o->sb->buf, o->sb->len);
	o->sb->len = 0;
}

/* After text was put in o->sb. */
static void
sink_text(struct sink *o)
{
	if (o->fd >= 0 && o->sb->len >= STATE_FLUSH)
		sink_flush(o);
}

/* n bytes at p, which stay as they are until the text is done. */
static void
sink_ref(struct sink *o, const char *p, size_t n)
{
	if (o->fd < 0 || n < 4096) {
		strbuf_add(o->sb, p, n);
		sink_text(o);
		return;
	}
	sink_flush(o);
	if (!o->sb->oom)
		sink_write(o, p, n);
}

/* Entry e: its line as read when it still says what e holds, or afresh. */
static void
put_entry(const struct alloc_state *st, const struct alloc_entry *e,
	  struct sink *o)
{
	const char *line = entry_line(st, e);

	if (line)
		sink_ref(o, line, e->src.len);
	else
		format_entry(e, o->sb);
	sink_text(o);
}

/*
 * The entries of a state read for some names, in the order read: the
 * lines left between the holes as they are, each entry read in its hole
 * (none once removed), then the entries added since.  entries[] keeps
 * that order: those read come first, in their holes' order
 * (state_remove() closes up, state_add() appends).
 */
static void
format_named(const struct alloc_state *st, struct sink *o)
{
	const char *b = st->raw + st->body;
	size_t cur = st->entries_at, end = st->rawlen - st->body;
	int i = 0, k;

	for (k = 0; k < st->nholes; k++) {
		sink_ref(o, b + cur, st->holes[k].at - cur);
		if (i < st->nentries &&
		    st->entries[i].src.at == (unsigned int)k + 1)
			put_entry(st, &st->entries[i++], o);
		cur = st->holes[k].at + st->holes[k].len;
	}
	sink_ref(o, b + cur, end - cur);
	for (; i < st->nentries; i++)
		put_entry(st, &st->entries[i], o);
}

/*
 * The entries of a state read whole: those as read go back as their
 * lines, a run of neighbours in one copy; the others are written afresh.
 */
static void
format_whole(const struct alloc_state *st, struct sink *o)
{
	const char *run = NULL;
	size_t runlen = 0;
	int i;

	for (i = 0; i < st->nentries; i++) {
		const struct alloc_entry *e = &st->entries[i];
		const char *line = entry_line(st, e);

		if (line && run && run + runlen == line) {
			runlen += e->src.len;
			continue;
		}
		if (run)
			sink_ref(o, run, runlen);
		run = line;
		runlen = line ? e->src.len : 0;
		if (!line) {
			format_entry(e, o->sb);
			sink_text(o);
		}
	}
	if (run)
		sink_ref(o, run, runlen);
}

/* All that follows the checksum line. */
static void
format_body(const struct alloc_state *st, struct sink *o)
{
	const struct topo_print *tp = &st->print;
	struct strbuf *out = o->sb;
	size_t mark;

	strbuf_puts(out, "topology");
	add_kv_list(out, "possible", &tp->possible);
	add_kv_list(out, "online", &tp->online);
	add_kv_list(out, "nodes", &tp->nodes);
	strbuf_printf(out, " sockets=%d cores=%d threads=%d hash=%016llx\n",
		      tp->sockets, tp->cores, tp->threads,
		      (unsigned long long)tp->hash);
	if (st->layout_text) {
		strbuf_puts(out, "layout ");
		sink_ref(o, st->layout_text, st->layout_len);
		strbuf_puts(out, "\n");
	}
	strbuf_puts(out, "reserved ");
	cpuset_format(&st->reserved, out);
	strbuf_printf(out, "\nstrict %s\npolicy ", st->strict ? "yes" : "no");
	mark = out->len;
	alloc_opts_format(&st->policy, out);
	if (out->len == mark)
		strbuf_puts(out, "-");
	strbuf_puts(out, "\n");
	if (st->nresmem) {
		int k;

		strbuf_puts(out, "reserved-memory ");
		for (k = 0; k < st->nresmem; k++)
			strbuf_printf(out, "%s%d:%u:%llu", k ? "," : "",
				      st->resmem[k].node, st->resmem[k].kb,
				      (unsigned long long)st->resmem[k].bytes);
		strbuf_puts(out, "\n");
	}
	sink_text(o);
	if (st->nwant && st->raw)
		format_named(st, o);
	else
		format_whole(st, o);
}

static void
put_sum(char *at, uint64_t sum)
{
	static const char hex[] = "0123456789abcdef";
	int i;

	for (i = 15; i >= 0; i--, sum >>= 4)
		at[i] = hex[sum & 15];
}

void
state_format(const struct alloc_state *st, struct strbuf *out)
{
	struct sink o = { .st = st, .sb = out, .fd = -1 };
	size_t sum_at, body;

	/* About the size read, at once, rather than by doubling. */
	if (!strbuf_reserve(out, st->rawlen + 256))
		return;
	/* The header, with the checksum filled in once the body is out. */
	strbuf_puts(out, STATE_HEAD);
	sum_at = out->len;
	strbuf_puts(out, "0000000000000000\n");
	body = out->len;
	format_body(st, &o);
	if (out->oom)
		return;
	put_sum(out->buf + sum_at, body_sum(st, out->buf + body,
					    out->len - body));
}

/* state_format() into the file fd: its body, then its header. */
static int
fill_state(int fd, void *arg)
{
	const struct alloc_state *st = arg;
	struct strbuf sb;
	struct sink o = { .st = st, .sb = &sb, .fd = fd };
	char head[STATE_HEAD_LEN + 1];
	uint64_t sum;
	int r;

	/* The body after the header's room; the header, checksummed, last. */
	if (lseek(fd, STATE_HEAD_LEN, SEEK_SET) < 0)
		return -errno;
	strbuf_init(&sb);
	o.same = st->raw && st->nsums;
	if (!o.same)
		xxh64_start(&o.l, 0);
	format_body(st, &o);
	sink_flush(&o);
	r = sb.oom ? -ENOMEM : o.err;
	strbuf_free(&sb);
	/* What was copied of the file read is still the file's. */
	if (r == 0 && st->held.map && (r = held_file_intact(&st->held)) == 0)
		r = -ESTALE;
	if (r < 0)
		return r;
	if (o.same)
		sink_part(&o, o.pos);
	sum = xxh64_end(&o.l, 0, o.pos, o.carry, o.ncarry);
	memcpy(head, STATE_HEAD, sizeof(STATE_HEAD) - 1);
	put_sum(head + sizeof(STATE_HEAD) - 1, sum);
	head[STATE_HEAD_LEN - 1] = '\n';
	if (lseek(fd, 0, SEEK_SET) < 0)
		return -errno;
	return write_all(fd, head, STATE_HEAD_LEN);
}

/* The shortest entry line, "entry N n=0 cpus= mode=share\n". */
#define STATE_ENTRY_MIN 29

/* Room for one more entry in st: 0 or -ENOMEM. */
static int
grow_entries(struct alloc_state *st)
{
	int cap = st->cap ? st->cap * 2 : 16;
	struct alloc_entry *n = realloc(st->entries, (size_t)cap * sizeof(*n));

	if (!n)
		return -ENOMEM;
	st->entries = n;
	st->cap = cap;
	return 0;
}

/* Parsing */

struct parser {
	char *err;
	size_t errlen;
	int line;
	bool pct;		/* the body holds a '%' (an escape) */
};

static int
bad(struct parser *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* The file read was cut or written in place while it was read (by
 * something other than cpm, which replaces it): -ESTALE. */
static int
changed(const char *path, char *err, size_t errlen)
{
	snprintf(err, errlen, "state '%s' was changed in place while it was "
		 "read (not replaced, as cpm replaces it): run the command "
		 "again", path);
	return -ESTALE;
}

static int
bad(struct parser *p, const char *fmt, ...)
{
	char msg[200];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (p->errlen)
		snprintf(p->err, p->errlen, "line %d: %s", p->line, msg);
	return -EBADMSG;
}

static int
parse_list(struct parser *p, const char *what, const char *text,
	   struct cpuset *s)
{
	char e[160];
	int r = cpuset_parse_list(text, s, e, sizeof(e));

	if (r == -ENOMEM)
		return r;
	if (r < 0)
		return bad(p, "bad %s list: %s", what, e);
	return 0;
}

static int
parse_int_field(struct parser *p, const char *key, const char *v, int max,
		int *out)
{
	unsigned int u;

	if (parse_uint(v, (unsigned int)max, &u) < 0)
		return bad(p, "bad %s '%s'", key, v);
	*out = (int)u;
	return 0;
}

static int
parse_topology(struct parser *p, char *rest, struct topo_print *tp)
{
	char *tok, *save = NULL;
	unsigned int seen = 0;
	int r;

	for (tok = strtok_r(rest, " ", &save); tok;
	     tok = strtok_r(NULL, " ", &save)) {
		char *v = strchr(tok, '=');

		if (!v)
			return bad(p, "bad topology field '%s'", tok);
		*v++ = '\0';
		if (strcmp(tok, "possible") == 0) {
			r = parse_list(p, tok, v, &tp->possible);
			seen |= 1;
		} else if (strcmp(tok, "online") == 0) {
			r = parse_list(p, tok, v, &tp->online);
			seen |= 2;
		} else if (strcmp(tok, "nodes") == 0) {
			r = parse_list(p, tok, v, &tp->nodes);
			seen |= 4;
		} else if (strcmp(tok, "sockets") == 0) {
			r = parse_int_field(p, tok, v, INT_MAX, &tp->sockets);
		} else if (strcmp(tok, "cores") == 0) {
			r = parse_int_field(p, tok, v, INT_MAX, &tp->cores);
		} else if (strcmp(tok, "threads") == 0) {
			r = parse_int_field(p, tok, v, INT_MAX, &tp->threads);
		} else if (strcmp(tok, "hash") == 0) {
			char *end;

			if (strlen(v) != 16 || !isxdigit((unsigned char)*v))
				return bad(p, "bad topology hash");
			tp->hash = strtoull(v, &end, 16);
			if (*end)
				return bad(p, "bad topology hash");
			r = 0;
			seen |= 8;
		} else {
			return bad(p, "unknown topology field '%s'", tok);
		}
		if (r < 0)
			return r;
	}
	if (seen != 15)
		return bad(p, "incomplete topology record");
	return 0;
}

static int
parse_mem(struct parser *p, char *v, struct alloc_entry *e)
{
	char *tok, *save = NULL;

	for (tok = strtok_r(v, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		char *colon = strchr(tok, ':');
		unsigned int node;
		uint64_t bytes;
		struct mem_booking *m;

		if (!colon)
			return bad(p, "bad memory booking '%s'", tok);
		*colon = '\0';
		if (parse_uint(tok, CPUSET_MAX_CPUS - 1, &node) < 0 ||
		    parse_u64(colon + 1, UINT64_MAX, &bytes) < 0 ||
		    (e->nmem && e->mem[e->nmem - 1].node >= (int)node))
			return bad(p, "bad memory booking '%s'", tok);
		m = realloc(e->mem, (size_t)(e->nmem + 1) * sizeof(*m));
		if (!m)
			return -ENOMEM;
		e->mem = m;
		m[e->nmem].node = (int)node;
		m[e->nmem].bytes = bytes;
		e->nmem++;
	}
	return 0;
}

/*
 * "A:B:C" (two numbers up to amax and bmax, then a 64-bit one), as the
 * reserved-memory record and the hugepages= field hold them.  tok is
 * left as it was.  Returns 0, or -EINVAL.
 */
static int
parse_triple(char *tok, unsigned int amax, unsigned int *a,
	     unsigned int bmax, unsigned int *b, uint64_t *c)
{
	char *c1 = strchr(tok, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
	int r;

	if (!c2)
		return -EINVAL;
	*c1 = *c2 = '\0';
	r = parse_uint(tok, amax, a) < 0 || parse_uint(c1 + 1, bmax, b) < 0 ||
	    parse_u64(c2 + 1, UINT64_MAX, c) < 0 ? -EINVAL : 0;
	*c1 = *c2 = ':';
	return r;
}

/* reserved-memory NODE:KB:BYTES,...: by node, then kb. */
static int
parse_resmem(struct parser *p, char *v, struct alloc_state *st)
{
	char *tok, *save = NULL;

	for (tok = strtok_r(v, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		const struct mem_reserve *l = st->nresmem ?
			&st->resmem[st->nresmem - 1] : NULL;
		unsigned int kb, node;
		uint64_t bytes;
		struct mem_reserve *m;

		if (parse_triple(tok, CPUSET_MAX_CPUS - 1, &node, UINT_MAX, &kb,
				 &bytes) < 0 ||
		    (l && (l->node > (int)node || (l->node == (int)node &&
						   l->kb >= kb))))
			return bad(p, "bad reserved memory '%s'", tok);
		m = realloc(st->resmem, (size_t)(st->nresmem + 1) *
			    sizeof(*m));
		if (!m)
			return -ENOMEM;
		st->resmem = m;
		m[st->nresmem].node = (int)node;
		m[st->nresmem].kb = kb;
		m[st->nresmem].bytes = bytes;
		st->nresmem++;
	}
	return st->nresmem ? 0 : bad(p, "bad reserved memory ''");
}

/* hugepages=KB:NODE:BYTES,...: sorted by size, then node. */
static int
parse_huge(struct parser *p, char *v, struct alloc_entry *e)
{
	char *tok, *save = NULL;

	for (tok = strtok_r(v, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		const struct huge_booking *l = e->nhuge ?
					       &e->huge[e->nhuge - 1] : NULL;
		unsigned int kb, node;
		uint64_t bytes;
		struct huge_booking *m;

		if (parse_triple(tok, UINT_MAX, &kb, CPUSET_MAX_CPUS - 1,
				 &node, &bytes) < 0 || !kb ||
		    (l && (l->kb > kb || (l->kb == kb &&
					  l->node >= (int)node))))
			return bad(p, "bad huge page booking '%s'", tok);
		m = realloc(e->huge, (size_t)(e->nhuge + 1) * sizeof(*m));
		if (!m)
			return -ENOMEM;
		e->huge = m;
		m[e->nhuge].kb = kb;
		m[e->nhuge].node = (int)node;
		m[e->nhuge].bytes = bytes;
		e->nhuge++;
	}
	return 0;
}

/* A decimal below CPUSET_MAX_CPUS as cpuset_format() writes it. */
static bool
canon_num(const char **sp, unsigned int *out)
{
	const char *s = *sp;
	unsigned int v = 0;

	if (*s == '0') {
		*sp = s + 1;
		*out = 0;
		return (unsigned char)(s[1] - '0') >= 10;
	}
	while ((unsigned char)(*s - '0') < 10) {
		v = v * 10 + (unsigned int)(*s++ - '0');
		if (v >= CPUSET_MAX_CPUS)
			return false;
	}
	if (s == *sp)
		return false;
	*sp = s;
	*out = v;
	return true;
}

/*
 * Read the list at *vp, up to a NUL or a space (where *vp is left), into
 * s when it is a list as cpuset_format() writes it: runs "A" or "A-B"
 * (A < B), ascending and apart, joined by single commas; *count gets its
 * number of CPUs, and *span (unless NULL) the lowest and the highest CPU
 * it set in s ({-1, -1}: none), also when it stops: every bit it set lies
 * between them.  Returns 1 when it is one, 0 when not (then s holds
 * anything: read it with cpuset_parse_list(), which empties it first),
 * -ENOMEM.
 */
static int
canon_list(const char **vp, struct cpuset *s, unsigned int *count,
	   long span[2])
{
	const char *v = *vp;
	long prev = -2, unused[2];

	if (!span)
		span = unused;
	*count = 0;
	span[0] = span[1] = -1;
	if (*v == '\0' || *v == ' ')
		return 1;
	for (;;) {
		unsigned int a, b;

		if (!canon_num(&v, &a))
			return 0;
		b = a;
		if (*v == '-' && (v++, !canon_num(&v, &b) || b <= a))
			return 0;
		if ((long)a <= prev + 1)
			return 0;
		if (cpuset_set_range(s, a, b) < 0)
			return -ENOMEM;
		*count += b - a + 1;
		if (prev < 0)
			span[0] = (long)a;
		prev = span[1] = (long)b;
		if (*v == '\0' || *v == ' ') {
			*vp = v;
			return 1;
		}
		if (*v++ != ',')
			return 0;
	}
}

/* Whether str_escape() writes s as it is. */
static bool
escape_free(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s <= ' ' || *s == '%' ||
		    (unsigned char)*s >= 0x7f)
			return false;
	return true;
}

/*
 * Parse the words after "entry " (NUL-terminated, changed in place):
 * words are split at runs of spaces, as strtok_r() splits them, in one
 * pass, and a field's value is unescaped only when it holds a '%'.
 * *canon tells whether the text is what format_entry() writes for e:
 * fields in its order, each once, in its spelling, single spaces.
 */
/*
 * The key of the field at s when it is one format_entry() writes, as
 * its length (s[len] is its '='); 0 for any other.  The state's text
 * has room past its end for these reads (see parse_raw()).
 */
static size_t
known_key(const char *s)
{
	switch (s[0]) {
	case 'n':
		return s[1] == '=' ? 1 :
		       memcmp(s, "near=", 5) == 0 ? 4 : 0;
	case 'c':
		return memcmp(s, "cpus=", 5) == 0 ? 4 :
		       memcmp(s, "cgdir=", 6) == 0 ? 5 :
		       memcmp(s, "cname=", 6) == 0 ? 5 : 0;
	case 'm':
		return memcmp(s, "mode=", 5) == 0 ? 4 :
		       memcmp(s, "mem=", 4) == 0 ? 3 :
		       memcmp(s, "mempol=", 7) == 0 ? 6 : 0;
	case 'o':
		return memcmp(s, "owner=", 6) == 0 ? 5 :
		       memcmp(s, "opts=", 5) == 0 ? 4 : 0;
	case 's':
		return memcmp(s, "start=", 6) == 0 ? 5 : 0;
	case 'h':
		return memcmp(s, "hook=", 5) == 0 ? 4 :
		       memcmp(s, "hugepages=", 10) == 0 ? 9 : 0;
	}
	return 0;
}

/*
 * The line nearly every entry has, "NAME n=N cpus=LIST mode=MODE" as
 * format_entry() writes it, read straight through into e (zeroed): 1
 * when rest is one, 0 when not (e's set may hold CPUs then), -ENOMEM.
 * Nothing is cut or unescaped: only the end of the name becomes a NUL.
 * With left, rest is the line in the file as read, up to its newline
 * (past the last one, READ_PAD zeroes end the text), left as it is, for
 * an entry to stay a line (see struct alloc_state):
 * one of the names st is read for is not (0), and of the others the
 * CPUs go to st's left sets, not to e (1), and e->src.len is the line's
 * length from rest on, with its newline.
 */
static int
parse_plain(char *rest, struct alloc_entry *e, uint32_t *name_hash,
	    struct alloc_state *st, struct cpuset *scratch, bool left)
{
	const char *s = rest;
	uint32_t hash = FNV32_INIT;
	unsigned int n = 0, count, w0, nw, w;
	long span[2];
	size_t klen;
	int r;

	for (; name_byte[(unsigned char)*s]; s++)
		hash = (hash ^ (unsigned char)*s) * 0x01000193U;
	klen = (size_t)(s - rest);
	if (klen == 0 || klen > STATE_NAME_MAX || memcmp(s, " n=", 3) != 0)
		return 0;
	if (left) {
		const struct state_want *wv = st->wants;
		int k, nwant = st->nwant;

		for (k = 0; k < nwant; k++)
			if (wv[k].hash == hash && wv[k].len == klen &&
			    memcmp(st->want[k], rest, klen) == 0)
				return 0;
	}
	s += 3;
	if (*s == '0')
		s++;
	else
		for (; (unsigned char)(*s - '0') < 10; s++)
			if ((n = n * 10 + (unsigned int)(*s - '0')) >
			    CPUSET_MAX_CPUS)
				return 0;
	if (memcmp(s, " cpus=", 6) != 0 || s[-1] == '=')
		return 0;
	s += 6;
	/*
	 * The set is read into scratch (always empty here), then its
	 * words up to the last CPU's move to st's blocks (or, left, its
	 * words from the first CPU's to the last's into the left sets),
	 * and those words of scratch are emptied again.
	 */
	r = canon_list(&s, scratch, &count, span);
	nw = span[1] >= 0 ? (unsigned int)span[1] / 64 + 1 : 0;
	w0 = nw ? (unsigned int)span[0] / 64 : 0;
	/* The line ends there: cut (a NUL) or as read (its newline). */
	if (r > 0) {
		if (memcmp(s, " mode=exclusive", 15) == 0 &&
		    (s[15] == '\0' || s[15] == '\n')) {
			e->mode = ALLOC_EXCLUSIVE;
			s += 15;
		} else if (memcmp(s, " mode=share", 11) == 0 &&
			   (s[11] == '\0' || s[11] == '\n')) {
			e->mode = ALLOC_SHARE;
			s += 11;
		} else {
			r = 0;
		}
	}
	if (r > 0 && count != n)
		r = 0;	/* refused by parse_entry(), as it says */
	if (r > 0 && nw > 0 && left) {
		unsigned int k;

		/* Their union is all that is kept: an overlap is seen now
		 * or never (state_check_held()). */
		for (k = w0; k < nw && k < st->left_cpus.nwords; k++)
			if (st->left_cpus.bits[k] & scratch->bits[k])
				st->left_overlap = true;
		if (cpuset_or_words(&st->left_cpus, scratch, w0, nw) < 0 ||
		    (e->mode == ALLOC_EXCLUSIVE &&
		     cpuset_or_words(&st->left_excl, scratch, w0, nw) < 0))
			r = -ENOMEM;
	} else if (r > 0 && nw > 0) {
		uint64_t *bits = arena_alloc(&st->words, nw * sizeof(uint64_t),
					     sizeof(uint64_t));

		if (!bits)
			r = -ENOMEM;
		else
			memcpy(bits, scratch->bits, nw * sizeof(uint64_t));
		e->cpus.bits = bits;
		e->cpus.nwords = bits ? nw : 0;
		e->cpus_kept = bits != NULL;
	}
	for (w = w0; w < nw; w++)
		scratch->bits[w] = 0;
	if (r <= 0 || left) {
		e->src.name_len = (unsigned int)klen;
		if (r > 0)
			e->src.len = (size_t)(s - rest) + 1;
		*name_hash = hash;
		return r;
	}
	rest[klen] = '\0';
	e->name = rest;
	e->name_kept = true;
	e->src.name_len = (unsigned int)klen;
	e->n = (int)n;
	*name_hash = hash;
	return 1;
}

static int
parse_entry(struct parser *p, char *rest, struct alloc_entry *e,
	    bool *canon, uint32_t *name_hash, struct alloc_state *st,
	    struct cpuset *scratch)
{
	char *s = rest, *tok, *v;
	const char *lend;
	unsigned int seen = 0, last = 0, rank, ncpus = UINT_MAX;
	size_t klen;
	uint32_t hash;
	bool pct;
	int r = 0;

	memset(e, 0, sizeof(*e));
	*canon = true;
	r = parse_plain(rest, e, name_hash, st, scratch, false);
	if (r)
		return r < 0 ? r : 0;
	/* Not that line: read afresh, into a set of its own. */
	memset(&e->cpus, 0, sizeof(e->cpus));
	e->cpus_kept = false;
	pct = p->pct && strchr(rest, '%') != NULL;
	while (*s == ' ')
		s++;
	/* The name: checked and hashed (for the name index) in one pass. */
	tok = s;
	hash = FNV32_INIT;
	for (; name_byte[(unsigned char)*s]; s++)
		hash = (hash ^ (unsigned char)*s) * 0x01000193U;
	klen = (size_t)(s - tok);
	if ((*s && *s != ' ') || klen == 0 || klen > STATE_NAME_MAX)
		return bad(p, "bad entry name");
	if (*s)
		*s++ = '\0';
	if (tok != rest)
		*canon = false;
	e->name = tok;		/* NUL-terminated in the text st keeps */
	e->name_kept = true;
	e->src.name_len = (unsigned int)klen;
	*name_hash = hash;
	for (;;) {
		char *end;

		if (*s == ' ') {
			*canon = false;
			while (*s == ' ')
				s++;
		}
		if (!*s)
			break;
		tok = s;
		end = strchrnul(s, ' ');
		s = end;
		if (*s) {
			*s++ = '\0';
			if (!*s)
				*canon = false;	/* a space at the end */
		}
		klen = known_key(tok);
		for (v = tok + klen; *v && *v != '='; v++)
			;
		if (!*v)
			return bad(p, "bad entry field '%s'", tok);
		klen = (size_t)(v - tok);
		*v++ = '\0';
		if (pct && memchr(v, '%', (size_t)(end - v))) {
			*canon = false;
			if (str_unescape(v) < 0)
				return bad(p, "bad escape in field '%s'",
					   tok);
		}
		rank = 0;
		if (klen == 1 && tok[0] == 'n') {
			/* Small and plain, as written: read here. */
			if (end - v <= 5 && end > v && (v[0] != '0' ||
							end - v == 1)) {
				unsigned int u = 0;
				const char *d;

				for (d = v; d < end &&
				     (unsigned char)(*d - '0') < 10; d++)
					u = u * 10 + (unsigned int)(*d - '0');
				if (d == end && u <= CPUSET_MAX_CPUS)
					e->n = (int)u;
				else
					r = parse_int_field(p, tok, v,
							    CPUSET_MAX_CPUS,
							    &e->n);
			} else {
				r = parse_int_field(p, tok, v, CPUSET_MAX_CPUS,
						    &e->n);
			}
			seen |= 1;
			rank = 1;
		} else if (klen == 4 && memcmp(tok, "cpus", 4) == 0) {
			cpuset_zero(&e->cpus);	/* the last cpus= counts */
			lend = v;	/* v is one word: read to its end */
			r = canon_list(&lend, &e->cpus, &ncpus, NULL);
			if (r == 0) {
				*canon = false;
				ncpus = UINT_MAX;	/* count them below */
				r = parse_list(p, tok, v, &e->cpus);
			} else if (r > 0) {
				r = 0;
			}
			seen |= 2;
			rank = 2;
		} else if (klen == 4 && memcmp(tok, "mode", 4) == 0) {
			if (memcmp(v, "exclusive", 10) == 0)
				e->mode = ALLOC_EXCLUSIVE;
			else if (memcmp(v, "share", 6) == 0)
				e->mode = ALLOC_SHARE;
			else
				return bad(p, "bad mode '%s'", v);
			seen |= 4;
			rank = 3;
		} else if (klen == 5 && memcmp(tok, "owner", 5) == 0 &&
			   !e->owner) {
			if (!startswith(v, "pid:") && !startswith(v, "cgroup:") &&
			    strcmp(v, "plan") != 0)
				return bad(p, "bad owner '%s'", v);
			if (!(e->owner = strdup(v)))
				return -ENOMEM;
			if (!escape_free(v))
				*canon = false;
			rank = 4;
		} else if (klen == 5 && memcmp(tok, "start", 5) == 0) {
			if (parse_u64(v, UINT64_MAX, &e->owner_start) < 0)
				return bad(p, "bad start time '%s'", v);
			if (!e->owner_start)
				*canon = false;	/* not written */
			rank = 5;
		} else if (klen == 5 && memcmp(tok, "cgdir", 5) == 0 &&
			   !e->owner_dir) {
			if (v[0] != '/')
				return bad(p, "bad cgroup directory");
			if (!(e->owner_dir = strdup(v)))
				return -ENOMEM;
			if (!escape_free(v))
				*canon = false;
			rank = 6;
		} else if (klen == 3 && memcmp(tok, "mem", 3) == 0 &&
			   !e->nmem) {
			/* Written back as "N:B,N:B": no empty bookings. */
			if (!*v || *v == ',' || end[-1] == ',' ||
			    strstr(v, ",,"))
				*canon = false;
			r = parse_mem(p, v, e);
			rank = 7;
		} else if (klen == 9 && memcmp(tok, "hugepages", 9) == 0 &&
			   !e->nhuge) {
			if (!*v || *v == ',' || end[-1] == ',' ||
			    strstr(v, ",,"))
				*canon = false;
			r = parse_huge(p, v, e);
			rank = 8;
		} else if (klen == 4 && memcmp(tok, "opts", 4) == 0) {
			if (alloc_opts_parse(v, &e->opts) < 0)
				return bad(p, "bad options '%s'", v);
			if (*canon) {
				struct strbuf o;

				strbuf_init(&o);
				alloc_opts_format(&e->opts, &o);
				if (!o.buf || strcmp(o.buf, v) != 0)
					*canon = false;
				strbuf_free(&o);
			}
			rank = 9;
		} else if (klen == 4 && memcmp(tok, "near", 4) == 0 &&
			   !e->near) {
			if (!*v || strchr(v, ' ') || !strchr(v, '@'))
				return bad(p, "bad devices '%s'", v);
			if (!(e->near = strdup(v)))
				return -ENOMEM;
			if (!escape_free(v))
				*canon = false;
			rank = 10;
		} else if (klen == 4 && memcmp(tok, "hook", 4) == 0 &&
			   !e->hook) {
			unsigned int pid;

			if (parse_uint(v, INT_MAX, &pid) < 0)
				return bad(p, "bad container process '%s'", v);
			e->hook = true;
			e->hook_pid = (int)pid;
			rank = 11;
		} else if (klen == 6 && memcmp(tok, "mempol", 6) == 0 &&
			   !e->mempol) {
			if (strcmp(v, "local") != 0 &&
			    strcmp(v, "interleave") != 0 &&
			    strcmp(v, "bind") != 0)
				return bad(p, "bad memory policy '%s'", v);
			if (!(e->mempol = strdup(v)))
				return -ENOMEM;
			rank = 12;
		} else if (klen == 5 && memcmp(tok, "cname", 5) == 0 &&
			   !e->cname) {
			if (!*v)
				return bad(p, "bad container name ''");
			if (!(e->cname = strdup(v)))
				return -ENOMEM;
			if (!escape_free(v))
				*canon = false;
			rank = 13;
		} else {
			return bad(p, "unknown or repeated entry field '%s'",
				   tok);
		}
		if (r < 0)
			return r;
		if (rank <= last)
			*canon = false;
		last = rank;
	}
	if (seen != 7)
		return bad(p, "entry '%s' lacks n, cpus or mode", e->name);
	if (ncpus == UINT_MAX)
		ncpus = cpuset_count(&e->cpus);
	if ((unsigned int)e->n != ncpus)
		return bad(p, "entry '%s' has %u CPUs, not %d", e->name,
			   ncpus, e->n);
	return 0;
}

/*
 * The names of the entries read so far, hashed (open addressing over
 * indexes into st->entries, each with its name's hash), so that a file
 * of n entries is checked for repeated names in O(n), not O(n^2) string
 * comparisons.
 */
struct state_name_slot {
	int entry;		/* entry index + 1; 0 empty; below 0, an
				 * entry left as a line whose name is at
				 * - entry - 1 in the body, up to a space */
	uint32_t hash;
};

/* The hash the read takes of a name as it checks it. */
static uint32_t
name_hash(const char *name)
{
	return fnv1a32(FNV32_INIT, name, strlen(name));
}

static inline const char *
slot_name(const struct alloc_state *st, int entry)
{
	return entry > 0 ? st->entries[entry - 1].name :
	       st->raw + st->body - entry - 1;
}

/* Whether the names at a and b, each ended by a NUL or a space, match. */
static bool
same_name(const char *a, const char *b)
{
	while (*a == *b && *a && *a != ' ')
		a++, b++;
	return (!*a || *a == ' ') && (!*b || *b == ' ');
}

static inline size_t
name_slot(const struct alloc_state *st, const char *name, uint32_t hash)
{
	size_t mask = st->names_size - 1, h = hash & mask;

	while (st->names[h].entry &&
	       (st->names[h].hash != hash ||
		!same_name(slot_name(st, st->names[h].entry), name)))
		h = (h + 1) & mask;
	return h;
}

/*
 * The slots for n names: the index is at most three quarters full.  The
 * names a state is read for are counted from its size at the shortest
 * line, more than there are: 1,000 entries of the usual length fill a
 * table of 2,048 slots (16 KiB) by half.
 */
#define NAME_ROOM(n) ((n) + (n) / 3 + 2)

/*
 * Record the name of entry (as in struct state_name_slot), which hashes
 * to hash, in st's name index, sized for at least expect names.
 * Returns 0, 1 when the name is there already, -ENOMEM.
 */
static int
name_index_add(struct alloc_state *st, int entry, uint32_t hash,
	       size_t expect)
{
	const char *name = slot_name(st, entry);
	size_t h;

	if (NAME_ROOM(st->nnames) > st->names_size) {
		size_t size = st->names_size ? st->names_size * 2 : 64, k;
		struct state_name_slot *slot;

		/* Sized for every name expected: grown once, if ever. */
		while (size < NAME_ROOM(expect))
			size *= 2;
		slot = calloc(size, sizeof(*slot));
		if (!slot)
			return -ENOMEM;
		for (k = 0; k < st->names_size; k++) {
			struct state_name_slot *o = &st->names[k];

			if (o->entry) {
				size_t b = o->hash & (size - 1);

				while (slot[b].entry)
					b = (b + 1) & (size - 1);
				slot[b] = *o;
			}
		}
		free(st->names);
		st->names = slot;
		st->names_size = size;
	}
	h = name_slot(st, name, hash);
	if (st->names[h].entry)
		return 1;
	st->names[h].entry = entry;
	st->names[h].hash = hash;
	st->nnames++;
	return 0;
}

static void
names_drop(struct alloc_state *st)
{
	free(st->names);
	st->names = NULL;
	st->names_size = 0;
	st->nnames = 0;
}

/*
 * In a state read for some names, the entry line at off in the body
 * (after "entry "), as read, when it is to stay a line: its CPUs go to
 * the left sets and its name to the index (sized for at least expect
 * names).  Returns 1 when it stays (*len: its length from off on), 0 when
 * it is to be read into entries[], a parse_raw() error.
 */
static int
leave_line(struct alloc_state *st, struct parser *p, size_t off,
	   struct cpuset *scratch, size_t expect, size_t *len)
{
	char *sp = st->raw + st->body + off;
	struct alloc_entry e;
	uint32_t hash = 0;
	int r;

	/* Only its mode and lengths are written (parse_plain(), left). */
	e.mode = ALLOC_SHARE;
	r = parse_plain(sp, &e, &hash, st, scratch, true);
	if (r <= 0)
		return r;
	*len = e.src.len;
	r = name_index_add(st, -(int)off - 1, hash, expect);
	if (r == 1)
		return bad(p, "entry '%.*s' appears twice",
			   (int)e.src.name_len, sp);
	if (r < 0)
		return r;
	st->nleft++;
	return 1;
}

/* Where entry e, read into entries[], was among the lines: 0 or -ENOMEM. */
static int
add_hole(struct alloc_state *st, struct alloc_entry *e, size_t at,
	 size_t len)
{
	if (st->nholes == st->holes_cap) {
		int cap = st->holes_cap ? st->holes_cap * 2 : 8;
		struct state_hole *h = realloc(st->holes,
					       (size_t)cap * sizeof(*h));

		if (!h)
			return -ENOMEM;
		st->holes = h;
		st->holes_cap = cap;
	}
	st->holes[st->nholes].at = at;
	st->holes[st->nholes].len = len;
	e->src.at = (unsigned int)++st->nholes;
	return 0;
}

/* The lengths and hashes of the names st is read for: 0 or -ENOMEM. */
static int
want_hashes(struct alloc_state *st)
{
	int k;

	st->wants = malloc((size_t)st->nwant * sizeof(*st->wants));
	if (!st->wants)
		return -ENOMEM;
	for (k = 0; k < st->nwant; k++) {
		st->wants[k].len = strlen(st->want[k]);
		st->wants[k].hash = name_hash(st->want[k]);
	}
	return 0;
}

/*
 * The entry line at sp (after "entry "), at..at+len in the body, read
 * into a new entry of st (and its name into the index, sized for at
 * least expect names).  Returns 0 or a parse_raw() error.
 */
static int
read_entry(struct alloc_state *st, struct parser *p, char *sp, size_t at,
	   size_t len, struct cpuset *scratch, size_t expect)
{
	struct alloc_entry *e;
	uint32_t hash = 0;
	bool canon;
	int r;

	/* In place: the array has room for every line (read for some
	 * names, for those). */
	if (st->nentries == st->cap && grow_entries(st) < 0)
		return -ENOMEM;
	e = &st->entries[st->nentries];
	r = parse_entry(p, sp, e, &canon, &hash, st, scratch);
	if (r < 0) {
		alloc_entry_free(e);
		return r;
	}
	st->nentries++;
	r = name_index_add(st, st->nentries, hash, expect);
	if (r == 1)
		return bad(p, "entry '%s' appears twice", e->name);
	if (r == 0 && canon) {
		/* Its line, to write back as it is. */
		e->src.line = st->raw + st->body + at;
		e->src.len = len;
		e->src.digest = entry_digest(e);
	}
	if (r == 0 && st->nwant)
		r = add_hole(st, e, at, len);
	return r;
}

/*
 * Parse the state text buf of len bytes, which st keeps as st->raw (it
 * is freed with st, or here on failure), with the file it was read from
 * when from is not NULL (kept as st->held, closed the same way).
 * want[0..nwant): see state_load_named() (nwant 0: every entry).
 */
static int
parse_raw(struct alloc_state *st, char *buf, size_t len,
	  const struct held_file *from, char *const *want, int nwant,
	  char *err, size_t errlen)
{
	struct parser p = { err, errlen, 1, true };
	struct cpuset scratch = CPUSET_INIT;
	const char *nl, *body;
	char *copy = NULL, *line, *next;
	unsigned long long sum;
	size_t blen, k, lines, off;
	uint64_t h;
	int r, stage = 0;
	bool xxh;
	char hdr[64];

	state_init(st);
	st->raw = buf;
	st->rawlen = len;
	if (from)
		st->held = *from;
	st->want = want;
	st->nwant = nwant;
	if (errlen)
		err[0] = '\0';
	if (len == 0) {
		r = bad(&p, "the file is empty");
		goto fail;
	}
	if (memchr(buf, '\0', len)) {
		r = bad(&p, "the file holds a NUL byte");
		goto fail;
	}
	nl = memchr(buf, '\n', len);
	if (!nl || (size_t)(nl - buf) >= sizeof(hdr)) {
		r = bad(&p, "not a cpm-alloc state file");
		goto fail;
	}
	memcpy(hdr, buf, (size_t)(nl - buf));
	hdr[nl - buf] = '\0';
	if (!startswith(hdr, "cpm-alloc-state ")) {
		r = bad(&p, "not a cpm-alloc state file");
		goto fail;
	}
	if (strcmp(hdr + 16, "1") != 0 && strcmp(hdr + 16, "2") != 0 &&
	    strcmp(hdr + 16, "3") != 0) {
		if (errlen)
			snprintf(err, errlen, "unknown state version '%s' "
				 "(this cpm-alloc reads versions 1 to %d)",
				 hdr + 16, STATE_VERSION);
		r = -EPROTONOSUPPORT;
		goto fail;
	}
	p.line = 2;
	line = (char *)nl + 1;
	nl = memchr(line, '\n', len - (size_t)(line - buf));
	xxh = hdr[16] == '3';	/* else FNV-1a 64, versions 1 and 2 */
	if (!nl || nl - line != (xxh ? 31 : 33) ||
	    sscanf(line, xxh ? "checksum xxh64:%16llx\n" :
		   "checksum fnv1a64:%16llx\n", &sum) != 1) {
		r = bad(&p, "missing or bad checksum line");
		goto fail;
	}
	body = nl + 1;
	st->body = (size_t)(body - buf);
	blen = len - st->body;
	if (xxh) {
		/* The lanes every STATE_SUM_STRIDE bytes: body_sum(). */
		struct xxh64_lanes l;

		st->nsums = blen / STATE_SUM_STRIDE + 1;
		st->sums = malloc(st->nsums * sizeof(*st->sums));
		if (!st->sums) {
			r = -ENOMEM;
			goto fail;
		}
		xxh64_start(&l, 0);
		for (k = 0; k < st->nsums; k++) {
			size_t at = k * STATE_SUM_STRIDE;

			st->sums[k] = l;
			xxh64_stripes(&l, body + at, blen - at <
				      STATE_SUM_STRIDE ? blen - at :
				      STATE_SUM_STRIDE);
		}
		k = blen - blen % XXH64_STRIPE;
		h = xxh64_end(&l, 0, blen, body + k, blen - k);
	} else {
		/* Versions 1 and 2: written again as version 3. */
		h = fnv1a64(FNV64_INIT, body, blen);
	}
	if (h != sum) {
		r = bad(&p, "checksum mismatch (the file is damaged or "
			"truncated)");
		goto fail;
	}
	if (len > 0 && buf[len - 1] != '\n') {
		r = bad(&p, "the file does not end in a newline");
		goto fail;
	}
	/*
	 * The words of the text, cut apart; the names stay there.  Zeroes
	 * past the end let known_key() and the like compare a few bytes
	 * past a word's end.  Read for some names, a line is copied to its
	 * place only when read into st: the entries left as lines are read
	 * where they are (leave_line()).
	 */
	copy = st->text = malloc(blen + 16);
	if (!copy) {
		r = -ENOMEM;
		goto fail;
	}
	if (!nwant)
		memcpy(copy, body, blen);
	memset(copy + blen, 0, 16);
	p.pct = memchr(body, '%', blen) != NULL;
	if (nwant && want_hashes(st) < 0) {
		r = -ENOMEM;
		goto fail;
	}
	st->exists = true;
	/*
	 * Room for every entry at once, and some for the entries a call
	 * adds: no line "entry NAME n=N cpus= mode=share" is shorter than
	 * STATE_ENTRY_MIN bytes.  (Pages of the array never filled are
	 * never touched.)  Read for some names: room for those.
	 */
	lines = blen / STATE_ENTRY_MIN + 16;
	st->cap = nwant ? nwant + 16 : (int)lines;
	st->entries_at = blen;
	st->entries = malloc((size_t)st->cap * sizeof(*st->entries));
	if (!st->entries) {
		st->cap = 0;
		r = -ENOMEM;
		goto fail;
	}
	for (off = 0; off < blen; off = (size_t)(next - copy)) {
		size_t llen;
		char *sp;

		p.line++;
		if (nwant && stage == 4 && blen - off > 6 &&
		    memcmp(body + off, "entry ", 6) == 0) {
			r = leave_line(st, &p, off + 6, &scratch, lines,
				       &llen);
			if (r < 0)
				goto fail;
			if (r > 0) {
				next = copy + off + 6 + llen;
				continue;
			}
		}
		/* The file ends in a newline (checked above). */
		llen = (size_t)((const char *)memchr(body + off, '\n',
						      blen - off) -
				(body + off)) + 1;
		line = copy + off;
		if (nwant)
			memcpy(line, body + off, llen);
		next = line + llen;
		next[-1] = '\0';
		/* Most lines are entries: their record needs no search. */
		sp = memcmp(line, "entry ", 6) == 0 ? line + 5 :
		     strchr(line, ' ');
		if (!sp) {
			r = bad(&p, "bad record '%s'", line);
			goto fail;
		}
		*sp++ = '\0';
		r = 0;
		if (stage == 4 && memcmp(line, "entry", 6) == 0) {
			r = read_entry(st, &p, sp, off, llen, &scratch, lines);
			stage--;
		} else if (stage == 0 && strcmp(line, "topology") == 0) {
			r = parse_topology(&p, sp, &st->print);
			st->have_print = true;
		} else if (stage == 1 && hdr[16] >= '2' && !st->layout_text &&
			   strcmp(line, "layout") == 0) {
			char lerr[160];

			/* The text as read stays in raw: the line (a copy
			 * of it) is cut in place. */
			st->layout_text = body + (sp - copy);
			st->layout_len = llen - 1 - (size_t)(sp - line);
			r = statetopo_parse_in_place(sp, &st->layout, lerr,
						     sizeof(lerr));
			if (r == -EINVAL)
				r = bad(&p, "%s", lerr);
			if (r > 0)
				r = 0;	/* a later encoding: not used */
			stage--;
		} else if (stage == 1 && strcmp(line, "reserved") == 0) {
			r = parse_list(&p, "reserved", sp, &st->reserved);
		} else if (stage == 2 && strcmp(line, "strict") == 0) {
			if (strcmp(sp, "yes") == 0)
				st->strict = true;
			else if (strcmp(sp, "no") != 0)
				r = bad(&p, "bad strict flag '%s'", sp);
		} else if (stage == 3 && strcmp(line, "policy") == 0) {
			if (strcmp(sp, "-") != 0 &&
			    alloc_opts_parse(sp, &st->policy) < 0)
				r = bad(&p, "bad policy '%s'", sp);
			st->entries_at = (size_t)(next - copy);
		} else if (stage == 4 && !st->nentries && !st->nresmem &&
			   strcmp(line, "reserved-memory") == 0) {
			r = parse_resmem(&p, sp, st);
			st->entries_at = (size_t)(next - copy);
			stage--;
		} else {
			r = bad(&p, "unexpected record '%s'", line);
		}
		if (r < 0)
			goto fail;
		stage++;
	}
	if (stage < 4) {
		r = bad(&p, "the file ends early");
		goto fail;
	}
	cpuset_free(&scratch);
	return 0;
fail:
	cpuset_free(&scratch);
	/* Whatever was wrong, it may not be the file's: a writer that
	 * does not replace the file may have cut or changed it meanwhile. */
	if (r != -ENOMEM && st->held.open && held_file_intact(&st->held) == 0)
		r = -ESTALE;
	state_free(st);
	return r;
}

int
state_parse_named(struct alloc_state *st, const char *buf, size_t len,
		  char *const *want, int nwant, char *err, size_t errlen)
{
	/* Padded as a file read is (READ_PAD): see parse_plain(). */
	char *raw = malloc(len + READ_PAD);

	state_init(st);
	if (!raw)
		return -ENOMEM;
	memcpy(raw, buf, len);
	memset(raw + len, 0, READ_PAD);
	return parse_raw(st, raw, len, NULL, want, nwant > 0 ? nwant : 0,
			 err, errlen);
}

int
state_parse(struct alloc_state *st, const char *buf, size_t len, char *err,
	    size_t errlen)
{
	return state_parse_named(st, buf, len, NULL, 0, err, errlen);
}

static int
load(struct alloc_state *st, const char *path, char *const *want, int nwant,
     char *err, size_t errlen)
{
	struct held_file held;
	char *buf;
	size_t len;
	int r;

	state_init(st);
	r = read_file_at(AT_FDCWD, path, &(struct read_opts){
				.max = STATE_FILE_MAX, .held = &held,
			 }, &buf, &len);
	if (r == -ENOENT)
		return 0;
	if (r == -EFBIG) {
		/* Damaged, not unreadable: refused like bad contents. */
		snprintf(err, errlen, "larger than %u MiB", STATE_FILE_MAX >> 20);
		return -EBADMSG;
	}
	if (r == -EFTYPE_CPM) {
		snprintf(err, errlen, "state '%s' is not a regular file", path);
		return r;
	}
	if (r < 0) {
		snprintf(err, errlen, "cannot read '%s': %s", path,
			 read_strerror(r));
		return r;
	}
	r = parse_raw(st, buf, len, &held, want, nwant, err, errlen);
	return r == -ESTALE ? changed(path, err, errlen) : r;
}

int
state_load(struct alloc_state *st, const char *path, char *err,
	   size_t errlen)
{
	return load(st, path, NULL, 0, err, errlen);
}

int
state_load_named(struct alloc_state *st, const char *path,
		 char *const *want, int nwant, char *err, size_t errlen)
{
	return load(st, path, want, nwant > 0 ? nwant : 0, err, errlen);
}

int
state_reload(struct alloc_state *st, const char *path, char *err,
	     size_t errlen)
{
	/*
	 * The file read is still held open, so its inode cannot have
	 * gone to another file: if the path still names it, unchanged,
	 * nothing was written (writers replace the file, under the lock
	 * the caller now holds), and it need not be read again.  Only a
	 * state read from a file holds one (state_load()).
	 */
	char *const *want = st->want;
	int nwant = st->nwant;

	if (held_file_same(&st->held, AT_FDCWD, path) == 1)
		return 0;
	state_free(st);
	return load(st, path, want, nwant, err, errlen);
}

int
state_set_layout(struct alloc_state *st, const struct topo *t,
		 const struct coretypes *ct, const char *key)
{
	struct strbuf sb;

	strbuf_init(&sb);
	statetopo_format(t, ct, key, &sb);
	if (sb.oom || !sb.buf) {
		strbuf_free(&sb);
		return -ENOMEM;
	}
	if (st->layout_own)
		free((char *)st->layout_text);
	st->layout_text = sb.buf;
	st->layout_len = sb.len;
	st->layout_own = true;
	return 0;
}

/* Directory part of path ("." when none). */
static void
dir_of(const char *path, char *dir, size_t size)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		snprintf(dir, size, ".");
	else if (slash == path)
		snprintf(dir, size, "/");
	else
		snprintf(dir, size, "%.*s", (int)(slash - path), path);
}

int
state_lock_wait(const char *path, int64_t wait_ms, char *err, size_t errlen)
{
	char dir[PATH_MAX], lock[PATH_MAX];
	const char *base;
	int r;

	dir_of(path, dir, sizeof(dir));
	base = strrchr(path, '/');
	base = base ? base + 1 : path;
	if (*base == '\0') {
		snprintf(err, errlen, "state path '%s' names a directory",
			 path);
		return -EISDIR;
	}
	/* Bad input creates nothing: look before making directories, and
	 * lock (create BASE.lock beside it) only a file that is cpm's. */
	r = own_file_check(path, "state", "cpm-alloc-state ", 0, err, errlen);
	if (r < 0)
		return r;
	/* BASE.lock, BASE cut short when the name would pass NAME_MAX. */
	if (snprintf(lock, sizeof(lock), "%.*s%.*s.lock", (int)(base - path),
		     path, (int)(NAME_MAX - strlen(".lock")), base) >=
	    (int)sizeof(lock)) {
		snprintf(err, errlen, "state path '%s' is too long", path);
		return -ENAMETOOLONG;
	}
	r = mkdir_p(dir, 0755);
	if (r < 0) {
		snprintf(err, errlen, "cannot create directory '%s': %s", dir,
			 r == -ELOOP ? "a symbolic link on the way" :
			 strerror(-r));
		return r;
	}
	/* Temporaries a killed holder left are for the next write to find
	 * (write_file_atomic(), WRITE_LOCKED): no directory read per lock. */
	return lock_file(lock, wait_ms, err, errlen);
}

int
state_lock(const char *path, char *err, size_t errlen)
{
	return state_lock_wait(path, -1, err, errlen);
}

int
state_resolve(const char *path, char **out, char *err, size_t errlen)
{
	struct stat st;
	int r;

	*out = NULL;
	if (lstat(path, &st) < 0 || !S_ISLNK(st.st_mode)) {
		*out = strdup(path);
		return *out ? 0 : -ENOMEM;
	}
	/* A link another user could have planted names no state of ours
	 * (realpath() knows no protected_symlinks rule). */
	r = own_file_check(path, "state", NULL, 0, err, errlen);
	if (r < 0)
		return r == -EISDIR ? -EFTYPE_CPM : r;
	*out = realpath(path, NULL);
	if (*out == NULL) {
		r = -errno;
		snprintf(err, errlen, "state '%s' is a symbolic link to %s",
			 path, r == -ENOENT ? "nothing" : strerror(-r));
		return r == -ENOENT ? -EFTYPE_CPM : r;
	}
	return 0;
}

void
state_unlock(int fd)
{
	unlock_file(fd);
}

int
state_save(const struct alloc_state *st, const char *path, char *err,
	   size_t errlen)
{
	int r;

	/* Written as it is made (fill_state()), never held whole. */
	r = write_file_atomic(path, NULL, 0, &(struct write_opts){
				.mode = 0644, .flags = WRITE_LOCKED,
				.fill = fill_state, .arg = (void *)st,
			      });
	if (r == -ENOMEM)
		snprintf(err, errlen, "out of memory");
	else if (r == -ESTALE)
		changed(path, err, errlen);
	else if (r < 0)
		snprintf(err, errlen, "cannot write '%s': %s", path,
			 strerror(-r));
	return r;
}

/* Entries and pools */

struct alloc_entry *
state_find(const struct alloc_state *st, const char *name)
{
	int i;

	if (st->names) {
		i = st->names[name_slot(st, name, name_hash(name))].entry;
		return i > 0 ? &st->entries[i - 1] : NULL;
	}
	for (i = 0; i < st->nentries; i++)
		if (strcmp(st->entries[i].name, name) == 0)
			return &st->entries[i];
	return NULL;
}

int
state_add(struct alloc_state *st, struct alloc_entry *e)
{
	if (st->nentries == st->cap && grow_entries(st) < 0)
		return -ENOMEM;
	st->entries[st->nentries++] = *e;
	memset(e, 0, sizeof(*e));
	/* Written after the lines read (in a state read for some names). */
	st->entries[st->nentries - 1].src.at = 0;
	/* Indexed too, or no index at all: never a partial one. */
	if (st->names &&
	    name_index_add(st, st->nentries,
			   name_hash(st->entries[st->nentries - 1].name),
			   st->nnames + 1) != 0)
		names_drop(st);
	return 0;
}

void
state_remove(struct alloc_state *st, int i)
{
	names_drop(st);		/* the indexes move */
	alloc_entry_free(&st->entries[i]);
	memmove(&st->entries[i], &st->entries[i + 1],
		(size_t)(st->nentries - i - 1) * sizeof(st->entries[0]));
	st->nentries--;
}

int
state_check_held(const struct alloc_state *st, const struct cpuset *possible,
		 char *err, size_t errlen)
{
	struct cpuset all = CPUSET_INIT;
	char *l = NULL;
	int i, r = 0;

	if (st->left_overlap) {
		snprintf(err, errlen, "two allocations hold the same CPUs");
		return -EBADMSG;
	}
	if (cpuset_copy(&all, &st->left_cpus) < 0)
		return -ENOMEM;
	for (i = 0; i < st->nentries && r == 0; i++) {
		const struct alloc_entry *e = &st->entries[i];

		if (cpuset_intersects(&all, &e->cpus)) {
			snprintf(err, errlen, "'%s' holds CPUs another "
				 "allocation holds", e->name);
			r = -EBADMSG;
		} else if (cpuset_or(&all, &e->cpus) < 0) {
			r = -ENOMEM;
		}
	}
	if (r == 0 && cpuset_intersects(&all, &st->reserved)) {
		cpuset_and(&all, &st->reserved);
		l = cpuset_to_list(&all);
		snprintf(err, errlen, "reserved CPUs %s are held by an "
			 "allocation", l ? l : "?");
		r = -EBADMSG;
	} else if (r == 0 && !cpuset_subset(&all, possible)) {
		cpuset_andnot(&all, possible);
		l = cpuset_to_list(&all);
		snprintf(err, errlen, "allocations hold CPUs %s, which this "
			 "machine lacks", l ? l : "?");
		r = -EBADMSG;
	}
	free(l);
	cpuset_free(&all);
	return r;
}

int
state_shared(const struct alloc_state *st, const struct cpuset *online,
	     struct cpuset *out)
{
	int i;

	if (cpuset_copy(out, online) < 0)
		return -ENOMEM;
	for (i = 0; i < st->nentries; i++)
		if (st->entries[i].mode == ALLOC_EXCLUSIVE)
			cpuset_andnot(out, &st->entries[i].cpus);
	cpuset_andnot(out, &st->left_excl);
	if (st->strict)
		cpuset_andnot(out, &st->reserved);
	return 0;
}

int
state_available(const struct alloc_state *st, const struct cpuset *online,
		const struct alloc_entry *skip, struct cpuset *out)
{
	int i;

	if (cpuset_copy(out, online) < 0)
		return -ENOMEM;
	cpuset_andnot(out, &st->reserved);
	for (i = 0; i < st->nentries; i++)
		if (&st->entries[i] != skip)
			cpuset_andnot(out, &st->entries[i].cpus);
	cpuset_andnot(out, &st->left_cpus);
	return 0;
}

uint64_t
state_mem_booked(const struct alloc_state *st, int node)
{
	uint64_t sum = 0;
	int i, k;

	for (i = 0; i < st->nentries; i++)
		for (k = 0; k < st->entries[i].nmem; k++)
			if (st->entries[i].mem[k].node == node)
				sum += st->entries[i].mem[k].bytes;
	return sum;
}

uint64_t
state_mem_reserved(const struct alloc_state *st, int node, unsigned int kb)
{
	int i;

	for (i = 0; i < st->nresmem; i++)
		if (st->resmem[i].node == node && st->resmem[i].kb == kb)
			return st->resmem[i].bytes;
	return 0;
}

uint64_t
state_huge_booked(const struct alloc_state *st, unsigned int kb, int node)
{
	uint64_t sum = 0;
	int i, k;

	for (i = 0; i < st->nentries; i++)
		for (k = 0; k < st->entries[i].nhuge; k++)
			if (st->entries[i].huge[k].node == node &&
			    st->entries[i].huge[k].kb == kb)
				sum += st->entries[i].huge[k].bytes;
	return sum;
}

/* Shrinking */

int
alloc_shrink_pick(const struct topo *t, const struct cpuset *have, int k,
		  bool whole_cores, struct cpuset *drop)
{
	struct cpuset left = CPUSET_INIT;
	int *node_cnt = NULL, *core_cnt = NULL, nmax = 0, cpu, r = 0;

	cpuset_zero(drop);
	if (k <= 0)
		return 0;
	if (cpuset_copy(&left, have) < 0)
		return -ENOMEM;
	cpuset_for_each(cpu, have)
		if (cpu < t->ncpus && t->cpus[cpu].node + 1 > nmax)
			nmax = t->cpus[cpu].node + 1;
	node_cnt = calloc((size_t)nmax + 1, sizeof(int));
	core_cnt = calloc((size_t)t->ncpus + 1, sizeof(int));
	if (!node_cnt || !core_cnt) {
		r = -ENOMEM;
		goto out;
	}
	/* Counts per node and per core of what the entry holds. */
	cpuset_for_each(cpu, have) {
		const struct topo_cpu *c = cpu < t->ncpus ? &t->cpus[cpu] : NULL;

		if (c && c->node >= 0)
			node_cnt[c->node]++;
		if (c && c->core >= 0)
			core_cnt[c->core]++;
	}
	while (k > 0) {
		int best = -1, bn = 0, bc = 0;

		/*
		 * Score: fewest held on the node, then fewest held on the
		 * core, then highest CPU: a linear scan per removed CPU is
		 * fine for the sizes at hand (thousands).
		 */
		cpuset_for_each(cpu, &left) {
			const struct topo_cpu *c = cpu < t->ncpus ?
				&t->cpus[cpu] : NULL;
			int n = c && c->node >= 0 ? node_cnt[c->node] : 0;
			int co = c && c->core >= 0 ? core_cnt[c->core] : 0;

			if (best < 0 || n < bn || (n == bn && co <= bc)) {
				best = cpu;
				bn = n;
				bc = co;
			}
		}
		if (best < 0)
			break;
		if (whole_cores && best < t->ncpus && t->cpus[best].core >= 0) {
			const struct topo_cpu *c = &t->cpus[best];
			int sib, took = 0;

			if (core_cnt[c->core] > k) {
				r = -EINVAL;
				goto out;
			}
			for (sib = c->core; sib >= 0;
			     sib = t->cpus[sib].next_thread) {
				if (!cpuset_isset(&left, (unsigned int)sib))
					continue;
				cpuset_clear(&left, (unsigned int)sib);
				if (cpuset_set(drop, (unsigned int)sib) < 0) {
					r = -ENOMEM;
					goto out;
				}
				if (t->cpus[sib].node >= 0)
					node_cnt[t->cpus[sib].node]--;
				took++;
			}
			core_cnt[c->core] = 0;
			k -= took;
			continue;
		}
		cpuset_clear(&left, (unsigned int)best);
		if (cpuset_set(drop, (unsigned int)best) < 0) {
			r = -ENOMEM;
			goto out;
		}
		if (best < t->ncpus) {
			if (t->cpus[best].node >= 0)
				node_cnt[t->cpus[best].node]--;
			if (t->cpus[best].core >= 0)
				core_cnt[t->cpus[best].core]--;
		}
		k--;
	}
out:
	free(node_cnt);
	free(core_cnt);
	cpuset_free(&left);
	return r;
}


struct alloc_entry *
state_need(const struct alloc_state *st, const char *name, char *err,
	   size_t errlen)
{
	struct alloc_entry *e = state_find(st, name);

	if (e == NULL)
		snprintf(err, errlen, "no allocation named '%s'", name);
	return e;
}

int
state_need_file(const char *path, const char *name, char *err,
		size_t errlen)
{
	if (access(path, F_OK) < 0 && errno == ENOENT) {
		snprintf(err, errlen, "no allocation named '%s'", name);
		return -ENOENT;
	}
	return 0;
}

int
state_remove_named(struct alloc_state *st, char *const *names, int n,
		   char *err, size_t errlen)
{
	int i;

	for (i = 0; i < n; i++)
		if (state_need(st, names[i], err, errlen) == NULL)
			return -ENOENT;
	for (i = 0; i < n; i++) {
		const struct alloc_entry *e = state_find(st, names[i]);

		if (e)		/* else a name given twice */
			state_remove(st, (int)(e - st->entries));
	}
	return 0;
}
