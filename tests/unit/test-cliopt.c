// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The option parser every tool shares: one wording for every mistake,
 * abbreviations, options that apply to some commands only, exclusions.
 * Mistakes exit, so each parse runs in a child whose stderr is read.
 */
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

#include "tool/cli.h"
#include "unit.h"

enum { CMD_LIST, CMD_TAKE };
enum { O_MEM = 256, O_SINCE, O_SYSROOT, O_INTERVAL };

/* The NULL slot stands for "no command given". */
enum { CMD_NONE = 2 };
static const char *const commands[] = { "list", "take", NULL };

static const struct cli_option opts[] = {
	{ "all", no_argument, 'a', CLI_ALL_COMMANDS },
	{ "top", required_argument, 'n', CLI_ALL_COMMANDS },
	{ "mem", required_argument, O_MEM, 1u << CMD_TAKE },
	{ "since", required_argument, O_SINCE, CLI_ALL_COMMANDS },
	{ "sysroot", required_argument, O_SYSROOT, CLI_ALL_COMMANDS },
	{ "interval", required_argument, O_INTERVAL, CLI_ALL_COMMANDS },
	CLI_TABLE_OPTIONS(1u << CMD_LIST),
	{ NULL, 0, 0, 0 }
};

static const struct cli_exclusion excl[] = {
	{ O_INTERVAL, O_SINCE }, { 0, 0 }
};

/*
 * Parse argv (NULL-terminated) as a tool would, the command being the
 * first argument after the options.  Returns the exit status (0 when
 * the parse went through) with stderr in err, or with stdout (the vals
 * and arguments seen) in out.
 */
static int
parse(char **argv, char *out, size_t outlen)
{
	int fds[2], status, argc = 0;
	ssize_t n, got = 0;
	pid_t pid;

	while (argv[argc])
		argc++;
	if (pipe(fds) < 0)
		return -1;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		struct cli_parser p;
		struct cli_table_opts t = { false, false };
		int opt, cmd = CMD_NONE, i;

		dup2(fds[1], 1);
		dup2(fds[1], 2);
		setvbuf(stdout, NULL, _IONBF, 0);
		close(fds[0]);
		cli_init("cpm-x");
		optind = 1;
		cli_parser_init(&p, opts, excl, commands, false);
		while ((opt = cli_next_option(&p, argc, argv)) != -1) {
			printf("%d%s%s ", opt, optarg ? "=" : "",
			       optarg ? optarg : "");
			if (cli_table_option(opt, &t))
				printf("(table) ");
		}
		if (optind < argc)
			for (i = 0; commands[i]; i++)
				if (strcmp(argv[optind], commands[i]) == 0)
					cmd = i;
		cli_check_options(&p, cmd);
		for (i = optind; i < argc; i++)
			printf("[%s]", argv[i]);
		printf("%s%s", t.raw ? "<raw>" : "",
		       t.noheadings ? "<noheadings>" : "");
		fflush(stdout);
		_exit(0);
	}
	close(fds[1]);
	while (got + 1 < (ssize_t)outlen &&
	       (n = read(fds[0], out + got, outlen - 1 - (size_t)got)) > 0)
		got += n;
	out[got] = '\0';
	close(fds[0]);
	waitpid(pid, &status, 0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

#define PARSE(name, want_rc, want_out, ...) do {			\
	char *argv_[] = { "cpm-x", __VA_ARGS__, NULL };			\
	char out_[1024];						\
	int rc_ = parse(argv_, out_, sizeof(out_));			\
	CHECK_STR(name, out_, want_out);				\
	CHECK(name " (exit status)", rc_ == (want_rc));			\
} while (0)

int
main(void)
{
	PARSE("options, in any order with the arguments", 0,
	      "97 110=3 256=1G [take][x]", "-a", "take", "--top", "3", "x",
	      "--mem=1G");
	PARSE("a unique abbreviation is the option", 0, "110=5 [list]",
	      "--to", "5", "list");
	PARSE("an ambiguous abbreviation names the candidates", 2,
	      "cpm-x: option '--s' is ambiguous; possibilities: '--since' '--sysroot'\n"
	      "Try 'cpm-x --help'.\n", "--s", "x", "list");
	PARSE("an unknown long option", 2,
	      "cpm-x: unrecognized option '--frob'\nTry 'cpm-x --help'.\n",
	      "--frob=1", "list");
	PARSE("an unknown short option", 2,
	      "97 cpm-x: invalid option -- 'Z'\nTry 'cpm-x --help'.\n", "-aZ");
	PARSE("a long option without its argument", 2,
	      "cpm-x: option '--top' requires an argument\nTry 'cpm-x --help'.\n",
	      "list", "--top");
	PARSE("a short option without its argument", 2,
	      "cpm-x: option requires an argument -- 'n'\nTry 'cpm-x --help'.\n",
	      "list", "-n");
	PARSE("an argument given to a flag", 2,
	      "cpm-x: option '--all' doesn't allow an argument\nTry 'cpm-x --help'.\n",
	      "--all=yes", "list");
	PARSE("an option that does not apply to the command", 2,
	      "97 256=1G cpm-x: option '--mem' does not apply to 'list'\n"
	      "Try 'cpm-x --help'.\n", "list", "-a", "--mem", "1G");
	PARSE("an option of a command, given without one", 2,
	      "256=1G cpm-x: option '--mem' does not apply without a command\n"
	      "Try 'cpm-x --help'.\n", "--mem", "1G");
	PARSE("options excluding each other", 2,
	      "257=f 259=1s cpm-x: --interval and --since cannot be combined\n"
	      "Try 'cpm-x --help'.\n", "--since", "f", "--interval", "1s");
	PARSE("after -- everything is an argument", 0, "[take][--frob]",
	      "take", "--", "--frob");
	PARSE("the shared table rows: --raw and --noheadings", 0,
	      "16385 (table) 16384 (table) [list]<raw><noheadings>",
	      "--noh", "list", "--raw");
	PARSE("--raw alone asks for raw cells, headings kept", 0,
	      "16384 (table) [list]<raw>", "list", "--raw");
	PARSE("no other option is a table option", 0, "97 [list]", "-a",
	      "list");
	PARSE("the table rows apply to the commands given", 2,
	      "16384 (table) cpm-x: option '--raw' does not apply to 'take'\n"
	      "Try 'cpm-x --help'.\n", "take", "--raw");
	return unit_failed;
}
