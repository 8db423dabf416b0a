// SPDX-License-Identifier: GPL-2.0-or-later
/* The table layer: column selection, aligned/raw/TSV text, JSON rows. */
#include <errno.h>
#include <string.h>

#include "base/strbuf.h"
#include "base/table.h"
#include "unit.h"

static const struct table_column cols[] = {
	{ "CPU", "cpu", TABLE_RIGHT, 0 },
	{ "NAME", "name", 0, 0 },
	{ "ONLINE", "online", TABLE_RIGHT, 0 },
	{ "TYPE", "core_type", TABLE_RIGHT, 6 },
};

/* Rows: (7, "a", yes, -), (1000, "web server", no, "big") */
static void
fill(struct table *t, const char *sep)
{
	int r;

	table_init(t, cols, 4, sep);
	r = table_add_row(t);
	table_set_int(t, (size_t)r, 0, 7);
	table_set_str(t, (size_t)r, 1, "a");
	table_set_bool(t, (size_t)r, 2, true);
	r = table_add_row(t);
	table_set_id(t, (size_t)r, 0, 1000);
	table_set_str(t, (size_t)r, 1, "web server");
	table_set_bool(t, (size_t)r, 2, false);
	table_set_str(t, (size_t)r, 3, "big");
}

static char *
print(struct table *t, enum table_format fmt, bool headings)
{
	struct strbuf sb;

	strbuf_init(&sb);
	if (table_print(t, fmt, headings, &sb) < 0)
		return strdup("(error)");
	strbuf_add(&sb, "", 1);
	return sb.buf;
}

#define PRINT(name, t, fmt, headings, want) do {			\
	char *p_ = print(t, fmt, headings);				\
	CHECK_STR(name, p_, want);					\
	free(p_);							\
} while (0)

static void
test_text(void)
{
	struct table t;

	fill(&t, "  ");
	PRINT("aligned: numbers right, text left, a CPU past 999 widens its column",
	      &t, TABLE_ALIGNED, true,
	      " CPU  NAME        ONLINE    TYPE\n"
	      "   7  a              yes       -\n"
	      "1000  web server      no     big\n");
	PRINT("without headings, widths come from the cells",
	      &t, TABLE_ALIGNED, false,
	      "   7  a           yes       -\n"
	      "1000  web server   no     big\n");
	PRINT("raw escapes spaces and is not padded", &t, TABLE_RAW, true,
	      "CPU NAME ONLINE TYPE\n"
	      "7 a yes -\n"
	      "1000 web\\x20server no big\n");
	PRINT("tsv: tabs, no padding", &t, TABLE_TSV, true,
	      "CPU\tNAME\tONLINE\tTYPE\n"
	      "7\ta\tyes\t-\n"
	      "1000\tweb server\tno\tbig\n");
	table_free(&t);

	table_init(&t, cols, 4, " ");
	table_add_row(&t);
	table_set_str(&t, 0, 1, "x\ny\tz\\");
	table_set_str(&t, 0, 3, "caf\xc3\xa9");
	PRINT("a newline or tab in a cell cannot split a row", &t,
	      TABLE_TSV, false, "-\tx\\x0ay\\x09z\\\t-\tcaf\xc3\xa9\n");
	PRINT("raw also escapes the backslash", &t, TABLE_RAW, false,
	      "- x\\x0ay\\x09z\\x5c - caf\xc3\xa9\n");
	PRINT("UTF-8 counts one column per character", &t, TABLE_ALIGNED, true,
	      "CPU NAME         ONLINE   TYPE\n"
	      "  - x\\x0ay\\x09z\\      -   caf\xc3\xa9\n");
	table_free(&t);

	/*
	 * table_set(), not table_set_str(): each byte some format escapes
	 * or counts apart, alone in a row of plain cells (a row prints
	 * whole only when all its cells are plain).
	 */
	table_init(&t, cols, 4, " ");
	for (int r = 0; r < 4; r++) {
		table_add_row(&t);
		table_set(&t, (size_t)r, 0, r == 0 ? "1\x7f" :
			  r == 1 ? "2" : r == 2 ? "3" : "4", NULL);
		table_set(&t, (size_t)r, 1, r == 1 ? "a b" : "n", NULL);
		table_set(&t, (size_t)r, 2, r == 2 ? "~\\!" : "y", NULL);
		table_set(&t, (size_t)r, 3, r == 3 ? "\xc3\xa9" : "t", NULL);
	}
	PRINT("table_set text: DEL escaped in tsv, the rest as it is", &t,
	      TABLE_TSV, false,
	      "1\\x7f\tn\ty\tt\n"
	      "2\ta b\ty\tt\n"
	      "3\tn\t~\\!\tt\n"
	      "4\tn\ty\t\xc3\xa9\n");
	PRINT("table_set text: DEL, space and backslash escaped in raw", &t,
	      TABLE_RAW, false,
	      "1\\x7f n y t\n"
	      "2 a\\x20b y t\n"
	      "3 n ~\\x5c! t\n"
	      "4 n y \xc3\xa9\n");
	PRINT("table_set text: widths of escapes and UTF-8", &t, TABLE_ALIGNED,
	      true,
	      "  CPU NAME ONLINE   TYPE\n"
	      "1\\x7f n         y      t\n"
	      "    2 a b       y      t\n"
	      "    3 n       ~\\!      t\n"
	      "    4 n         y      \xc3\xa9\n");
	table_free(&t);

	table_init(&t, cols, 4, " ");
	PRINT("no rows: the header alone", &t, TABLE_ALIGNED, true,
	      "CPU NAME ONLINE   TYPE\n");
	PRINT("no rows, no headings: nothing", &t, TABLE_ALIGNED, false, "");
	table_free(&t);
}

static void
test_select(void)
{
	struct table t;
	char err[256];

	fill(&t, "  ");
	CHECK("a selection is case-insensitive and ordered",
	      table_select(&t, "type,Cpu", err, sizeof(err)) == 0);
	PRINT("the selected columns print in the order given", &t,
	      TABLE_RAW, true, "TYPE CPU\n- 7\nbig 1000\n");
	CHECK("a column may be named twice",
	      table_select(&t, "cpu,cpu", err, sizeof(err)) == 0 && t.nsel == 2);
	CHECK("blanks around names are ignored",
	      table_select(&t, " name , online", err, sizeof(err)) == 0);
	CHECK("an unknown column is refused",
	      table_select(&t, "cpu,nod", err, sizeof(err)) == -EINVAL);
	CHECK_STR("the message names it and every valid column", err,
		  "unknown column 'nod' (valid: CPU, NAME, ONLINE, TYPE)");
	PRINT("a refused selection leaves the old one", &t, TABLE_RAW, false,
	      "a yes\nweb\\x20server no\n");
	CHECK("an empty name is refused",
	      table_select(&t, "cpu,", err, sizeof(err)) == -EINVAL &&
	      strstr(err, "empty column name") != NULL);
	CHECK("an empty list is refused",
	      table_select(&t, "", err, sizeof(err)) == -EINVAL);
	CHECK("table_column finds a name in any case",
	      table_column(&t, "online") == 2 && table_column(&t, "x") == -1);
	table_free(&t);
}

static void
test_json(void)
{
	struct table t;
	struct strbuf sb;
	struct json j;
	char err[256];

	fill(&t, " ");
	table_set_str(&t, 0, 1, "a\xff");
	table_select(&t, "cpu,online,name,type", err, sizeof(err));
	strbuf_init(&sb);
	json_init(&j, &sb);
	table_json(&t, &j);
	strbuf_add(&sb, "", 1);
	CHECK_STR("JSON rows: selected keys in order, typed values, null",
		  sb.buf,
		  "[{\"cpu\":7,\"online\":true,\"name\":\"a\\ufffd\",\"core_type\":null},"
		  "{\"cpu\":1000,\"online\":false,\"name\":\"web server\",\"core_type\":\"big\"}]");
	strbuf_free(&sb);
	table_free(&t);

	table_init(&t, cols, 4, " ");
	strbuf_init(&sb);
	json_init(&j, &sb);
	table_json(&t, &j);
	strbuf_add(&sb, "", 1);
	CHECK_STR("no rows: an empty array", sb.buf, "[]");
	strbuf_free(&sb);
	table_free(&t);
}

static void
test_pairs(void)
{
	struct table t;
	struct strbuf sb;
	struct json j;
	char err[256];

	fill(&t, " ");
	PRINT("key=value: JSON keys, text values, '-' for unset, rows apart",
	      &t, TABLE_PAIRS, true,
	      "cpu=7\nname=a\nonline=yes\ncore_type=-\n\n"
	      "cpu=1000\nname=web server\nonline=no\ncore_type=big\n");
	table_select(&t, "type,cpu", err, sizeof(err));
	table_set_str(&t, 0, 3, "x\ny");
	PRINT("key=value: the selection in order; a newline cannot split a line",
	      &t, TABLE_PAIRS, false,
	      "core_type=x\\x0ay\ncpu=7\n\ncore_type=big\ncpu=1000\n");
	strbuf_init(&sb);
	json_init(&j, &sb);
	table_json_row(&t, 1, &j);
	strbuf_add(&sb, "", 1);
	CHECK_STR("one row as a JSON object", sb.buf,
		  "{\"core_type\":\"big\",\"cpu\":1000}");
	strbuf_free(&sb);
	table_free(&t);
}

static const struct table_column rec_cols[] = {
	{ "CPUS", "cpus", TABLE_BARE, 0 },
	{ "MEMPOLICY", "mempolicy", 0, 0 },
	{ "MEMS_ALLOWED", "mems_allowed", TABLE_OPTIONAL, 0 },
	{ "THREAD", "tid", TABLE_ROWLABEL, 0 },
};

static void
test_labelled(void)
{
	struct table t;
	struct strbuf sb;
	struct json j;
	char err[256];
	int r;

	table_init(&t, rec_cols, 4, " ");
	table_select(&t, "cpus,mempolicy,mems_allowed", err, sizeof(err));
	r = table_add_row(&t);
	table_set_str(&t, (size_t)r, 0, "0-3");
	table_set(&t, (size_t)r, 1, "bind 0", "{\"mode\":\"bind\"}");
	table_set_str(&t, (size_t)r, 2, "0\n1");
	r = table_add_row(&t);
	table_set_str(&t, (size_t)r, 0, "4");
	PRINT("labelled: bare text, lower-case names, unset optional lines "
	      "left out, unset others '-'", &t, TABLE_LABELLED, true,
	      "0-3\nmempolicy: bind 0\nmems_allowed: 0\\x0a1\n"
	      "4\nmempolicy: -\n");
	table_select(&t, "thread,mempolicy,cpus", err, sizeof(err));
	table_set_int(&t, 1, 3, 12);
	PRINT("labelled: a row label names every other line of its row",
	      &t, TABLE_LABELLED, false,
	      "thread -: bind 0\n0-3\nthread 12: -\n4\n");
	strbuf_init(&sb);
	json_init(&j, &sb);
	json_obj_begin(&j);
	table_json_members(&t, 0, &j);
	json_key(&j, "more");
	json_int(&j, 1);
	json_obj_end(&j);
	strbuf_add(&sb, "", 1);
	CHECK_STR("a row's members inside an object with others", sb.buf,
		  "{\"tid\":null,\"mempolicy\":{\"mode\":\"bind\"},"
		  "\"cpus\":\"0-3\",\"more\":1}");
	strbuf_free(&sb);
	table_free(&t);
}

int
main(void)
{
	test_text();
	test_select();
	test_json();
	test_pairs();
	test_labelled();
	return unit_failed;
}
