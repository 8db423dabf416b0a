// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

const char *cli_name = "cpm";
static int stdin_used;

void
cli_init(const char *name)
{
	cli_name = name;
}

static void __attribute__((format(printf, 1, 0)))
vwarn_line(const char *fmt, va_list ap)
{
	char msg[1024];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	fprintf(stderr, "%s: %s\n", cli_name, msg);
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
