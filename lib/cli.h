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

#include <stdarg.h>
#include <stdnoreturn.h>

#include "cpuset.h"
#include "json.h"
#include "sysroot.h"
#include "topo.h"

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

/* Flush stdout and exit with status; a failed write is exit 1. */
noreturn void cli_exit(int status);

#endif
