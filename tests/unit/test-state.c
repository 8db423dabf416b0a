// SPDX-License-Identifier: GPL-2.0-or-later
/* The state file: round trip, and every damage is detected. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "alloc/state.h"
#include "base/fileread.h"
#include "base/filewrite.h"
#include "base/strbuf.h"
#include "kube/topomgr.h"
#include "unit.h"

static const struct write_opts mode_0644 = { .mode = 0644 };

static const char body[] =
	"topology possible=0-7 online=0-6 nodes=0-1 sockets=1 cores=4 "
	"threads=2 hash=0123456789abcdef\n"
	"reserved 0,4\n"
	"strict yes\n"
	"policy full-cores,distribute\n"
	"entry db n=2 cpus=1,5 mode=exclusive owner=pid:42 start=1234 "
	"mem=0:1073741824,1:0 opts=full-cores,numa-policy=restricted\n"
	"entry web/app n=0 cpus= mode=share owner=cgroup:kube%20pods/x "
	"cgdir=/sys/fs/cgroup/cpuset/kube%20pods/x\n";

/* A command naming an allocation: none without a file, or in the file. */
static void
test_need(void)
{
	char dir[] = "/tmp/cpm-test-state-XXXXXX", path[256], err[256] = "";
	struct alloc_state st;
	struct stat sb;
	FILE *f;

	if (!mkdtemp(dir)) {
		CHECK("mkdtemp", 0);
		return;
	}
	snprintf(path, sizeof(path), "%s/sub/state", dir);
	CHECK("no state file: no allocation of that name",
	      state_need_file(path, "db", err, sizeof(err)) == -ENOENT);
	CHECK_STR("no state file: the message names it", err,
		  "no allocation named 'db'");
	CHECK("no state file: nothing is created on the way",
	      stat(path, &sb) < 0 && strstr(path, "/sub/") &&
	      (snprintf(path, sizeof(path), "%s/sub", dir), stat(path, &sb)) < 0);
	snprintf(path, sizeof(path), "%s/state", dir);
	f = fopen(path, "w");
	if (f)
		fclose(f);
	err[0] = '\0';
	CHECK("a state file exists: the entries decide",
	      state_need_file(path, "db", err, sizeof(err)) == 0 && !err[0]);
	unlink(path);
	rmdir(dir);

	state_init(&st);
	CHECK("an empty state has no entry 'db'",
	      state_need(&st, "db", err, sizeof(err)) == NULL);
	CHECK_STR("and says so", err, "no allocation named 'db'");
	state_free(&st);
}

/*
 * A state of n entries e0..e(n-1) of no CPU, entry dup (>= 0) named like
 * entry 0 (or, with dup_of >= 0, like entry dup_of), with its checksum.
 */
static void
many_entries(struct strbuf *out, int n, int dup, int dup_of)
{
	struct strbuf b;
	int i;

	strbuf_init(&b);
	strbuf_puts(&b, "topology possible=0-7 online=0-7 nodes=0 sockets=1 "
		    "cores=8 threads=1 hash=0123456789abcdef\n"
		    "reserved \nstrict no\npolicy -\n");
	for (i = 0; i < n; i++)
		strbuf_printf(&b, "entry e%d n=0 cpus= mode=exclusive\n",
			      i == dup ? dup_of : i);
	strbuf_init(out);
	strbuf_printf(out, "cpm-alloc-state 1\nchecksum fnv1a64:%016llx\n%s",
		      (unsigned long long)fnv1a64(FNV64_INIT, b.buf, b.len),
		      b.buf);
	strbuf_free(&b);
}

/* Releasing several entries: all or none. */
static void
test_remove(void)
{
	char *missing[] = { "e1", "e9" }, *names[] = { "e3", "e1", "e3" };
	struct alloc_state st;
	struct strbuf b;
	char err[256];

	many_entries(&b, 5, -1, 0);
	if (state_parse(&st, b.buf, b.len, err, sizeof(err)) < 0) {
		CHECK("five entries parse", 0);
		return;
	}
	CHECK("a missing name removes nothing",
	      state_remove_named(&st, missing, 2, err, sizeof(err)) ==
	      -ENOENT && st.nentries == 5 && state_find(&st, "e1"));
	CHECK_STR("and is named", err, "no allocation named 'e9'");
	CHECK("names given, twice or not, are removed",
	      state_remove_named(&st, names, 3, err, sizeof(err)) == 0 &&
	      st.nentries == 3);
	CHECK("the others stay, in order", strcmp(st.entries[0].name, "e0") == 0 &&
	      strcmp(st.entries[1].name, "e2") == 0 &&
	      strcmp(st.entries[2].name, "e4") == 0);
	state_free(&st);
	strbuf_free(&b);
}

/*
 * The file as cpm-alloc 0.1.0 wrote it, every entry formatted from its
 * fields (kept here as the reference that state_format(), which copies
 * the lines of entries left as read, must match byte for byte).
 */
static void
ref_kv_list(struct strbuf *sb, const char *key, const struct cpuset *s)
{
	strbuf_puts(sb, " ");
	strbuf_puts(sb, key);
	strbuf_puts(sb, "=");
	cpuset_format(s, sb);
}

static void
ref_format(const struct alloc_state *st, struct strbuf *out)
{
	const struct topo_print *tp = &st->print;
	struct strbuf sb;
	size_t mark;
	int i, k;

	strbuf_init(&sb);
	strbuf_puts(&sb, "topology");
	ref_kv_list(&sb, "possible", &tp->possible);
	ref_kv_list(&sb, "online", &tp->online);
	ref_kv_list(&sb, "nodes", &tp->nodes);
	strbuf_printf(&sb, " sockets=%d cores=%d threads=%d hash=%016llx\n",
		      tp->sockets, tp->cores, tp->threads,
		      (unsigned long long)tp->hash);
	if (st->layout_text)
		strbuf_printf(&sb, "layout %.*s\n", (int)st->layout_len,
			      st->layout_text);
	strbuf_puts(&sb, "reserved ");
	cpuset_format(&st->reserved, &sb);
	strbuf_printf(&sb, "\nstrict %s\npolicy ", st->strict ? "yes" : "no");
	mark = sb.len;
	alloc_opts_format(&st->policy, &sb);
	if (sb.len == mark)
		strbuf_puts(&sb, "-");
	strbuf_puts(&sb, "\n");
	for (i = 0; i < st->nentries; i++) {
		const struct alloc_entry *e = &st->entries[i];

		strbuf_printf(&sb, "entry %s n=%d", e->name, e->n);
		ref_kv_list(&sb, "cpus", &e->cpus);
		strbuf_printf(&sb, " mode=%s", e->mode == ALLOC_SHARE ?
			      "share" : "exclusive");
		if (e->owner) {
			strbuf_puts(&sb, " owner=");
			str_escape(&sb, e->owner);
		}
		if (e->owner_start)
			strbuf_printf(&sb, " start=%llu",
				      (unsigned long long)e->owner_start);
		if (e->owner_dir) {
			strbuf_puts(&sb, " cgdir=");
			str_escape(&sb, e->owner_dir);
		}
		if (e->nmem) {
			strbuf_puts(&sb, " mem=");
			for (k = 0; k < e->nmem; k++)
				strbuf_printf(&sb, "%s%d:%llu", k ? "," : "",
					      e->mem[k].node,
					      (unsigned long long)e->mem[k].bytes);
		}
		mark = sb.len;
		strbuf_puts(&sb, " opts=");
		alloc_opts_format(&e->opts, &sb);
		if (sb.len == mark + 6)
			sb.len = mark;
		/* The fields the OCI hook adds, last. */
		if (e->hook)
			strbuf_printf(&sb, " hook=%d", e->hook_pid);
		if (e->cname) {
			strbuf_puts(&sb, " cname=");
			str_escape(&sb, e->cname);
		}
		strbuf_puts(&sb, "\n");
	}
	strbuf_printf(out, "cpm-alloc-state 3\nchecksum xxh64:%016llx\n",
		      (unsigned long long)xxh64(0, sb.buf ? sb.buf : "",
						sb.len));
	strbuf_add(out, sb.buf ? sb.buf : "", sb.len);
	strbuf_free(&sb);
}

/*
 * body under the header and checksum of a version v file into out: the
 * FNV-1a 64 of versions 1 and 2, the XXH64 of version 3.
 */
static void
with_header_v(struct strbuf *out, int v, const char *body_text, size_t len)
{
	strbuf_init(out);
	if (v < 3)
		strbuf_printf(out, "cpm-alloc-state %d\nchecksum fnv1a64:"
			      "%016llx\n", v, (unsigned long long)
			      fnv1a64(FNV64_INIT, body_text, len));
	else
		strbuf_printf(out, "cpm-alloc-state %d\nchecksum xxh64:"
			      "%016llx\n", v, (unsigned long long)
			      xxh64(0, body_text, len));
	strbuf_add(out, body_text, len);
}

/* body as cpm-alloc writes it (version 3) into out. */
static void
with_header(struct strbuf *out, const char *body_text, size_t len)
{
	with_header_v(out, 3, body_text, len);
}

/* Whether state_format(st) is what ref_format(st) writes. */
static bool
same_as_ref(const struct alloc_state *st, struct strbuf *got)
{
	struct strbuf want;
	bool same;

	strbuf_init(got);
	strbuf_init(&want);
	state_format(st, got);
	ref_format(st, &want);
	same = got->len == want.len && memcmp(got->buf, want.buf,
					      got->len) == 0;
	if (!same)
		printf("# got:\n%s# want:\n%s", got->buf, want.buf);
	strbuf_free(&want);
	return same;
}

static const char head[] =
	"topology possible=0-63 online=0-63 nodes=0-1 sockets=1 cores=32 "
	"threads=2 hash=0123456789abcdef\n"
	"reserved \nstrict no\npolicy -\n";

/*
 * Lines state_parse() takes that cpm-alloc writes otherwise: each is
 * written as the fields say, never copied.
 */
static const char *const odd_lines[] = {
	"entry a n=2 cpus=0,1 mode=exclusive\n",
	"entry a n=2 cpus=3,1 mode=exclusive\n",
	"entry a n=2 cpus=0-3:1/2 mode=exclusive\n",
	"entry a n=1 cpus=1-1 mode=exclusive\n",
	"entry a n=0 cpus=, mode=exclusive\n",
	"entry  a n=1 cpus=1 mode=exclusive\n",
	"entry a  n=1 cpus=1 mode=exclusive\n",
	"entry a n=1 cpus=1 mode=exclusive \n",
	"entry a cpus=1 n=1 mode=exclusive\n",
	"entry a n=1 n=1 cpus=1 mode=exclusive\n",
	"entry a n=1 cpus=5 cpus=1 mode=exclusive\n",
	"entry a n=1 cpus=1 mode=share mode=exclusive\n",
	"entry a n=%31 cpus=1 mode=exclusive\n",
	"entry a n=1 cpus=1 mode=exclusive owner=pid:%34%32\n",
	"entry a n=1 cpus=1 mode=exclusive owner=pid:4\t2\n",
	"entry a n=1 cpus=1 mode=exclusive owner=pid:42 start=0\n",
	"entry a n=1 cpus=1 mode=exclusive start=7 owner=pid:42\n",
	"entry a n=1 cpus=1 mode=exclusive cgdir=/a%2fb\n",
	"entry a n=1 cpus=1 mode=exclusive mem=\n",
	"entry a n=1 cpus=1 mode=exclusive mem=,0:5\n",
	"entry a n=1 cpus=1 mode=exclusive mem=0:5,\n",
	"entry a n=1 cpus=1 mode=exclusive mem=0:5,,1:6\n",
	"entry a n=1 cpus=1 mode=exclusive mem= mem=0:5\n",
	"entry a n=1 cpus=1 mode=exclusive opts=\n",
	"entry a n=1 cpus=1 mode=exclusive opts=prefer-l3,full-cores\n",
	"entry a n=1 cpus=1 mode=exclusive opts=full-cores,full-cores\n",
	"entry a n=1 cpus=1 mode=exclusive opts=,full-cores\n",
	"entry a n=1 cpus=1 mode=exclusive opts=full-cores opts=spread-cores\n",
	"entry a n=1 cpus=1 mode=exclusive mem=0:5 cgdir=/x\n",
	"entry a n=1 cpus=1 mode=exclusive hook=7 owner=cgroup:c\n",
};

/* Lines cpm-alloc writes: copied as they are. */
static const char *const plain_lines[] = {
	"entry a n=0 cpus= mode=exclusive\n",
	"entry a n=4 cpus=0-1,3,5 mode=share\n",
	"entry a/b:c@d-e.f_g n=1 cpus=63 mode=exclusive owner=pid:42 "
	"start=1234 cgdir=/sys/x mem=0:1,1:18446744073709551615 "
	"opts=full-cores,spread-cores,prefer-l3,align-socket,distribute=2,"
	"closest-numa,numa-policy=restricted\n",
	"entry a n=1 cpus=1 mode=exclusive owner=cgroup:/a start=18446744073709551615\n",
	"entry a n=1 cpus=1 mode=exclusive opts=distribute\n",
	"entry c n=1 cpus=1 mode=exclusive owner=cgroup:machine/c start=99 "
	"cgdir=/sys/fs/cgroup/cpuset/machine/c hook=1234\n",
	"entry c n=0 cpus= mode=share owner=cgroup:machine/c hook=0\n",
	"entry c n=1 cpus=1 mode=exclusive owner=cgroup:machine/c hook=5 "
	"cname=web-7d9f/nginx\n",
};

/* Every line alone, between two plain entries, written as 0.1.0 did. */
static void
test_lines(void)
{
	struct alloc_state st;
	struct strbuf b, in, out;
	char err[256];
	size_t i;
	int bad_parse = 0, differ = 0, copied_odd = 0, fresh_plain = 0;

	for (i = 0; i < sizeof(odd_lines) / sizeof(odd_lines[0]) +
		    sizeof(plain_lines) / sizeof(plain_lines[0]); i++) {
		size_t nodd = sizeof(odd_lines) / sizeof(odd_lines[0]);
		bool odd = i < nodd;
		const char *line = odd ? odd_lines[i] : plain_lines[i - nodd];

		strbuf_init(&b);
		strbuf_puts(&b, head);
		strbuf_puts(&b, "entry x n=1 cpus=9 mode=exclusive\n");
		strbuf_puts(&b, line);
		strbuf_puts(&b, "entry z n=1 cpus=10 mode=share\n");
		with_header(&in, b.buf, b.len);
		if (state_parse(&st, in.buf, in.len, err, sizeof(err)) < 0) {
			printf("# %s: %s\n", line, err);
			bad_parse++;
		} else {
			if (!same_as_ref(&st, &out))
				differ++;
			if (odd && st.entries[1].src.line)
				copied_odd++;
			if (!odd && (!st.entries[1].src.line ||
				     out.len != in.len ||
				     memcmp(out.buf, in.buf, in.len) != 0))
				fresh_plain++;
			strbuf_free(&out);
			state_free(&st);
		}
		strbuf_free(&b);
		strbuf_free(&in);
	}
	CHECK("every line variant parses", bad_parse == 0);
	CHECK("every line is written as cpm-alloc 0.1.0 wrote it",
	      differ == 0);
	CHECK("no line cpm-alloc writes otherwise is copied",
	      copied_odd == 0);
	CHECK("lines cpm-alloc writes are copied, file unchanged",
	      fresh_plain == 0);
}

/* Damaged entry lines, refused with the messages cpm-alloc 0.1.0 gave. */
static const struct {
	const char *line, *err;
} bad_lines[] = {
	{ "entry a n=1x cpus=1 mode=exclusive\n",
	  "line 8: bad n '1x'" },
	{ "entry a n=01 cpus=1 mode=exclusive\n",
	  "line 8: bad n '01'" },
	{ "entry a n=65537 cpus=1 mode=exclusive\n",
	  "line 8: bad n '65537'" },
	{ "entry a n= cpus=1 mode=exclusive\n",
	  "line 8: bad n ''" },
	{ "entry a n=2 cpus=1 mode=exclusive\n",
	  "line 8: entry 'a' has 1 CPUs, not 2" },
	{ "entry a n=1 cpus=1 mode=exclusivex\n",
	  "line 8: bad mode 'exclusivex'" },
	{ "entry a n=1 cpus=1 mode=exclusiv\n",
	  "line 8: bad mode 'exclusiv'" },
	{ "entry a n=1 cpus=0- mode=exclusive\n",
	  "line 8: bad cpus list: '0-': not a number or range" },
	{ "entry a n=1 cpus=65536 mode=exclusive\n",
	  "line 8: bad cpus list: '65536': number too large" },
	{ "entry a$b n=1 cpus=1 mode=exclusive\n",
	  "line 8: bad entry name" },
	{ "entry  n=1 cpus=1 mode=exclusive\n",
	  "line 8: bad entry name" },
	{ "entry a n cpus=1 mode=exclusive\n",
	  "line 8: bad entry field 'n'" },
	{ "entry a n=1 cpus=1 mode=exclusive foo=1\n",
	  "line 8: unknown or repeated entry field 'foo'" },
	{ "entry a n=%zz cpus=1 mode=exclusive\n",
	  "line 8: bad escape in field 'n'" },
	{ "entry a n=1 cpus=1 mode=exclusive owner=pid:1 owner=pid:2\n",
	  "line 8: unknown or repeated entry field 'owner'" },
	{ "entry a n=1 cpus=1 mode=exclusive owner=x\n",
	  "line 8: bad owner 'x'" },
	{ "entry a n=1 cpus=1 mode=exclusive cgdir=x\n",
	  "line 8: bad cgroup directory" },
	{ "entry a n=1 cpus=1 mode=exclusive hook=x\n",
	  "line 8: bad container process 'x'" },
	{ "entry a n=1 cpus=1 mode=exclusive hook=007\n",
	  "line 8: bad container process '007'" },
	{ "entry a n=1 cpus=1 mode=exclusive hook=1 hook=2\n",
	  "line 8: unknown or repeated entry field 'hook'" },
	{ "entry a n=1 cpus=1 mode=exclusive cname=\n",
	  "line 8: bad container name ''" },
	{ "entry a n=1 cpus=1 mode=exclusive cname=a cname=b\n",
	  "line 8: unknown or repeated entry field 'cname'" },
	{ "entry a n=1 cpus=1 mode=exclusive start=-1\n",
	  "line 8: bad start time '-1'" },
	{ "entry a n=1 cpus=1 mode=exclusive mem=0:1 mem=1:1\n",
	  "line 8: unknown or repeated entry field 'mem'" },
	{ "entry a n=1 cpus=1 mode=exclusive mem=1:1,0:1\n",
	  "line 8: bad memory booking '0'" },
	{ "entry a n=1 cpus=1 mode=exclusive opts=bogus\n",
	  "line 8: bad options 'bogus'" },
	{ "entry a n=1 cpus=1\n",
	  "line 8: entry 'a' lacks n, cpus or mode" },
	{ "entry a\n",
	  "line 8: entry 'a' lacks n, cpus or mode" },
	{ "entry \n",
	  "line 8: bad entry name" },
	{ "entry x n=1 cpus=2 mode=exclusive\n",
	  "line 8: entry 'x' appears twice" },
	{ "entry a n=1 cpus=1 mode=exclusive cpus=2\n",
	  "" },
	{ "entry a n=1 cpu=1 mode=exclusive\n",
	  "line 8: unknown or repeated entry field 'cpu'" },
	{ "entry a n=1 cpus=1 mode=exclusive nn=1\n",
	  "line 8: unknown or repeated entry field 'nn'" },
	{ "entry a n=1 cpus=0,1 mode=exclusive\n",
	  "line 8: entry 'a' has 2 CPUs, not 1" },
	{ "entry a n=2 cpus=0-2,5 mode=exclusive\n",
	  "line 8: entry 'a' has 4 CPUs, not 2" },
	{ "entry a n=2 cpus=5 cpus=0-2 mode=exclusive\n",
	  "line 8: entry 'a' has 3 CPUs, not 2" },
	{ "entry a n= cpus= mode=share\n",
	  "line 8: bad n ''" },
	{ "entry a n=0 cpus= mode=shared\n",
	  "line 8: bad mode 'shared'" },
	{ "entry a n=0 cpus= mode=share \n",
	  "" },
	{ "entry a n=0 cpus= mode=exclusive\tx\n",
	  "line 8: bad mode 'exclusive\tx'" },
	{ "entry a n=00 cpus= mode=share\n",
	  "line 8: bad n '00'" },
};

static void
test_errors(void)
{
	struct alloc_state st;
	struct strbuf b, in;
	char err[256], msg[160], name[STATE_NAME_MAX + 2];
	size_t i;
	int k;

	for (i = 0; i < sizeof(bad_lines) / sizeof(bad_lines[0]); i++) {
		int r;

		strbuf_init(&b);
		strbuf_puts(&b, head);
		strbuf_puts(&b, "entry x n=1 cpus=9 mode=exclusive\n");
		strbuf_puts(&b, bad_lines[i].line);
		with_header(&in, b.buf, b.len);
		err[0] = '\0';
		r = state_parse(&st, in.buf, in.len, err, sizeof(err));
		snprintf(msg, sizeof(msg), "line '%.*s': %s",
			 (int)strlen(bad_lines[i].line) - 1, bad_lines[i].line,
			 bad_lines[i].err[0] ? "refused as before" :
			 "read as before");
		CHECK_STR(msg, err, bad_lines[i].err);
		if (r == 0)
			state_free(&st);
		strbuf_free(&b);
		strbuf_free(&in);
	}
	/* Names of STATE_NAME_MAX characters pass, one more does not. */
	for (k = 0; k < 2; k++) {
		int r;

		memset(name, 'a', sizeof(name));
		name[STATE_NAME_MAX + k] = '\0';
		strbuf_init(&b);
		strbuf_puts(&b, head);
		strbuf_printf(&b, "entry %s n=0 cpus= mode=share\n", name);
		with_header(&in, b.buf, b.len);
		err[0] = '\0';
		r = state_parse(&st, in.buf, in.len, err, sizeof(err));
		CHECK_STR(k ? "a name too long is refused" :
			  "the longest name is read", err,
			  k ? "line 7: bad entry name" : "");
		if (r == 0)
			state_free(&st);
		strbuf_free(&b);
		strbuf_free(&in);
	}
}

/*
 * Each way an entry can change, on a state large enough that the
 * checksum resumes from a recorded point: the file changes, and is what
 * 0.1.0 writes.
 */
static void
test_changes(void)
{
	static const char *const what[] = {
		"none", "cpus", "n", "mode", "owner", "owner in place",
		"start", "cgdir", "mem", "mem in place", "opts", "name",
		"added", "removed", "removed first", "cpus in place",
	};
	struct alloc_state st;
	struct strbuf b, in, out;
	char err[256], msg[128];
	size_t w;
	int i;

	strbuf_init(&b);
	strbuf_puts(&b, head);
	for (i = 0; i < 300; i++)
		strbuf_printf(&b, "entry e%d n=1 cpus=%d mode=exclusive "
			      "owner=pid:%d start=%d cgdir=/c%d mem=0:%d "
			      "opts=full-cores\n", i, i % 64, i + 100,
			      i + 7, i, i * 4096);
	with_header(&in, b.buf, b.len);
	strbuf_free(&b);
	for (w = 0; w < sizeof(what) / sizeof(what[0]); w++) {
		struct alloc_entry *e, ne;
		bool unchanged;

		if (state_parse(&st, in.buf, in.len, err, sizeof(err)) < 0) {
			CHECK("300 entries parse", 0);
			break;
		}
		e = &st.entries[150];
		switch (w) {
		case 1:
			cpuset_clear(&e->cpus, (unsigned int)(150 % 64));
			cpuset_set(&e->cpus, 63);
			break;
		case 2:
			e->n = 2;
			break;
		case 3:
			e->mode = ALLOC_SHARE;
			break;
		case 4:
			free(e->owner);
			e->owner = strdup("pid:251");	/* the same size */
			break;
		case 5:
			e->owner[4] = '9';
			break;
		case 6:
			e->owner_start++;
			break;
		case 7:
			free(e->owner_dir);
			e->owner_dir = strdup("/d150");
			break;
		case 8:
			e->mem[0].bytes += 1;
			break;
		case 9:
			e->mem[0].node = 1;
			break;
		case 10:
			e->opts.k.full_cores = false;
			e->opts.closest = true;
			break;
		case 11:
			e->name[1] = 'x';
			break;
		case 12:
			memset(&ne, 0, sizeof(ne));
			ne.name = strdup("new");
			ne.mode = ALLOC_SHARE;
			state_add(&st, &ne);
			break;
		case 13:
			state_remove(&st, 150);
			break;
		case 14:
			state_remove(&st, 0);
			break;
		case 15:
			/* The same set, in storage grown under it. */
			cpuset_set(&e->cpus, 1000);
			cpuset_clear(&e->cpus, 1000);
			cpuset_clear(&e->cpus, (unsigned int)(150 % 64));
			break;
		}
		unchanged = w == 0;
		snprintf(msg, sizeof(msg), "change '%s': written as 0.1.0 "
			 "writes it", what[w]);
		CHECK(msg, same_as_ref(&st, &out));
		snprintf(msg, sizeof(msg), "change '%s': the file %s", what[w],
			 unchanged ? "stays as it was" : "changes");
		CHECK(msg, (out.len == in.len &&
			    memcmp(out.buf, in.buf, in.len) == 0) == unchanged);
		strbuf_free(&out);
		state_free(&st);
	}
	strbuf_free(&in);
}

/* Fields an entry did not have, given to it: the file changes. */
static void
test_additions(void)
{
	static const char *const what[] = {
		"owner", "start", "cgdir", "mem", "opts",
	};
	struct alloc_state st;
	struct strbuf b, in, out;
	char err[256], msg[128];
	size_t w;
	int i;

	strbuf_init(&b);
	strbuf_puts(&b, head);
	for (i = 0; i < 50; i++)
		strbuf_printf(&b, "entry e%d n=1 cpus=%d mode=exclusive\n", i, i);
	with_header(&in, b.buf, b.len);
	strbuf_free(&b);
	for (w = 0; w < sizeof(what) / sizeof(what[0]); w++) {
		struct alloc_entry *e;

		if (state_parse(&st, in.buf, in.len, err, sizeof(err)) < 0) {
			CHECK("50 bare entries parse", 0);
			break;
		}
		e = &st.entries[20];
		switch (w) {
		case 0:
			e->owner = strdup("pid:7");
			break;
		case 1:
			e->owner_start = 99;
			break;
		case 2:
			e->owner_dir = strdup("/sys/x");
			break;
		case 3:
			e->mem = calloc(1, sizeof(*e->mem));
			e->nmem = 1;
			break;
		case 4:
			e->opts.k.align_socket = true;
			break;
		}
		snprintf(msg, sizeof(msg), "%s added: written as 0.1.0 writes "
			 "it, and the file changes", what[w]);
		CHECK(msg, same_as_ref(&st, &out) && out.len != in.len);
		strbuf_free(&out);
		state_free(&st);
	}
	strbuf_free(&in);
}

/* A change in any word of a large set shows (the digest reads by fours). */
static void
test_words(void)
{
	static const unsigned int drop[] = { 22, 300, 22, 300, 200 },
		add[] = { 23, 301, 100, 200, 201 }, in_entry[] = { 0, 0, 0, 0, 1 };
	struct alloc_state st;
	struct strbuf b, in, out;
	char err[256], msg[128];
	size_t w;

	strbuf_init(&b);
	strbuf_puts(&b, head);
	strbuf_puts(&b, "entry h n=2 cpus=22,300 mode=exclusive\n"
		    "entry k n=2 cpus=200,300 mode=exclusive\n");
	with_header(&in, b.buf, b.len);
	strbuf_free(&b);
	for (w = 0; w < sizeof(drop) / sizeof(drop[0]); w++) {
		if (state_parse(&st, in.buf, in.len, err, sizeof(err)) < 0) {
			CHECK("entries of CPUs 22 or 200 and 300 parse", 0);
			break;
		}
		cpuset_clear(&st.entries[in_entry[w]].cpus, drop[w]);
		cpuset_set(&st.entries[in_entry[w]].cpus, add[w]);
		snprintf(msg, sizeof(msg), "CPU %u for CPU %u: the file changes "
			 "as 0.1.0 writes it", add[w], drop[w]);
		CHECK(msg, same_as_ref(&st, &out) &&
		      (out.len != in.len || memcmp(out.buf, in.buf, in.len)));
		strbuf_free(&out);
		state_free(&st);
	}
	strbuf_free(&in);
}

/* A state file of body b (checksummed) at path, replaced by rename. */
static int
put_state(const char *path, const char *b)
{
	struct strbuf f;
	int r;

	with_header(&f, b, strlen(b));
	r = f.buf ? write_file_atomic(path, f.buf, f.len, &mode_0644) : -ENOMEM;
	strbuf_free(&f);
	return r;
}

/*
 * state_reload(): the state read before the lock is kept only while the
 * path names the very file it was read from, unchanged.
 */
static void
test_reload(void)
{
	char dir[] = "/tmp/cpm-test-state-XXXXXX", path[256], err[256];
	struct alloc_state st;
	char *more;
	FILE *f;

	if (!mkdtemp(dir)) {
		CHECK("mkdtemp", 0);
		return;
	}
	snprintf(path, sizeof(path), "%s/state", dir);
	more = malloc(strlen(body) + 64);
	if (!more) {
		CHECK("malloc", 0);
		return;
	}
	strcpy(more, body);
	strcat(more, "entry extra n=1 cpus=2 mode=exclusive\n");

	CHECK("reload: a state is written", put_state(path, body) == 0);
	CHECK("reload: and read", state_load(&st, path, err, sizeof(err)) ==
	      0 && st.nentries == 2 && st.held.open);
	/* A mark a second read would undo ("strict yes" in the file). */
	st.strict = false;
	CHECK("reload: an unchanged file is not read again",
	      state_reload(&st, path, err, sizeof(err)) == 0 &&
	      !st.strict && st.nentries == 2);

	/* Another writer's change, as every writer makes it. */
	CHECK("reload: a change renamed into place",
	      put_state(path, more) == 0);
	CHECK("reload: is read", state_reload(&st, path, err,
					      sizeof(err)) == 0 &&
	      st.nentries == 3 && strcmp(st.entries[2].name, "extra") == 0);

	/* The same bytes in a new file: read again, the same state. */
	CHECK("reload: the same bytes renamed into place",
	      put_state(path, more) == 0);
	CHECK("reload: give the same state", state_reload(&st, path, err,
							  sizeof(err)) == 0 &&
	      st.nentries == 3);

	/* Written in place (not by cpm): its size changed. */
	f = fopen(path, "a");
	if (f) {
		fputs("entry tail n=0 cpus= mode=share\n", f);
		fclose(f);
	}
	CHECK("reload: a file written in place is read again (and refused: "
	      "its checksum)", f && state_reload(&st, path, err,
						 sizeof(err)) == -EBADMSG &&
	      !st.held.open);

	CHECK("reload: read once more", put_state(path, body) == 0 &&
	      state_load(&st, path, err, sizeof(err)) == 0);
	unlink(path);
	CHECK("reload: a file removed since leaves no state",
	      state_reload(&st, path, err, sizeof(err)) == 0 && !st.exists &&
	      st.nentries == 0);
	state_free(&st);
	free(more);
	rmdir(dir);
}

/* The state file text f written to path (as cpm does, by rename). */
static int
put_file(const char *path, const struct strbuf *f)
{
	return f->buf ? write_file_atomic(path, f->buf, f->len, &mode_0644) : -ENOMEM;
}

/*
 * Whether state_save(), which writes the file as the text is made (the
 * lines as read straight from them, the checksum resumed where the text
 * parts from the one read), writes what state_format() makes whole.
 */
static int saved_checks, saved_differ;

static bool
saved_as_formatted(const struct alloc_state *st)
{
	char path[] = "/tmp/cpm-test-saved-XXXXXX", err[256];
	struct strbuf f;
	char *text = NULL;
	size_t len = 0;
	bool same;
	int fd = mkstemp(path);

	if (fd >= 0)
		close(fd);
	strbuf_init(&f);
	state_format(st, &f);
	same = fd >= 0 && state_save(st, path, err, sizeof(err)) == 0 &&
	       read_file_at(AT_FDCWD, path, NULL, &text, &len) == 0 &&
	       len == f.len && memcmp(text, f.buf, len) == 0;
	if (!same)
		printf("# saved differs from formatted (%zu against %zu "
		       "bytes)\n", len, f.len);
	saved_checks++;
	saved_differ += !same;
	free(text);
	strbuf_free(&f);
	unlink(path);
	return same;
}

/*
 * One state read whole (state_load()) and for the names want (state_load_named())
 * from the file at path, compared: the same answer, the same pools, and
 * the same file written unchanged, with an entry added, and with the
 * names wanted released.  Returns the number of differences (0 when both
 * refuse the file alike); *named_left gets the lines the named read left.
 */
static int
named_like_whole(const char *path, char *const *want, int nwant,
		 int *named_left)
{
	struct alloc_state w, n;
	struct cpuset on = CPUSET_INIT, a = CPUSET_INIT, b = CPUSET_INIT;
	struct strbuf fw, fn;
	char ew[256] = "", en[256] = "";
	int rw, rn, diff = 0, step;

	rw = state_load(&w, path, ew, sizeof(ew));
	rn = state_load_named(&n, path, want, nwant, en, sizeof(en));
	*named_left = rn == 0 ? n.nleft : 0;
	if (rw != rn || strcmp(ew, en) != 0) {
		printf("# whole %d '%s', named %d '%s'\n", rw, ew, rn, en);
		diff++;
	}
	if (rw < 0 || rn < 0)
		goto out;
	cpuset_set_range(&on, 0, 4095);
	state_available(&w, &on, NULL, &a);
	state_available(&n, &on, NULL, &b);
	diff += !cpuset_equal(&a, &b);
	state_shared(&w, &on, &a);
	state_shared(&n, &on, &b);
	diff += !cpuset_equal(&a, &b);
	for (step = 0; step < 3; step++) {
		if (step == 1) {
			struct alloc_entry e[2];
			int k;

			/* A take: a new entry after the others. */
			for (k = 0; k < 2; k++) {
				memset(&e[k], 0, sizeof(e[k]));
				e[k].name = strdup("new");
				e[k].n = 2;
				cpuset_set_range(&e[k].cpus, 20, 21);
				state_add(k ? &n : &w, &e[k]);
			}
		} else if (step == 2) {
			/* A release of the names (and of the new one). */
			int rrw = state_remove_named(&w, want, nwant, ew,
						     sizeof(ew));
			int rrn = state_remove_named(&n, want, nwant, en,
						     sizeof(en));

			if (rrw != rrn || strcmp(ew, en) != 0) {
				printf("# release: whole %d '%s', named %d "
				       "'%s'\n", rrw, ew, rrn, en);
				diff++;
			}
			if (rrw < 0) {
				char *newname[] = { "new" };

				state_remove_named(&w, newname, 1, ew,
						   sizeof(ew));
				state_remove_named(&n, newname, 1, en,
						   sizeof(en));
			}
		}
		strbuf_init(&fw);
		strbuf_init(&fn);
		state_format(&w, &fw);
		state_format(&n, &fn);
		diff += !saved_as_formatted(&w) + !saved_as_formatted(&n);
		if (fw.len != fn.len || memcmp(fw.buf, fn.buf, fw.len) != 0) {
			printf("# step %d: whole:\n%s# named:\n%s", step,
			       fw.buf, fn.buf);
			diff++;
		}
		strbuf_free(&fw);
		strbuf_free(&fn);
	}
	state_free(&w);
	state_free(&n);
out:
	cpuset_free(&on);
	cpuset_free(&a);
	cpuset_free(&b);
	return diff;
}

/*
 * A state read for some names (state_load_named(), as take and release
 * read it) answers and writes what the whole state does, for every kind
 * of line, wanted or not, and refuses every damaged line alike.
 */
static void
test_named(void)
{
	static char *const wants[][2] = {
		{ "a", NULL }, { "x", NULL }, { "z", NULL }, { "nope", NULL },
		{ "a", "z" }, { "z", "x" },
	};
	char dir[] = "/tmp/cpm-test-state-XXXXXX", path[256], err[256];
	size_t nodd = sizeof(odd_lines) / sizeof(odd_lines[0]);
	size_t nplain = sizeof(plain_lines) / sizeof(plain_lines[0]);
	size_t nbad = sizeof(bad_lines) / sizeof(bad_lines[0]);
	struct alloc_state st;
	struct strbuf b, f;
	size_t i, k;
	int diff = 0, left, left_plain = 0, left_odd = 0;

	if (!mkdtemp(dir)) {
		CHECK("mkdtemp", 0);
		return;
	}
	snprintf(path, sizeof(path), "%s/state", dir);
	for (i = 0; i < nodd + nplain + nbad; i++) {
		const char *line = i < nodd ? odd_lines[i] :
				   i < nodd + nplain ? plain_lines[i - nodd] :
				   bad_lines[i - nodd - nplain].line;

		strbuf_init(&b);
		strbuf_puts(&b, head);
		strbuf_puts(&b, "entry x n=1 cpus=9 mode=exclusive\n");
		strbuf_puts(&b, line);
		strbuf_puts(&b, "entry z n=2 cpus=10,4000 mode=share\n");
		strbuf_puts(&b, "entry y n=1 cpus=130 mode=exclusive\n");
		/* A short last line: read where it is, up to the file's end. */
		strbuf_puts(&b, "entry w n=0 cpus= mode=share\n");
		with_header(&f, b.buf, b.len);
		if (put_file(path, &f) < 0) {
			CHECK("a state is written", 0);
			break;
		}
		for (k = 0; k < sizeof(wants) / sizeof(wants[0]); k++) {
			int d = named_like_whole(path, wants[k],
						 wants[k][1] ? 2 : 1, &left);

			if (d)
				printf("# line %s# wanted %s %s\n", line,
				       wants[k][0], wants[k][1] ? wants[k][1] :
				       "");
			diff += d;
			/* Wanting neither a nor the others' names: */
			if (k == 3 && i >= nodd && i < nodd + nplain &&
			    left == 5)
				left_plain++;
			if (k == 3 && i < nodd && left == 4)
				left_odd++;
		}
		strbuf_free(&b);
		strbuf_free(&f);
	}
	CHECK("read for some names: the same answers, pools and files as "
	      "read whole, for every line", diff == 0);
	CHECK("a plain line of another name stays a line",
	      left_plain == 2);
	CHECK("a line cpm writes otherwise is read (and written afresh)",
	      left_odd == (int)nodd);

	/* Repeated names among lines left, or left and read. */
	for (k = 0; k < 3; k++) {
		char *want[] = { k == 0 ? "nope" : k == 1 ? "e3" : "e700" };
		char msg[120];

		many_entries(&f, 1000, 700, 3);
		put_file(path, &f);
		strbuf_free(&f);
		diff = named_like_whole(path, want, 1, &left);
		snprintf(msg, sizeof(msg), "a repeated name, wanting '%s': "
			 "refused alike", want[0]);
		CHECK(msg, diff == 0 && state_load_named(&st, path, want, 1,
							  err, sizeof(err)) ==
		      -EBADMSG && strcmp(err, "line 707: entry 'e3' appears "
				  "twice") == 0);
	}
	/*
	 * The last line, read where it is, ends the file: a short one
	 * after more than a page (under AddressSanitizer, a compare past
	 * the text read shows).
	 */
	strbuf_init(&b);
	strbuf_puts(&b, head);
	for (k = 0; k < 200; k++)
		strbuf_printf(&b, "entry p%zu n=0 cpus= mode=exclusive\n", k);
	strbuf_puts(&b, "entry q n=0 cpus= mode=share\n");
	with_header(&f, b.buf, b.len);
	{
		char *want[] = { "nope" };

		CHECK("a short share line at the end of a large file is read "
		      "where it is", put_file(path, &f) == 0 &&
		      named_like_whole(path, want, 1, &left) == 0 &&
		      left == 201);
		CHECK("... and from text in memory",
		      state_parse_named(&st, f.buf, f.len, want, 1, err,
					sizeof(err)) == 0 && st.nleft == 201);
		state_free(&st);
	}
	strbuf_free(&b);
	strbuf_free(&f);
	many_entries(&f, 1000, -1, 0);
	put_file(path, &f);
	strbuf_free(&f);
	{
		char *want[] = { "e500", "e2" };

		CHECK("1000 entries read for two names: the same as whole",
		      named_like_whole(path, want, 2, &left) == 0 &&
		      left == 998);
		CHECK("... which are found, the others are not",
		      state_load_named(&st, path, want, 2, err,
				       sizeof(err)) == 0 &&
		      st.nentries == 2 && state_find(&st, "e500") &&
		      state_find(&st, "e2") && !state_find(&st, "e3"));
		/* The names wanted survive a reload of another file. */
		many_entries(&f, 10, -1, 0);
		put_file(path, &f);
		strbuf_free(&f);
		CHECK("a reload reads for the same names",
		      state_reload(&st, path, err, sizeof(err)) == 0 &&
		      st.nwant == 2 && st.nleft == 9 && st.nentries == 1 &&
		      state_find(&st, "e2"));
		state_free(&st);
	}
	unlink(path);
	rmdir(dir);
}

/*
 * Versions 1 and 2 (FNV-1a 64) are read and written again as version 3
 * (XXH64) with the same body; a checksum line of the other version's
 * kind is refused, and so is every flipped bit of an old file.
 */
static void
test_versions(const struct strbuf *v3)
{
	static const struct {
		const char *version, *kind, *err;
		int r;
	} mixed[] = {
		{ "3", "fnv1a64", "line 2: missing or bad checksum line",
		  -EBADMSG },
		{ "2", "xxh64", "line 2: missing or bad checksum line",
		  -EBADMSG },
		{ "1", "xxh64", "line 2: missing or bad checksum line",
		  -EBADMSG },
		{ "4", "xxh64", "unknown state version '4' (this cpm-alloc "
		  "reads versions 1 to 3)", -EPROTONOSUPPORT },
	};
	struct alloc_state st;
	struct strbuf in, out;
	char err[256], msg[128];
	size_t body_at = strlen("cpm-alloc-state 3\nchecksum xxh64:") + 17, i;
	const char *b = v3->buf + body_at;
	size_t blen = v3->len - body_at;
	int v, r, undetected;

	for (v = 1; v <= 2; v++) {
		with_header_v(&in, v, b, blen);
		r = state_parse(&st, in.buf, in.len, err, sizeof(err));
		snprintf(msg, sizeof(msg), "a version %d file is read", v);
		CHECK(msg, r == 0 && st.nentries == 2);
		if (r == 0) {
			strbuf_init(&out);
			state_format(&st, &out);
			snprintf(msg, sizeof(msg), "a version %d file is written "
				 "as version 3, the body unchanged", v);
			CHECK(msg, out.len == v3->len &&
			      memcmp(out.buf, v3->buf, v3->len) == 0);
			strbuf_free(&out);
			state_free(&st);
		}
		undetected = 0;
		for (i = 0; i < in.len; i++) {
			in.buf[i] ^= 0x01;
			r = state_parse(&st, in.buf, in.len, err, sizeof(err));
			if (r == 0) {
				undetected++;
				state_free(&st);
			}
			in.buf[i] ^= 0x01;
		}
		snprintf(msg, sizeof(msg), "version %d: every flipped bit is "
			 "detected", v);
		CHECK(msg, undetected == 0);
		strbuf_free(&in);
	}
	/* Each version with the other kind of checksum line; a later one. */
	for (i = 0; i < sizeof(mixed) / sizeof(mixed[0]); i++) {
		strbuf_init(&in);
		strbuf_printf(&in, "cpm-alloc-state %s\nchecksum %s:%016llx\n",
			      mixed[i].version, mixed[i].kind,
			      (unsigned long long)(mixed[i].kind[0] == 'x' ?
			      xxh64(0, b, blen) : fnv1a64(FNV64_INIT, b, blen)));
		strbuf_add(&in, b, blen);
		r = state_parse(&st, in.buf, in.len, err, sizeof(err));
		snprintf(msg, sizeof(msg), "version %s, checksum %s: "
			 "refused", mixed[i].version, mixed[i].kind);
		CHECK_STR(msg, err, mixed[i].err);
		CHECK("... with its code", r == mixed[i].r);
		if (r == 0)
			state_free(&st);
		strbuf_free(&in);
	}
}

/* The file of a state of 1,000 entries e0..e999 of one CPU each (every
 * third exclusive), headed and checksummed, into f. */
static void
large_state(struct strbuf *f)
{
	struct strbuf sb;

	strbuf_init(&sb);
	strbuf_puts(&sb, head);
	for (int i = 0; i < 1000; i++)
		strbuf_printf(&sb, "entry e%d n=1 cpus=%d mode=%s\n", i, i % 64,
			      i % 3 ? "share" : "exclusive");
	with_header(f, sb.buf, sb.len);
	strbuf_free(&sb);
}

/*
 * A state of 1,000 entries (some 40 KB: pieces of text and runs of lines
 * written straight from the lines as read), saved unchanged, with an
 * entry taken, released at its start, in its middle and at its end, and
 * one entry changed: the file is what state_format() makes, and reads
 * back with its checksum right.
 */
static void
test_saved_large(void)
{
	char dir[] = "/tmp/cpm-test-large-XXXXXX", path[128], err[256];
	char *first[] = { "e0" }, *mid[] = { "e517" }, *last[] = { "e999" };
	char *const *names[] = { NULL, first, mid, last };
	struct alloc_state st;
	int step, bad = 0, reread = 0, mapped = 0;

	if (!mkdtemp(dir)) {
		CHECK("mkdtemp", 0);
		return;
	}
	snprintf(path, sizeof(path), "%s/alloc.state", dir);
	{
		struct strbuf f;

		large_state(&f);
		if (put_file(path, &f) < 0)
			bad++;
		strbuf_free(&f);
	}
	for (step = 0; step < 4; step++) {
		char *want[] = { step ? names[step][0] : "none" };

		if (state_load_named(&st, path, want, 1, err, sizeof(err)) < 0) {
			printf("# step %d: %s\n", step, err);
			bad++;
			continue;
		}
		mapped += st.held.map != NULL;
		bad += !saved_as_formatted(&st);	/* unchanged */
		if (step) {
			state_remove_named(&st, want, 1, err, sizeof(err));
			bad += !saved_as_formatted(&st);
		}
		state_free(&st);
	}
	/* read whole: an entry in the middle changed, one added */
	if (state_load(&st, path, err, sizeof(err)) == 0) {
		struct alloc_entry e;

		st.entries[400].n = 2;
		cpuset_set(&st.entries[400].cpus, 40);
		bad += !saved_as_formatted(&st);
		memset(&e, 0, sizeof(e));
		e.name = strdup("added");
		e.n = 1;
		cpuset_set(&e.cpus, 7);
		state_add(&st, &e);
		bad += !saved_as_formatted(&st);
		if (state_save(&st, path, err, sizeof(err)) < 0)
			bad++;
		state_free(&st);
		reread = state_load(&st, path, err, sizeof(err)) == 0 &&
			 st.nentries == 1001 && st.entries[400].n == 2;
		state_free(&st);
	} else {
		bad++;
	}
	CHECK("1,000 entries: the file is read into pages of its own", mapped == 4);
	CHECK("1,000 entries: every file saved is the text formatted", bad == 0);
	CHECK("... and reads back, checksum and all", reread);
	snprintf(path, sizeof(path), "rm -rf '%s'", dir);
	if (system(path) != 0)
		printf("# cannot remove %s\n", dir);
}

/*
 * A state file of many pages: cut or written in place (by
 * something other than cpm) between its read and its save, nothing is
 * saved from it, and the file is left as that writer left it.
 */
static void
test_changed_in_place(void)
{
	char dir[] = "/tmp/cpm-test-inplace-XXXXXX", path[128], err[256];
	char *want[] = { "e5" };
	struct alloc_state st;
	struct strbuf f;
	struct stat sbuf;
	int fd, r, i;

	if (!mkdtemp(dir)) {
		CHECK("mkdtemp", 0);
		return;
	}
	snprintf(path, sizeof(path), "%s/alloc.state", dir);
	large_state(&f);
	for (i = 0; i < 2; i++) {
		r = put_file(path, &f);
		r = r < 0 ? r : state_load_named(&st, path, want, 1, err,
						 sizeof(err));
		CHECK(i ? "written in place: the state is read" :
		      "cut in place: the state is read",
		      r == 0 && st.held.map != NULL);
		if (r < 0)
			continue;
		fd = open(path, O_WRONLY);
		if (i == 0) {
			r = fd >= 0 && ftruncate(fd, 100) == 0;
		} else {
			struct timespec later[2] = { { 0, UTIME_OMIT },
						     { 1, 0 } };

			r = fd >= 0 && pwrite(fd, "X", 1, 2000) == 1 &&
			    futimens(fd, later) == 0;
		}
		if (fd >= 0)
			close(fd);
		state_remove_named(&st, want, 1, err, sizeof(err));
		r = r ? state_save(&st, path, err, sizeof(err)) : 0;
		CHECK(i ? "written in place: nothing is saved, and says why" :
		      "cut in place: nothing is saved, and says why",
		      r == -ESTALE && strstr(err, "changed in place") &&
		      stat(path, &sbuf) == 0 &&
		      sbuf.st_size == (i ? (off_t)f.len : 100));
		state_free(&st);
	}
	strbuf_free(&f);
	unlink(path);
	rmdir(dir);
}

/*
 * A state of several pages cut short and written back in place, again
 * and again, by another process while it is read 10,000 times: every
 * read ends in a state, or an error that says the file is damaged or
 * changed, never in a crash (a page a reader had checked, gone under
 * it, once made the parse run off its buffer).
 */
static void
test_truncated_under_reader(void)
{
	char dir[] = "/tmp/cpm-test-trunc-XXXXXX", path[128], err[256];
	struct alloc_state st;
	struct strbuf f;
	int i, r, read_ok = 0, refused = 0, other = 0;
	pid_t child;

	if (!mkdtemp(dir)) {
		CHECK("mkdtemp", 0);
		return;
	}
	snprintf(path, sizeof(path), "%s/alloc.state", dir);
	large_state(&f);
	if (put_file(path, &f) < 0) {
		CHECK("put_file", 0);
		strbuf_free(&f);
		return;
	}
	child = fork();
	if (child == 0) {
		int fd = open(path, O_WRONLY);
		unsigned int seed = 1;

		/* gone with the reader, should it crash */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() == 1)
			_exit(1);
		for (;;) {
			/* anywhere, the header's line included */
			off_t cut = (off_t)(rand_r(&seed) % f.len);

			if (fd < 0 || ftruncate(fd, cut) < 0 ||
			    pwrite(fd, f.buf, f.len, 0) != (ssize_t)f.len)
				_exit(1);
		}
	}
	for (i = 0; i < 10000 && child > 0; i++) {
		r = state_load(&st, path, err, sizeof(err));
		if (r == 0)
			read_ok++;
		else if (r == -EBADMSG || r == -ESTALE)
			refused++;
		else if (other++ == 0)
			printf("# %d: %s\n", r, err);
		state_free(&st);
	}
	if (child > 0) {
		kill(child, SIGKILL);
		waitpid(child, NULL, 0);
	}
	printf("# 10,000 reads under truncation: %d read, %d refused\n",
	       read_ok, refused);
	CHECK("10,000 reads of a state cut under them: a state or a clean "
	      "refusal, never a crash", child > 0 && i == 10000 && other == 0);
	strbuf_free(&f);
	unlink(path);
	rmdir(dir);
}

int
main(void)
{
	struct alloc_state st;
	struct strbuf a, b;
	char err[256];
	size_t i;
	int r, undetected = 0, wrong_code = 0;

	/* A file with a correct checksum, made by hand. */
	with_header(&a, body, strlen(body));
	r = state_parse(&st, a.buf, a.len, err, sizeof(err));
	CHECK("a hand-made state parses", r == 0);
	CHECK("entries are read", st.nentries == 2 &&
	      strcmp(st.entries[1].name, "web/app") == 0);
	CHECK("escaped owners are unescaped",
	      strcmp(st.entries[1].owner, "cgroup:kube pods/x") == 0);
	CHECK("state_need finds an entry by name",
	      state_need(&st, "web/app", err, sizeof(err)) == &st.entries[1]);
	CHECK("state_need refuses a prefix of a name",
	      state_need(&st, "web", err, sizeof(err)) == NULL &&
	      strcmp(err, "no allocation named 'web'") == 0);
	CHECK("owner start times are read", st.entries[0].owner_start == 1234);
	CHECK("memory bookings are read", st.entries[0].nmem == 2 &&
	      st.entries[0].mem[0].bytes == 1073741824ULL);
	CHECK("options are read", st.policy.k.full_cores &&
	      st.policy.distribute_auto &&
	      st.entries[0].opts.numa_policy == TM_RESTRICTED);
	strbuf_init(&b);
	state_format(&st, &b);
	CHECK_STR("format reproduces the file", b.buf, a.buf);
	state_free(&st);

	for (i = 0; i < a.len; i++) {
		char *copy = malloc(a.len);

		memcpy(copy, a.buf, a.len);
		copy[i] ^= 0x01;
		r = state_parse(&st, copy, a.len, err, sizeof(err));
		if (r == 0)
			undetected++;
		else if (r != -EBADMSG && r != -EPROTONOSUPPORT)
			wrong_code++;
		if (r == 0)
			state_free(&st);
		free(copy);
	}
	CHECK("every flipped bit is detected", undetected == 0 && !wrong_code);
	undetected = 0;
	for (i = 0; i < a.len; i++) {
		r = state_parse(&st, a.buf, i, err, sizeof(err));
		if (r != -EBADMSG)
			undetected++;
		if (r == 0)
			state_free(&st);
	}
	CHECK("every truncation is detected", undetected == 0);
	test_versions(&a);
	CHECK("names: the safe charset passes",
	      state_name_valid("pod-1/c_2.x:y@z"));
	CHECK("names: spaces, quotes and empty names fail",
	      !state_name_valid("a b") && !state_name_valid("a\"") &&
	      !state_name_valid("") && !state_name_valid("a\n"));
	strbuf_free(&a);
	strbuf_free(&b);
	/*
	 * Repeated names, among enough entries that the name index grows
	 * several times: the first repetition is named with its line (the
	 * entries start on line 7).
	 */
	many_entries(&b, 1000, -1, 0);
	r = state_parse(&st, b.buf, b.len, err, sizeof(err));
	CHECK("1000 distinct names parse", r == 0 && st.nentries == 1000);
	if (r == 0)
		state_free(&st);
	strbuf_free(&b);
	many_entries(&b, 1000, 700, 3);
	r = state_parse(&st, b.buf, b.len, err, sizeof(err));
	CHECK_STR("a name repeated far down is refused at its line", err,
		  "line 707: entry 'e3' appears twice");
	CHECK("... as damage", r == -EBADMSG);
	strbuf_free(&b);
	many_entries(&b, 1000, 999, 998);
	r = state_parse(&st, b.buf, b.len, err, sizeof(err));
	CHECK_STR("the last two names alike are refused", err,
		  "line 1006: entry 'e998' appears twice");
	strbuf_free(&b);
	test_need();
	test_reload();
	test_named();
	CHECK("every state test_named() writes is saved as formatted",
	      saved_checks > 0 && saved_differ == 0);
	test_saved_large();
	test_changed_in_place();
	test_truncated_under_reader();
	test_remove();
	test_lines();
	test_errors();
	test_changes();
	test_additions();
	test_words();
	return unit_failed;
}
