/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Command-line conventions shared by the five tools: diagnostics as
 * "cpm-X: message" on stderr, the exit codes of the contract, and reading
 * a cpulist argument that may be "-" (stdin).
 *
 * This is the only part of the library that prints or exits, and only
 * the mains in bin/ call it.
 */
#ifndef CPM_CLI_H
#define CPM_CLI_H

#include <getopt.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdnoreturn.h>

#include "base/cpuset.h"
#include "base/json.h"
#include "base/strbuf.h"
#include "machine/sysroot.h"
#include "machine/topo.h"

enum {
	EXIT_OK = 0,
	EXIT_FAIL = 1,		/* the operation failed */
	EXIT_USAGE = 2,		/* bad usage or input; nothing changed */
	EXIT_UNSAT = 3,		/* valid but unsatisfiable, or findings */
	EXIT_CANNOT_EXEC = 126,
	EXIT_NOT_FOUND = 127,
};

extern const char *cli_name;

void cli_init(const char *name);
void cli_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/*
 * From now on every message cli_warn(), cli_die() and cli_usage_error()
 * print goes to the system log as well (syslog(3), LOG_DAEMON, tagged
 * with the tool's name): for a tool run where nobody reads its stderr.
 */
void cli_log_to_syslog(void);
noreturn void cli_die(int status, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* One line naming the problem, then "Try 'cpm-X --help'.", exit 2. */
noreturn void cli_usage_error(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));
/* Prints "cpm-X VERSION" and exits 0. */
noreturn void cli_version(void);

/* The most cli_list_text() reads from stdin before refusing it. */
#define CLI_STDIN_MAX (16u << 20)

/*
 * The text of a cpulist argument: arg itself, or all of stdin when arg is
 * "-".  Returns a malloc'ed string (empty stdin gives ""); dies with exit
 * 2 on a read error.  Only one argument per process may be "-".
 */
char *cli_list_text(const char *arg);

/*
 * Parse a cpulist argument ("-" reads stdin) into s, dying with exit 2
 * and a message naming what (e.g. "cpulist") on bad input.
 */
void cli_parse_cpulist(const char *what, const char *arg, struct cpuset *s);

/*
 * Where a tool reads the machine and the cgroups, decided once: the
 * option's value, else the environment (CPM_SYSROOT, CPM_CGROUP_ROOT) when
 * set and not empty, else NULL, the live system.  The rest of the library
 * reads no environment variable.
 */
const char *cli_sysroot_dir(const char *opt);
const char *cli_cgroup_root(const char *opt);

/*
 * Open the sysroot cli_sysroot_dir(dir) (NULL: "/"), dying with exit 2
 * when it is not a directory.
 */
void cli_open_sysroot(const char *dir, struct sysroot *root);

/*
 * Load the topology below root with topo_load() flags, dying on failure:
 * exit 2 for a replayed tree that cannot be read (bad input), exit 1 on
 * the live machine.
 */
void cli_load_topology(const struct sysroot *root, unsigned int flags,
		       struct topo *t);

/*
 * cli_parse_cpulist(), then refuse CPUs the machine does not have (exit
 * 2, naming them).
 */
void cli_parse_cpus(const struct topo *t, const char *what, const char *arg,
		    struct cpuset *s);

/* Write a cpuset as a canonical cpulist line to stdout. */
void cli_print_cpuset(const struct cpuset *s);

/*
 * Die with exit 1 when the JSON writer refused the document (see
 * json_error()), rather than print a truncated one.
 */
void cli_check_json(const struct json *j);

/* Write sb to stdout; out of memory while building it is exit 1. */
void cli_write(const struct strbuf *sb);

/*
 * Options, parsed the same way by every tool: getopt_long() over one
 * table, unambiguous abbreviations of long options accepted, and one
 * wording for every mistake:
 *   unrecognized option '--frob'        invalid option -- 'Z'
 *   option '--top' requires an argument
 *   option '--all' doesn't allow an argument
 *   option '--s' is ambiguous; possibilities: '--since' '--sysroot'
 *   option '--mem' does not apply to 'list'
 *   --interval and --since cannot be combined
 * each followed by "Try 'cpm-X --help'." and exit 2.
 */
#define CLI_ALL_COMMANDS 0u	/* cli_option.commands: every command */
#define CLI_MAX_OPTIONS 64

struct cli_option {
	const char *name;	/* long name, without "--" */
	int has_arg;		/* no_argument, required_argument, ... */
	int val;		/* its short letter, or an id >= 256 */
	unsigned int commands;	/* bit (1 << command) per command it
				 * applies to; CLI_ALL_COMMANDS: all */
};

/* Two options that cannot be given together. */
struct cli_exclusion {
	int a, b;
};

struct cli_parser {
	const struct cli_option *opts;		/* ends with a NULL name */
	const struct cli_exclusion *excl;	/* ends with { 0, 0 } */
	const char *const *commands;		/* command names, or NULL */
	struct option longopts[CLI_MAX_OPTIONS + 1];
	char shortopts[2 * CLI_MAX_OPTIONS + 4];
	int seen[CLI_MAX_OPTIONS];		/* vals given, once each */
	int nseen;
};

/*
 * Set p up for opts; shortopts are derived from the table (letters
 * with their argument), parsing stops at the first non-option when
 * in_order (commands and their arguments follow).
 */
void cli_parser_init(struct cli_parser *p, const struct cli_option *opts,
		     const struct cli_exclusion *excl,
		     const char *const *commands, bool in_order);

/*
 * The next option's val (its argument in optarg), or -1 at the end of
 * the options (optind is then the first argument).  Dies with exit 2
 * and the wording above on a mistake.
 */
int cli_next_option(struct cli_parser *p, int argc, char **argv);

/* True when an option with this val was given. */
bool cli_option_given(const struct cli_parser *p, int val);

/*
 * Refuse options that do not apply to command (an index into
 * commands; -1: check no command) and pairs of exclusions given
 * together.  A NULL name in commands stands for "no command given".
 */
void cli_check_options(const struct cli_parser *p, int command);

/*
 * The options of every tool that prints a table, as rows of its option
 * table (applying to commands), and what they ask for:
 *   --raw         no alignment, one space between cells (TABLE_RAW)
 *   --noheadings  no header line
 */
enum { CLI_OPT_RAW = 0x4000, CLI_OPT_NOHEADINGS };
#define CLI_TABLE_OPTIONS(commands)					\
	{ "raw", no_argument, CLI_OPT_RAW, (commands) },		\
	{ "noheadings", no_argument, CLI_OPT_NOHEADINGS, (commands) }

struct cli_table_opts {
	bool raw, noheadings;
};

/* Record opt in t when it is one of CLI_TABLE_OPTIONS(); true if so. */
bool cli_table_option(int opt, struct cli_table_opts *t);

/*
 * The pictures' options (cpm-topo draw, cpm-alloc map), read here since
 * the rest of the library reads no environment:
 *   cli_draw_color(): --color=auto|always|never (NULL: auto) as a
 *     decision: auto colors a terminal, unless NO_COLOR is set and not
 *     empty; a bad value is a usage error.
 *   cli_draw_width(): --width N when given (opt > 0), else COLUMNS when
 *     it is a number, else the terminal's width when stdout is one, else
 *     80 columns.
 */
bool cli_draw_color(const char *opt);
int cli_draw_width(int opt);

/* Flush stdout and exit with status; a failed write is exit 1. */
noreturn void cli_exit(int status);

#endif
