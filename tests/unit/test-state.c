// SPDX-License-Identifier: GPL-2.0-or-later
/* The state file: round trip, and every damage is detected. */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "state.h"
#include "topomgr.h"
#include "unit.h"

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

int
main(void)
{
	struct alloc_state st;
	struct strbuf a, b;
	char err[256];
	size_t i;
	int r, undetected = 0, wrong_code = 0;

	/* A file with a correct checksum, made by hand. */
	strbuf_init(&a);
	strbuf_printf(&a, "cpm-alloc-state 1\nchecksum fnv1a64:%016llx\n%s",
		      (unsigned long long)fnv1a64(FNV64_INIT, body,
						  strlen(body)), body);
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
	test_remove();
	return unit_failed;
}
