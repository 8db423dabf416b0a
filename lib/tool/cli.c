// SPDX-License-Identifier: GPL-2.0-or-later
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>
#include <sys/ioctl.h>

#include "base/lock.h"
#include "base/num.h"
#include "base/strbuf.h"
#include "tool/cli.h"

const char *cli_name = "cpm";
static int stdin_used;

/* A lock waited on for a second: whom for, and how not to wait. */
static void
lock_waiting(const char *lockpath, pid_t holder)
{
	if (holder > 0)
		cli_warn("waiting for '%s', locked by process %ld (--wait "
			 "SECONDS bounds the wait)", lockpath, (long)holder);
	else
		cli_warn("waiting for '%s', locked by another process (--wait "
			 "SECONDS bounds the wait)", lockpath);
}

void
cli_init(const char *name)
{
	cli_name = name;
	lock_wait_notice(lock_waiting);
}

/* Messages go to the system log too (cli_log_to_syslog()). */
static bool cli_syslog;

void
cli_log_to_syslog(void)
{
	openlog(cli_name, LOG_PID, LOG_DAEMON);
	cli_syslog = true;
}

/*
 * One line, whatever the input it quotes: a control byte (a file's or
 * an argument's, echoed in a message) would end the line in a log or
 * drive a terminal, so it is shown escaped, as \n, \t or \xHH.
 */
static void __attribute__((format(printf, 1, 0)))
vwarn_line(const char *fmt, va_list ap)
{
	char msg[1024], out[4 * sizeof(msg)];
	const unsigned char *p;
	size_t o = 0;

	vsnprintf(msg, sizeof(msg), fmt, ap);
	for (p = (const unsigned char *)msg; *p; p++) {
		if (*p >= 0x20 && *p != 0x7f) {
			out[o++] = (char)*p;
		} else if (*p == '\n' || *p == '\t') {
			out[o++] = '\\';
			out[o++] = *p == '\n' ? 'n' : 't';
		} else {
			o += (size_t)snprintf(out + o, sizeof(out) - o,
					      "\\x%02x", *p);
		}
	}
	out[o] = '\0';
	fprintf(stderr, "%s: %s\n", cli_name, out);
	if (cli_syslog)
		syslog(LOG_ERR, "%s", out);
}

void
cli_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarn_line(fmt, ap);
	va_end(ap);
}

noreturn void
cli_die(int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarn_line(fmt, ap);
	va_end(ap);
	fflush(stdout);
	exit(status);
}

void
cli_check_json(const struct json *j)
{
	int e = json_error(j);

	if (e == -E2BIG)
		cli_die(EXIT_FAIL, "cannot write JSON: nested more than %d levels",
			JSON_MAX_DEPTH);
	if (e < 0)
		cli_die(EXIT_FAIL, "cannot write JSON: %s", strerror(-e));
}

void
cli_write(const struct strbuf *sb)
{
	if (sb->oom)
		cli_die(EXIT_FAIL, "out of memory");
	if (sb->len)
		fwrite(sb->buf, 1, sb->len, stdout);
}

void
cli_parser_init(struct cli_parser *p, const struct cli_option *opts,
		const struct cli_exclusion *excl, const char *const *commands,
		bool in_order)
{
	size_t n = 0, k = 0;

	memset(p, 0, sizeof(*p));
	p->opts = opts;
	p->excl = excl;
	p->commands = commands;
	/* "+" stops at the first argument, ":" reports a missing one. */
	if (in_order)
		p->shortopts[k++] = '+';
	p->shortopts[k++] = ':';
	for (; opts[n].name && n < CLI_MAX_OPTIONS; n++) {
		p->longopts[n].name = opts[n].name;
		p->longopts[n].has_arg = opts[n].has_arg;
		p->longopts[n].val = opts[n].val;
		if (opts[n].val > 0 && opts[n].val < 256 &&
		    !strchr(p->shortopts, opts[n].val)) {
			p->shortopts[k++] = (char)opts[n].val;
			if (opts[n].has_arg == required_argument)
				p->shortopts[k++] = ':';
		}
	}
	p->shortopts[k] = '\0';
}

static const char *
option_name(const struct cli_parser *p, int val)
{
	const struct cli_option *o;

	for (o = p->opts; o->name; o++)
		if (o->val == val)
			return o->name;
	return "?";
}

/* The long option argv[optind - 1] abbreviates, for the messages. */
static void
ambiguous(const struct cli_parser *p, const char *arg)
{
	const char *eq = strchr(arg, '=');
	size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
	const struct cli_option *o;
	char list[512] = "";
	size_t used = 0;
	int n = 0;

	for (o = p->opts; o->name; o++) {
		if (strncmp(o->name, arg, len) != 0)
			continue;
		if (strlen(o->name) == len)
			return;		/* exact: not ambiguous */
		n++;
		if (used < sizeof(list))
			used += (size_t)snprintf(list + used,
						 sizeof(list) - used,
						 " '--%s'", o->name);
	}
	if (n > 1)
		cli_usage_error("option '--%.*s' is ambiguous; possibilities:%s",
				(int)len, arg, list);
}

/*
 * The argument getopt refused as an unknown option when it is a negative
 * number ("-1", "-0.5", "-2Gi"): the element being scanned is argv[optind]
 * when getopt stopped inside it, else the one before.  NULL otherwise.
 */
static const char *
negative_number(int argc, char **argv)
{
	const char *const cand[2] = {
		optind < argc ? argv[optind] : NULL,
		optind > 0 ? argv[optind - 1] : NULL,
	};
	int k;

	for (k = 0; k < 2; k++) {
		const char *a = cand[k];

		if (a && a[0] == '-' && (isdigit((unsigned char)a[1]) ||
		    (a[1] == '.' && isdigit((unsigned char)a[2]))) &&
		    strchr(a + 1, optopt))
			return a;
	}
	return NULL;
}

int
cli_next_option(struct cli_parser *p, int argc, char **argv)
{
	const char *arg;
	int opt, i;

	opterr = 0;	/* one message of ours, not getopt's and ours */
	opt = getopt_long(argc, argv, p->shortopts, p->longopts, NULL);
	if (opt == -1)
		return -1;
	arg = argv[optind - 1];
	if (opt == '?' || opt == ':') {
		if (strncmp(arg, "--", 2) == 0) {
			const char *eq = strchr(arg, '=');
			int len = eq ? (int)(eq - arg) : (int)strlen(arg);

			ambiguous(p, arg + 2);
			if (opt == ':')
				cli_usage_error("option '%.*s' requires an argument",
						len, arg);
			for (i = 0; p->opts[i].name; i++)
				if (strncmp(p->opts[i].name, arg + 2,
					    (size_t)len - 2) == 0 && eq)
					cli_usage_error("option '--%s' doesn't allow an argument",
							p->opts[i].name);
			cli_usage_error("unrecognized option '%.*s'", len, arg);
		}
		if (opt == ':')
			cli_usage_error("option requires an argument -- '%c'",
					optopt);
		/* No tool has a digit for an option: "-1" is a number
		 * given where a count or quantity goes. */
		if (isdigit(optopt) || optopt == '.') {
			const char *num = negative_number(argc, argv);

			if (num)
				cli_usage_error("invalid number '%s': must be positive",
						num);
		}
		cli_usage_error("invalid option -- '%c'", optopt);
	}
	for (i = 0; i < p->nseen; i++)
		if (p->seen[i] == opt)
			return opt;
	if (p->nseen < CLI_MAX_OPTIONS)
		p->seen[p->nseen++] = opt;
	return opt;
}

bool
cli_table_option(int opt, struct cli_table_opts *t)
{
	if (opt == CLI_OPT_RAW)
		t->raw = true;
	else if (opt == CLI_OPT_NOHEADINGS)
		t->noheadings = true;
	else
		return false;
	return true;
}

bool
cli_option_given(const struct cli_parser *p, int val)
{
	int i;

	for (i = 0; i < p->nseen; i++)
		if (p->seen[i] == val)
			return true;
	return false;
}

void
cli_check_options(const struct cli_parser *p, int command)
{
	const struct cli_option *o;
	const struct cli_exclusion *x;

	for (o = p->opts; o->name && command >= 0; o++) {
		if (o->commands == CLI_ALL_COMMANDS ||
		    (o->commands & (1u << command)) ||
		    !cli_option_given(p, o->val))
			continue;
		if (p->commands == NULL || p->commands[command] == NULL)
			cli_usage_error("option '--%s' does not apply without a command",
					o->name);
		cli_usage_error("option '--%s' does not apply to '%s'", o->name,
				p->commands[command]);
	}
	for (x = p->excl; x && x->a; x++)
		if (cli_option_given(p, x->a) && cli_option_given(p, x->b))
			cli_usage_error("--%s and --%s cannot be combined",
					option_name(p, x->a),
					option_name(p, x->b));
}

noreturn void
cli_usage_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarn_line(fmt, ap);
	va_end(ap);
	fprintf(stderr, "Try '%s --help'.\n", cli_name);
	exit(EXIT_USAGE);
}

noreturn void
cli_version(void)
{
	printf("%s %s\n", cli_name, CPM_VERSION);
	cli_exit(EXIT_OK);
}

char *
cli_list_text(const char *arg)
{
	char *buf;

	if (strcmp(arg, "-") != 0) {
		buf = strdup(arg);
		if (buf == NULL)
			cli_die(EXIT_FAIL, "out of memory");
		return buf;
	}
	if (stdin_used++)
		cli_usage_error("only one argument may be '-' (stdin)");
	{
		struct strbuf sb;
		char chunk[4096];
		ssize_t n;

		strbuf_init(&sb);
		while ((n = read(STDIN_FILENO, chunk, sizeof(chunk))) != 0) {
			if (n < 0) {
				if (errno == EINTR)
					continue;
				cli_die(EXIT_USAGE, "cannot read stdin: %s",
					strerror(errno));
			}
			strbuf_add(&sb, chunk, (size_t)n);
			/* An endless stdin is refused, not read forever. */
			if (sb.oom)
				cli_die(EXIT_FAIL, "out of memory");
			if (sb.len > CLI_STDIN_MAX)
				cli_die(EXIT_USAGE, "stdin holds more than %u MiB",
					CLI_STDIN_MAX >> 20);
		}
		if (sb.buf == NULL)
			return strdup("");
		if (memchr(sb.buf, '\0', sb.len))
			cli_die(EXIT_USAGE, "stdin holds a NUL byte");
		buf = sb.buf;
	}
	return buf;
}

void
cli_parse_cpulist(const char *what, const char *arg, struct cpuset *s)
{
	char err[160];
	char *text = cli_list_text(arg);
	int r;

	r = cpuset_parse_list(text, s, err, sizeof(err));
	free(text);
	if (r == -ENOMEM)
		cli_die(EXIT_FAIL, "out of memory");
	if (r < 0)
		cli_die(EXIT_USAGE, "invalid %s %s", what, err);
}

/* opt, else the environment variable env when set and not empty. */
static const char *
option_or_env(const char *opt, const char *env)
{
	const char *v;

	if (opt)
		return opt;
	v = getenv(env);
	return v && *v ? v : NULL;
}

const char *
cli_sysroot_dir(const char *opt)
{
	return option_or_env(opt, "CPM_SYSROOT");
}

const char *
cli_cgroup_root(const char *opt)
{
	return option_or_env(opt, "CPM_CGROUP_ROOT");
}

void
cli_open_sysroot(const char *dir, struct sysroot *root)
{
	int r;

	dir = cli_sysroot_dir(dir);
	r = sysroot_open(root, dir);
	if (r < 0)
		cli_die(EXIT_USAGE, "cannot open sysroot '%s': %s",
			dir ? dir : "/", strerror(-r));
}

void
cli_load_topology(const struct sysroot *root, unsigned int flags,
		  struct topo *t)
{
	char err[512];
	int r = topo_load(t, root, flags, err, sizeof(err));

	if (r == -ENOMEM)
		cli_die(EXIT_FAIL, "out of memory");
	if (r < 0)
		cli_die(root->live ? EXIT_FAIL : EXIT_USAGE, "%s", err);
	if (t->warning[0])
		cli_warn("%s", t->warning);
}

void
cli_parse_cpus(const struct topo *t, const char *what, const char *arg,
	       struct cpuset *s)
{
	char err[512];

	cli_parse_cpulist(what, arg, s);
	if (topo_check_possible(t, s, err, sizeof(err)) < 0)
		cli_die(EXIT_USAGE, "invalid %s: %s", what, err);
}

void
cli_print_cpuset(const struct cpuset *s)
{
	struct strbuf sb;

	strbuf_init(&sb);
	cpuset_format(s, &sb);
	strbuf_add(&sb, "\n", 1);
	if (sb.oom)
		cli_die(EXIT_FAIL, "out of memory");
	fwrite(sb.buf, 1, sb.len, stdout);
	strbuf_free(&sb);
}

noreturn void
cli_exit(int status)
{
	if (fflush(stdout) != 0 || ferror(stdout)) {
		if (errno != EPIPE)
			fprintf(stderr, "%s: write error: %s\n", cli_name,
				strerror(errno));
		exit(status ? status : EXIT_FAIL);
	}
	exit(status);
}

bool
cli_draw_color(const char *opt)
{
	const char *nc = getenv("NO_COLOR");

	if (opt == NULL || strcmp(opt, "auto") == 0)
		return isatty(STDOUT_FILENO) && !(nc && *nc);
	if (strcmp(opt, "always") == 0)
		return true;
	if (strcmp(opt, "never") == 0)
		return false;
	cli_usage_error("invalid --color '%s' (auto, always or never)", opt);
}

int
cli_draw_width(int opt)
{
	const char *env = getenv("COLUMNS");
	struct winsize ws;
	unsigned int n;

	if (opt > 0)
		return opt;
	if (env && parse_uint(env, 100000, &n) == 0 && n > 0)
		return (int)n;
	if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 &&
	    ws.ws_col > 0)
		return ws.ws_col;
	return 80;
}
