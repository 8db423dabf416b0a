# SPDX-License-Identifier: GPL-2.0-or-later
# Helpers sourced by every tests/t-*.sh script.
#
# A test prints "ok - NAME", "not ok - NAME" (followed by "# ..." lines
# that explain the failure) or "skip - NAME # reason".  tests/run counts
# them.  Commands run with stdin from $T_IN (a string; default empty) and
# leave $out, $err and $rc behind.

set -u
: "${CPM_TOP:=$(cd "$(dirname "$0")/.." && pwd)}"
export LC_ALL=C
PATH=$CPM_TOP/bin:$PATH
export PATH
FIXTURES=${CPM_FIXTURES:-$CPM_TOP/../shared/fixtures}
T_TMP=$(mktemp -d "${TMPDIR:-/tmp}/cpm-test.XXXXXX")
# cpm-quota burst's register of raised groups, which every journal shares:
# the test's own, never the machine's
export CPM_BURST_GROUPS="$T_TMP/burst.groups"
# cpm-quota burst's node headroom guard off: the machine running the tests
# is often busy, and only the tests of the guard turn it on
export CPM_NODE_HEADROOM=0
T_IN=
# CPM_VALGRIND=1: every cpm tool runs under valgrind; a memory error or a
# definite leak makes it exit 97, which no test expects.  valgrind writes
# to a log of its own, not to the tool's stderr that the tests read: it
# warns there about system calls it does not know (openat2, which cpm
# tries before falling back), and that is not the tool's output.  What
# it reports besides such warnings is shown when the script ends.
if [ -n "${CPM_VALGRIND:-}" ]; then
	mkdir "$T_TMP/.vg"
	for _t in cpm-topo cpm-alloc cpm-pin cpm-quota cpm-throttle; do
		printf '#!/bin/sh\nexec valgrind -q --log-file="%s/.vg/log.%%p" --error-exitcode=97 --leak-check=full --errors-for-leak-kinds=definite --show-leak-kinds=definite "%s/bin/%s" "$@"\n' \
		    "$T_TMP" "$CPM_TOP" "$_t" >"$T_TMP/.vg/$_t"
		chmod 755 "$T_TMP/.vg/$_t"
	done
	PATH=$T_TMP/.vg:$PATH
	export PATH
fi
t_cleanup_cmds=
t_cleanup() {
	eval "$t_cleanup_cmds"
	if [ -d "$T_TMP/.vg" ]; then
		cat "$T_TMP/.vg"/log.* 2>/dev/null | grep -v '^--[0-9]*-- ' |
		    sed 's/^/# valgrind: /' >&2
	fi
	rm -rf "$T_TMP"
}
trap t_cleanup EXIT
trap 'exit 130' INT TERM
# at_exit CMD: run CMD when the script ends, even after a failure.
at_exit() { t_cleanup_cmds="$1; $t_cleanup_cmds"; }

ok() { echo "ok - $1"; }
skip() { echo "skip - $1 # $2"; }
not_ok() {
	echo "not ok - $1"
	shift
	for l in "$@"; do printf '%s\n' "$l" | sed 's/^/# /'; done
}

# run CMD...: run with stdin $T_IN, capture $out $err $rc.
run() {
	printf '%s' "$T_IN" >"$T_TMP/.in"
	"$@" <"$T_TMP/.in" >"$T_TMP/.out" 2>"$T_TMP/.err"
	rc=$?
	out=$(cat "$T_TMP/.out"; echo x); out=${out%x}
	err=$(cat "$T_TMP/.err"; echo x); err=${err%x}
}

# show: the last command's output, for a failure report.
show() {
	printf 'exit %s\nstdout: %s\nstderr: %s\n' "$rc" "$out" "$err"
}

# check NAME EXIT STDOUT CMD...: exit status and stdout (its trailing
# newline stripped) must match exactly.
check() {
	_n=$1 _x=$2 _o=$3
	shift 3
	run "$@"
	_got=${out%
}
	if [ "$rc" = "$_x" ] && [ "$_got" = "$_o" ]; then
		ok "$_n"
	else
		not_ok "$_n" "command: $*" "want exit $_x, stdout: $_o" "$(show)"
	fi
}

# check_fail NAME EXIT ERR_ERE CMD...: fails with EXIT, prints nothing on
# stdout and exactly one line on stderr matching ERR_ERE (usage errors may
# add the "Try ..." line).
check_fail() {
	_n=$1 _x=$2 _re=$3
	shift 3
	run "$@"
	_lines=$(printf '%s' "$err" | grep -v "^Try '" | wc -l)
	if [ "$rc" = "$_x" ] && [ -z "$out" ] && [ "$_lines" -eq 1 ] &&
	    printf '%s' "$err" | head -1 | grep -Eq -- "$_re"; then
		ok "$_n"
	else
		not_ok "$_n" "command: $*" "want exit $_x and one error line matching: $_re" "$(show)"
	fi
}

# assert NAME GOT WANT
assert() {
	if [ "$2" = "$3" ]; then
		ok "$1"
	else
		not_ok "$1" "got:  $2" "want: $3"
	fi
}

# tool_long_options TOOL: the long option names in bin/TOOL.c's option
# table: getopt_long's rows ({ "name", no_argument, ... }), cpm-pin's
# own ({ "name", 'c', true, ... }) and the shared CLI_TABLE_OPTIONS().
tool_long_options() {
	{
		sed -nE 's/^[[:space:]]*\{ *"([a-z][a-z0-9-]*)", *([a-z_]*_argument|0|'"'"'.'"'"'), .*/\1/p' \
		    "$CPM_TOP/bin/$1.c"
		# the shared rows of lib/tool/cli.h's CLI_TABLE_OPTIONS()
		grep -q 'CLI_TABLE_OPTIONS(' "$CPM_TOP/bin/$1.c" &&
		    sed -nE 's/^[[:space:]]*\{ *"([a-z][a-z0-9-]*)", *no_argument, CLI_OPT_.*/\1/p' \
		    "$CPM_TOP/lib/tool/cli.h"
	} | sort -u
}

# is_root: true when running as root (real cgroups and such).
is_root() { [ "$(id -u)" = 0 ]; }

# stop_in_dir DIR: kill (SIGKILL) every process whose working directory
# is DIR, a directory of the test's own, and wait up to a second for
# them to go: what a test started there and cannot wait for.
stop_in_dir() {
	[ -d "$1" ] || return 0
	for _p in /proc/[0-9]*; do
		[ "$_p/cwd" -ef "$1" ] && [ "${_p#/proc/}" != $$ ] &&
		    kill -9 "${_p#/proc/}" 2>/dev/null
	done
	_i=0
	while [ $_i -lt 10 ]; do
		_left=
		for _p in /proc/[0-9]*; do
			[ "$_p/cwd" -ef "$1" ] && [ "${_p#/proc/}" != $$ ] &&
			    _left=1 && break
		done
		[ -z "$_left" ] && break
		sleep 0.1; _i=$((_i + 1))
	done
}

# fixture_tree NAME: unpack the hwloc fixture tarball NAME once into
# $CPM_TOP/tests/out/fixtures and print the root of its tree; fails when
# the fixtures are not available.
fixture_tree() {
	_tb=$FIXTURES/hwloc/$1.tar.bz2
	_dst=$CPM_TOP/tests/out/fixtures/$1
	[ -f "$_tb" ] || return 1
	if [ ! -f "$_dst/.done" ]; then
		rm -rf "$_dst" && mkdir -p "$_dst" &&
		    bzip2 -dc "$_tb" | tar -C "$_dst" -xf - 2>/dev/null
		touch "$_dst/.done"
	fi
	for _d in "$_dst"/*/; do
		[ -d "$_d" ] && { printf '%s\n' "${_d%/}"; return 0; }
	done
	return 1
}
