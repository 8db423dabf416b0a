// SPDX-License-Identifier: GPL-2.0-or-later
/* The throttle report's table: text and JSON values of each column. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "base/strbuf.h"
#include "throttle/thrtable.h"
#include "unit.h"

static char *
text(struct table *tab, enum table_format fmt)
{
	struct strbuf sb;

	strbuf_init(&sb);
	table_print(tab, fmt, true, &sb);
	strbuf_add(&sb, "", 1);
	return sb.buf;
}

static char *
json(struct table *tab)
{
	struct strbuf sb;
	struct json j;

	strbuf_init(&sb);
	json_init(&j, &sb);
	table_json(tab, &j);
	strbuf_add(&sb, "", 1);
	return sb.buf;
}

/* A flush that moves the text to the strbuf arg, noting the most held. */
static size_t most_held;

static int
move_out(struct strbuf *sb, void *arg)
{
	if (sb->len > most_held)
		most_held = sb->len;
	strbuf_add(arg, sb->buf, sb->len);
	sb->len = 0;
	return 0;
}

/*
 * thr_table_text() against the whole table printed at once, for n rows
 * of distinct values (slices of THR_SLICE: none, one, a part, several),
 * held whole and handed on a slice at a time.
 */
static void
sliced(size_t n, enum table_format fmt, bool headings, const char *label)
{
	static struct thr_row rows[1000];
	static char names[1000][24];
	struct strbuf want, got, out, sb;
	struct table tab;
	char err[256], name[160];
	const char *cols = "GROUP,PERIODS,THROTTLED,RATIO,LIMIT,USAGE,UNIT";
	int r1, r2;

	for (size_t i = 0; i < n; i++) {
		snprintf(names[i], sizeof(names[i]), "g%zu/with space", i);
		memset(&rows[i], 0, sizeof(rows[i]));
		rows[i].group = names[i];
		rows[i].periods = 1000 + i;
		rows[i].throttled = i;
		rows[i].ratio = (double)i / (double)(1000 + i);
		rows[i].limit = i % 3 ? (double)i / 7 : -1.0;
		rows[i].usage = i % 5 ? -1.0 : (double)i / 3;
	}
	strbuf_init(&want);
	strbuf_init(&got);
	r1 = thr_table_select(rows, n, cols, false, &tab, err, sizeof(err));
	if (r1 == 0) {
		r1 = table_print(&tab, fmt, headings, &want);
		table_free(&tab);
	}
	r2 = thr_table_text(rows, n, cols, fmt, headings, &got, NULL, NULL,
			    err, sizeof(err));
	snprintf(name, sizeof(name), "thr_table_text, %zu rows, %s: as the "
		 "whole table prints them", n, label);
	CHECK(name, r1 == 0 && r2 == 0 && want.len == got.len &&
	      (want.len == 0 || memcmp(want.buf, got.buf, want.len) == 0));
	strbuf_init(&out);
	strbuf_init(&sb);
	most_held = 0;
	r2 = thr_table_text(rows, n, cols, fmt, headings, &sb, move_out, &out,
			    err, sizeof(err));
	snprintf(name, sizeof(name), "thr_table_text, %zu rows, %s, handed "
		 "on a slice at a time: the same text", n, label);
	CHECK(name, r2 == 0 && sb.len == 0 && want.len == out.len &&
	      (want.len == 0 || memcmp(want.buf, out.buf, want.len) == 0));
	if (fmt != TABLE_ALIGNED && n > THR_SLICE) {
		snprintf(name, sizeof(name), "thr_table_text, %zu rows, %s: "
			 "never more than a slice's text held", n, label);
		CHECK(name, most_held > 0 &&
		      most_held <= want.len / (n / THR_SLICE) + 200);
	}
	strbuf_free(&out);
	strbuf_free(&sb);
	strbuf_free(&want);
	strbuf_free(&got);
}

int
main(void)
{
	struct thr_row rows[2];
	struct thr_ident id = { 0 };
	struct table tab;
	char err[256], *s;

	memset(rows, 0, sizeof(rows));
	rows[0].group = "kubepods/burstable/pod1/abc";
	rows[0].periods = 10;
	rows[0].throttled = 9;
	rows[0].ratio = 0.9;
	rows[0].throttled_s = 1.25;
	rows[0].limit = 0.2;
	rows[0].usage = 1.5;
	rows[0].pinned = true;
	strcpy(id.k8s.qos, "Burstable");
	strcpy(id.k8s.pod, "1");
	strcpy(id.k8s.container, "abc");
	rows[0].ident = &id;
	rows[1].group = "";		/* the root */
	rows[1].limit = -1;
	rows[1].usage = -1;
	rows[1].reset = true;

	CHECK("the table builds", thr_table(rows, 2, &tab) == 0);
	s = text(&tab, TABLE_ALIGNED);
	CHECK_STR("default columns: numbers right, max and - for none", s,
		  "GROUP                        PERIODS  THROTTLED  RATIO  THROTTLED_S  LIMIT  USAGE\n"
		  "kubepods/burstable/pod1/abc       10          9  0.900        1.250    0.2    1.5\n"
		  "/                                  0          0  0.000        0.000    max      -\n");
	free(s);
	table_select(&tab, thr_default_columns(true, false, false), err, sizeof(err));
	s = text(&tab, TABLE_TSV);
	CHECK_STR("--k8s adds QOS POD CONTAINER, '-' outside kubepods", s,
		  "GROUP\tPERIODS\tTHROTTLED\tRATIO\tTHROTTLED_S\tLIMIT\tUSAGE\tQOS\tPOD\tCONTAINER\n"
		  "kubepods/burstable/pod1/abc\t10\t9\t0.900\t1.250\t0.2\t1.5\tBurstable\t1\tabc\n"
		  "/\t0\t0\t0.000\t0.000\tmax\t-\t-\t-\t-\n");
	free(s);
	table_select(&tab, thr_default_columns(false, false, true), err, sizeof(err));
	s = json(&tab);
	CHECK_STR("JSON: more decimals, null for none, reset and pinned", s,
		  "[{\"group\":\"kubepods/burstable/pod1/abc\",\"periods\":10,"
		  "\"throttled\":9,\"ratio\":0.900000,\"throttled_s\":1.250000000,"
		  "\"limit\":0.200000,\"usage\":1.500000,\"reset\":false,"
		  "\"pinned_throttled\":true},"
		  "{\"group\":\"/\",\"periods\":0,\"throttled\":0,\"ratio\":0.000000,"
		  "\"throttled_s\":0.000000000,\"limit\":null,\"usage\":null,"
		  "\"reset\":true,\"pinned_throttled\":false}]");
	free(s);
	table_select(&tab, thr_default_columns(true, false, true), err, sizeof(err));
	s = json(&tab);
	CHECK("JSON with --k8s ends with qos, pod, container",
	      strstr(s, "\"pinned_throttled\":false,\"qos\":null,\"pod\":null,"
		     "\"container\":null}]") != NULL);
	free(s);
	table_free(&tab);

	/* thr_table_select: the list's columns, only their cells filled */
	CHECK("a bad column list is refused",
	      thr_table_select(rows, 2, "GROUP,NOPE", false, &tab, err,
			       sizeof(err)) == -EINVAL);
	CHECK("thr_table_select builds",
	      thr_table_select(rows, 2, "ratio,limit,group", false, &tab, err,
			       sizeof(err)) == 0);
	s = text(&tab, TABLE_TSV);
	CHECK_STR("the selected columns, in the list's order", s,
		  "RATIO\tLIMIT\tGROUP\n"
		  "0.900\t0.2\tkubepods/burstable/pod1/abc\n"
		  "0.000\tmax\t/\n");
	free(s);
	CHECK("unselected cells are left empty, JSON values unset for text",
	      tab.cells[0 * tab.ncols + 1].text == NULL &&
	      tab.cells[0 * tab.ncols + 0].text != NULL &&
	      tab.cells[0 * tab.ncols + 0].json == NULL);
	table_free(&tab);
	CHECK("thr_table_select with JSON builds",
	      thr_table_select(rows, 2, "group,ratio,usage,pinned_throttled",
			       true, &tab, err, sizeof(err)) == 0);
	s = json(&tab);
	CHECK_STR("JSON values of the selected columns", s,
		  "[{\"group\":\"kubepods/burstable/pod1/abc\",\"ratio\":0.900000,"
		  "\"usage\":1.500000,\"pinned_throttled\":true},"
		  "{\"group\":\"/\",\"ratio\":0.000000,\"usage\":null,"
		  "\"pinned_throttled\":false}]");
	free(s);
	table_free(&tab);

	sliced(0, TABLE_TSV, true, "TSV");
	sliced(1, TABLE_TSV, true, "TSV");
	sliced(THR_SLICE, TABLE_TSV, true, "TSV");
	sliced(1000, TABLE_TSV, true, "TSV");
	sliced(1000, TABLE_TSV, false, "TSV without headings");
	sliced(THR_SLICE + 1, TABLE_RAW, true, "raw");
	sliced(1000, TABLE_ALIGNED, true, "aligned");
	sliced(0, TABLE_ALIGNED, true, "aligned");
	{
		struct strbuf sb;

		strbuf_init(&sb);
		CHECK("thr_table_text refuses an unknown column",
		      thr_table_text(rows, 2, "GROUP,NOPE", TABLE_TSV, true,
				     &sb, NULL, NULL, err, sizeof(err)) ==
		      -EINVAL &&
		      strstr(err, "NOPE") != NULL && sb.len == 0);
		strbuf_free(&sb);
	}
	return unit_failed;
}
