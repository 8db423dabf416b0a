// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The cpulist grammar: the kernel's parselist test vectors, every error
 * case of the kernel parser, and what cpm adds (no leading zeros, no
 * silent truncation, a named offending part), plus set algebra.
 */
#include <errno.h>
#include <sched.h>
#include <string.h>

#include "base/cpuset.h"
#include "unit.h"

static char *
roundtrip(const char *in, int *rc, char *err, size_t errlen)
{
	static char out[4096];
	struct cpuset s = CPUSET_INIT;
	char *l;

	*rc = cpuset_parse_list(in, &s, err, errlen);
	if (*rc < 0) {
		cpuset_free(&s);
		return NULL;
	}
	l = cpuset_to_list(&s);
	snprintf(out, sizeof(out), "%s", l);
	free(l);
	cpuset_free(&s);
	return out;
}

static void
valid(const char *in, const char *want)
{
	char name[256], err[160];
	int rc;
	char *got = roundtrip(in, &rc, err, sizeof(err));

	snprintf(name, sizeof(name), "parse '%s' gives '%s'", in, want);
	if (got == NULL)
		printf("# error: %s\n", err);
	CHECK_STR(name, got, want);
}

static void
invalid(const char *in, int want_rc, const char *want_part)
{
	char name[256], err[160];
	int rc;
	char *got = roundtrip(in, &rc, err, sizeof(err));

	snprintf(name, sizeof(name), "parse '%s' fails and names '%s'", in,
		 want_part);
	if (got != NULL || rc != want_rc || strstr(err, want_part) == NULL)
		printf("# rc=%d err='%s' got='%s'\n", rc, err, got ? got : "");
	CHECK(name, got == NULL && rc == want_rc && strstr(err, want_part) != NULL);
}

static void
test_grammar(void)
{
	/* Kernel lib/test_bitmap.c parselist_tests[] (the ones without 'N'). */
	valid("0", "0");
	valid("1", "1");
	valid("0-15", "0-15");
	valid("16-31", "16-31");
	valid("0-31:1/2", "0,2,4,6,8,10,12,14,16,18,20,22,24,26,28,30");
	valid("1-31:1/2", "1,3,5,7,9,11,13,15,17,19,21,23,25,27,29,31");
	valid("0-31:1/4", "0,4,8,12,16,20,24,28");
	valid("1-31:1/4", "1,5,9,13,17,21,25,29");
	valid("0-31:4/4", "0-31");
	valid("0-31:3/4", "0-2,4-6,8-10,12-14,16-18,20-22,24-26,28-30");
	valid("1-10:8/12,8-31:24/29,0-31:0/3", "1-31");
	valid("0-1023:2/256", "0-1,256-257,512-513,768-769");
	valid("100-200:2/25", "100-101,125-126,150-151,175-176,200");
	valid("0-0:0/1", "");
	valid("  ,,  0-31:3/4  ,, 32-63:4/4  ,,  ",
	      "0-2,4-6,8-10,12-14,16-18,20-22,24-26,28-30,32-63");
	valid("", "");
	valid("\n", "");
	valid(",,  ,, ,", "");
	valid(" , ,\n", "");
	valid("0-3\n", "0-3");
	valid("3,2,1,0", "0-3");
	valid("0 1\t2,3", "0-3");
	valid("8191", "8191");
	valid("0-8191", "0-8191");
	valid("63-64", "63-64");
	valid("5,5,5", "5");

	/* The kernel's error cases. */
	invalid("10-1", -EINVAL, "'10-1'");
	invalid("0-31:1/0", -EINVAL, "'0-31:1/0'");
	invalid("0-31:0/0", -EINVAL, "'0-31:0/0'");
	invalid("0-31:10/1", -EINVAL, "'0-31:10/1'");
	invalid("5:1/2", -EINVAL, "'5:1/2'");
	invalid("0-98765432123456789:10/1", -ERANGE, "too large");
	invalid("-1", -EINVAL, "'-1'");
	invalid("-0", -EINVAL, "'-0'");
	invalid("a-31", -EINVAL, "'a-31'");
	invalid("0-a1", -EINVAL, "'0-a1'");
	invalid("0-31:", -EINVAL, "'0-31:'");
	invalid("0-31:0", -EINVAL, "'0-31:0'");
	invalid("0-31:0/", -EINVAL, "'0-31:0/'");
	invalid("0-\n", -EINVAL, "'0-'");
	invalid("al", -EINVAL, "'al'");
	invalid("0 - 3", -EINVAL, "'-'");
	/* What cpm adds. */
	invalid("4294967297", -ERANGE, "'4294967297': number too large");
	invalid("65536", -ERANGE, "too large");
	invalid("01", -EINVAL, "'01'");
	invalid("08", -EINVAL, "'08'");
	invalid("0x1", -EINVAL, "'0x1'");
	invalid("1,2,x", -EINVAL, "'x'");
	invalid("3;4", -EINVAL, "'3;4'");
	invalid("0-3\n4", -EINVAL, "after the end");
	invalid("+1", -EINVAL, "'+1'");
	invalid("!1", -EINVAL, "'!1'");
	invalid("0-10:3", -EINVAL, "'0-10:3'");
}

static void
test_algebra(void)
{
	struct cpuset a = CPUSET_INIT, b = CPUSET_INIT, c = CPUSET_INIT;
	char *l;

	cpuset_parse_list("0-3,100,8000", &a, NULL, 0);
	cpuset_parse_list("2-5,8000", &b, NULL, 0);
	CHECK("count over several words", cpuset_count(&a) == 6);
	CHECK("last of a sparse set", cpuset_last(&a) == 8000);
	CHECK("next skips empty words", cpuset_next(&a, 100) == 8000);
	cpuset_copy(&c, &a);
	cpuset_and(&c, &b);
	l = cpuset_to_list(&c);
	CHECK_STR("and", l, "2-3,8000");
	free(l);
	cpuset_copy(&c, &a);
	cpuset_andnot(&c, &b);
	l = cpuset_to_list(&c);
	CHECK_STR("andnot", l, "0-1,100");
	free(l);
	cpuset_copy(&c, &b);
	cpuset_or(&c, &a);
	l = cpuset_to_list(&c);
	CHECK_STR("or", l, "0-5,100,8000");
	free(l);
	CHECK("subset", cpuset_subset(&b, &c) && !cpuset_subset(&c, &b));
	CHECK("intersects", cpuset_intersects(&a, &b));
	CHECK("count_and", cpuset_count_and(&a, &b) == 3);
	cpuset_zero(&c);
	cpuset_set(&c, 2);
	CHECK("equal ignores capacity", !cpuset_equal(&c, &b));
	cpuset_zero(&b);
	cpuset_set(&b, 2);
	CHECK("equal across sizes", cpuset_equal(&c, &b));
	cpuset_free(&a);
	cpuset_zero(&a);
	CHECK("empty after free", cpuset_empty(&a) && cpuset_first(&a) == -1);
	cpuset_set_range(&a, 60, 200);
	l = cpuset_to_list(&a);
	CHECK_STR("set_range across words", l, "60-200");
	free(l);
	cpuset_free(&a);
	cpuset_free(&b);
	cpuset_free(&c);
}

static void
test_mask(void)
{
	struct cpuset s = CPUSET_INIT;
	char *l;

	CHECK("parse sysfs mask", cpuset_parse_mask("00000000,00155550\n", &s) == 0);
	l = cpuset_to_list(&s);
	CHECK_STR("mask bits", l, "4,6,8,10,12,14,16,18,20");
	free(l);
	CHECK("mask 0x prefix", cpuset_parse_mask("0xf0", &s) == 0 &&
	      cpuset_count(&s) == 4 && cpuset_first(&s) == 4);
	CHECK("mask junk refused", cpuset_parse_mask("12g4", &s) == -EINVAL);
	CHECK("mask empty refused", cpuset_parse_mask("\n", &s) == -EINVAL);
	cpuset_free(&s);
}

/* The kernel's masks, checked against glibc's CPU_SET_S/CPU_ISSET_S. */
static void
test_kernel_mask(void)
{
	struct cpuset s = CPUSET_INIT, back = CPUSET_INIT;
	size_t bytes = CPU_ALLOC_SIZE(256);
	cpu_set_t *m = CPU_ALLOC(256), *g = CPU_ALLOC(256);
	char err[64], *l;

	cpuset_parse_list("0,5,63-65,130,255", &s, err, sizeof(err));
	CHECK("to mask", cpuset_to_mask(&s, m, bytes) == 0);
	CPU_ZERO_S(bytes, g);
	CPU_SET_S(0, bytes, g);
	CPU_SET_S(5, bytes, g);
	CPU_SET_S(63, bytes, g);
	CPU_SET_S(64, bytes, g);
	CPU_SET_S(65, bytes, g);
	CPU_SET_S(130, bytes, g);
	CPU_SET_S(255, bytes, g);
	CHECK("to mask: the bits glibc sets", CPU_EQUAL_S(bytes, m, g));
	CHECK("from mask", cpuset_from_mask(&back, g, bytes) == 0);
	l = cpuset_to_list(&back);
	CHECK_STR("from mask: the CPUs glibc set", l, "0,5,63-65,130,255");
	free(l);
	cpuset_set(&s, 256);
	CHECK("to mask: a CPU past the mask", cpuset_to_mask(&s, m, bytes) ==
	      -ERANGE);
	CPU_FREE(m);
	CPU_FREE(g);
	cpuset_free(&s);
	cpuset_free(&back);
}

/* Masks as wide as cpm goes, and wider: converted a word at a time. */
static void
test_wide_mask(void)
{
	struct cpuset s = CPUSET_INIT, back = CPUSET_INIT;
	size_t bytes = CPU_ALLOC_SIZE(CPUSET_MAX_CPUS + 128);
	cpu_set_t *m = CPU_ALLOC(CPUSET_MAX_CPUS + 128);
	char err[64], *l;
	int i, n = 0;

	cpuset_parse_list("1,62-66,127-128,4000-4100,65535", &s, err, sizeof(err));
	CHECK("wide: to mask", cpuset_to_mask(&s, m, bytes) == 0);
	for (i = 0; i < CPUSET_MAX_CPUS + 128; i++)
		n += CPU_ISSET_S(i, bytes, m) != 0;
	CHECK("wide: as many bits as CPUs", n == (int)cpuset_count(&s));
	CHECK("wide: the last CPU", CPU_ISSET_S(CPUSET_MAX_CPUS - 1, bytes, m));
	CHECK("wide: CPU 128", CPU_ISSET_S(128, bytes, m) && !CPU_ISSET_S(129, bytes, m));
	/* Bits past the last CPU cpm can name are left out, not wrapped. */
	CPU_SET_S(CPUSET_MAX_CPUS + 3, bytes, m);
	CHECK("wide: from mask", cpuset_from_mask(&back, m, bytes) == 0);
	l = cpuset_to_list(&back);
	CHECK_STR("wide: the same CPUs back", l, "1,62-66,127-128,4000-4100,65535");
	free(l);
	/* Every CPU, as pin_self_allowed_cpus asks for them. */
	cpuset_set_range(&s, 0, CPUSET_MAX_CPUS - 1);
	CHECK("wide: every CPU to mask", cpuset_to_mask(&s, m, bytes) == 0);
	CHECK("wide: every CPU from mask", cpuset_from_mask(&back, m, bytes) == 0);
	l = cpuset_to_list(&back);
	CHECK_STR("wide: every CPU back", l, "0-65535");
	free(l);
	/* A mask of one word: only CPUs 0-63 fit. */
	cpuset_zero(&s);
	cpuset_set(&s, 63);
	CHECK("wide: one word holds CPU 63", cpuset_to_mask(&s, m, 8) == 0 &&
	      CPU_ISSET_S(63, 8, m));
	cpuset_set(&s, 64);
	CHECK("wide: one word cannot hold CPU 64", cpuset_to_mask(&s, m, 8) == -ERANGE);
	CPU_FREE(m);
	cpuset_free(&s);
	cpuset_free(&back);
}

/* Runs a walk hands over, as "a-b " each; stops after limit runs. */
struct runs {
	char text[256];
	int n, limit;
};

static int
add_run(void *arg, unsigned int first, unsigned int last)
{
	struct runs *r = arg;
	size_t len = strlen(r->text);

	if (r->limit && r->n == r->limit)
		return -ECANCELED;
	r->n++;
	snprintf(r->text + len, sizeof(r->text) - len, "%u-%u ", first, last);
	return 0;
}

static void
test_walk(void)
{
	struct runs r;
	char err[160];
	int rc;

	/* Runs come in the order written, not sorted or merged. */
	memset(&r, 0, sizeof(r));
	rc = cpuset_walk_list("8-9,0,3-5\n", add_run, &r, err, sizeof(err));
	CHECK_STR("walk list: runs in written order", r.text, "8-9 0-0 3-5 ");
	CHECK("walk list: returns 0", rc == 0);
	memset(&r, 0, sizeof(r));
	cpuset_walk_list("0-9:2/4", add_run, &r, err, sizeof(err));
	CHECK_STR("walk list: a stride gives one run per group", r.text,
		  "0-1 4-5 8-9 ");
	memset(&r, 0, sizeof(r));
	rc = cpuset_walk_list("1,2-x", add_run, &r, err, sizeof(err));
	CHECK("walk list: a syntax error is reported",
	      rc == -EINVAL && strstr(err, "2-x") != NULL);
	memset(&r, 0, sizeof(r));
	r.limit = 1;
	rc = cpuset_walk_list("1,3,5", add_run, &r, err, sizeof(err));
	CHECK("walk list: stops at fn's error and passes it on",
	      rc == -ECANCELED && r.n == 1);
	memset(&r, 0, sizeof(r));
	cpuset_walk_list("\n", add_run, &r, err, sizeof(err));
	CHECK("walk list: an empty list gives no run", r.n == 0);

	/* Masks: lowest first, runs crossing digits and commas joined. */
	memset(&r, 0, sizeof(r));
	rc = cpuset_walk_mask("00000001,f000000f\n", add_run, &r);
	CHECK_STR("walk mask: runs lowest first", r.text, "0-3 28-32 ");
	CHECK("walk mask: returns 0", rc == 0);
	memset(&r, 0, sizeof(r));
	rc = cpuset_walk_mask("g,ff", add_run, &r);
	CHECK("walk mask: a bad digit is refused", rc == -EINVAL);
	{
		/* "1" then CPUSET_MAX_CPUS / 4 zero digits: CPU 65536. */
		static char big[CPUSET_MAX_CPUS / 4 + 2];

		memset(big, '0', sizeof(big) - 1);
		big[0] = '1';
		memset(&r, 0, sizeof(r));
		rc = cpuset_walk_mask(big, add_run, &r);
		CHECK("walk mask: a CPU past the last cpm names is refused",
		      rc == -ERANGE && r.n == 0);
		big[0] = '8';
		big[1] = 'x';
		rc = cpuset_walk_mask(big + 1, add_run, &r);
		CHECK("walk mask: bad digit high up", rc == -EINVAL);
	}
	memset(&r, 0, sizeof(r));
	cpuset_walk_mask("0,00000000,0000000f,f0000000,00000000", add_run, &r);
	CHECK_STR("walk mask: a run across words of zeros", r.text, "60-67 ");
	memset(&r, 0, sizeof(r));
	r.limit = 1;
	rc = cpuset_walk_mask("5", add_run, &r);
	CHECK("walk mask: stops at fn's error", rc == -ECANCELED && r.n == 1);
}

int
main(void)
{
	test_grammar();
	test_algebra();
	test_mask();
	test_kernel_mask();
	test_wide_mask();
	test_walk();
	return unit_failed;
}
