// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Plans parsed in time linear in their size: the names an instance is
 * checked against are found in a hash table, so that the comparisons
 * made (plan_name_compares()) grow with the number of instances, not
 * with its square (each name compared with every earlier one took 6 s
 * for 80,000 instances).  Counted, not timed: a busy machine changes no
 * count.  And the messages of a parse: line and column, the text quoted
 * only when PLAN_QUOTE allows.
 */
#include <errno.h>

#include "unit.h"
#include "alloc/plan.h"
#include "base/strbuf.h"

/* A plan of n instances, named as a template would name them. */
static void
make_plan(struct strbuf *sb, int n, const char *extra)
{
	int i;

	sb->len = 0;
	for (i = 0; i < n; i++)
		strbuf_printf(sb, "worker-%d cpus=1 mem=64M # pool %d\n", i,
			      i % 7);
	if (extra)
		strbuf_puts(sb, extra);
}

int
main(void)
{
	static const int sizes[] = { 1000, 10000, 80000 };
	struct strbuf sb;
	struct plan p;
	char err[256], name[64];
	unsigned long cmp[3];
	int i, r, found;

	strbuf_init(&sb);
	for (i = 0; i < 3; i++) {
		make_plan(&sb, sizes[i], NULL);
		r = plan_parse(sb.buf, sb.len, 0, &p, err, sizeof(err));
		snprintf(name, sizeof(name), "%d instances parsed", sizes[i]);
		CHECK(name, r == 0 && p.n == sizes[i]);
		cmp[i] = plan_name_compares(&p);
		snprintf(name, sizeof(name), "%d instances: at most 2 name "
			 "comparisons each (%lu made)", sizes[i], cmp[i]);
		CHECK(name, cmp[i] <= 2ul * (unsigned long)sizes[i]);
		if (i == 2) {
			int k;

			found = 0;
			for (k = 0; k < sizes[i]; k++) {
				snprintf(name, sizeof(name), "worker-%d", k);
				found += plan_find(&p, name) == &p.inst[k];
			}
			CHECK("plan_find() finds every instance", found == sizes[i]);
			CHECK("... and not one that is not there",
			      plan_find(&p, "worker-80000") == NULL &&
			      plan_find(&p, "worker") == NULL);
		}
		plan_free(&p);
	}
	/* Ten times the instances, ten times the work, give or take. */
	CHECK("comparisons grow linearly (10x instances: under 20x)",
	      cmp[1] < 20 * (cmp[0] + 1));

	/* A name repeated at the end of a large plan: its line and the
	 * first one's. */
	make_plan(&sb, 80000, "  worker-41234 cpus=2\n");
	r = plan_parse(sb.buf, sb.len, 0, &p, err, sizeof(err));
	CHECK_STR("a repeated name: its line, column and the first line", err,
		  "line 80001, column 3: the instance's name is given twice "
		  "(first on line 41235)");
	CHECK("... -EINVAL and an empty plan", r == -EINVAL && p.n == 0);
	r = plan_parse(sb.buf, sb.len, PLAN_QUOTE, &p, err, sizeof(err));
	CHECK_STR("... with PLAN_QUOTE, the name", err,
		  "line 80001, column 3: instance 'worker-41234' is named "
		  "twice (first on line 41235)");

	/* Without PLAN_QUOTE no byte of the text comes out. */
	sb.len = 0;
	strbuf_puts(&sb, "a cpus=1\nb cpus=1 nodes=0-x9secret\n");
	r = plan_parse(sb.buf, sb.len, 0, &p, err, sizeof(err));
	CHECK("a bad nodelist: -EINVAL", r == -EINVAL);
	CHECK("... the message quotes nothing of it",
	      strstr(err, "secret") == NULL && strstr(err, "x9") == NULL);
	CHECK("... and names its line and column",
	      strncmp(err, "line 2, column 16: invalid nodelist", 35) == 0);
	r = plan_parse(sb.buf, sb.len, PLAN_QUOTE, &p, err, sizeof(err));
	CHECK("... quoted with PLAN_QUOTE",
	      r == -EINVAL && strstr(err, "'0-x9secret'") != NULL);
	strbuf_free(&sb);
	return unit_failed;
}
