# SPDX-License-Identifier: GPL-2.0-or-later
# The usage checker, in the manner of util-linux's: every tool answers
# --help and --version on stdout alone with exit 0, refuses an unknown
# option with the two lines of the contract and exit 2, and every long
# option its source defines is documented in --help, in its manual page
# and in both shell completions.  The option list comes from the option
# tables in bin/, not from the documents being checked.
. "$(dirname "$0")/lib.sh"

version=$(sed -n 's/^VERSION *= *//p' "$CPM_TOP/Makefile")
tools="cpm-topo cpm-alloc cpm-quota cpm-throttle cpm-pin"

# two_line_usage_error NAME TOOL ARGS...: exit 2, nothing on stdout, on
# stderr "TOOL: ..." naming the option and then "Try 'TOOL --help'.".
two_line_usage_error() {
	_n=$1 _t=$2 _bad=$3
	shift 3
	run "$@"
	_l1=$(printf '%s' "$err" | sed -n 1p)
	_l2=$(printf '%s' "$err" | sed -n 2p)
	_nl=$(printf '%s' "$err" | wc -l)
	case $_l1 in
	"$_t: "*"$_bad"*) _first=yes ;;
	*) _first=no ;;
	esac
	if [ "$rc" = 2 ] && [ -z "$out" ] && [ "$_nl" = 2 ] && [ "$_first" = yes ] &&
	    [ "$_l2" = "Try '$_t --help'." ]; then
		ok "$_n"
	else
		not_ok "$_n" "command: $*" "$(show)"
	fi
}

for t in $tools; do
	for h in --help -h; do
		run "$t" "$h"
		if [ "$rc" = 0 ] && [ -z "$err" ] && printf '%s' "$out" | grep -q "^Usage: $t "; then
			ok "$t $h prints its usage on stdout only and exits 0"
		else
			not_ok "$t $h prints its usage on stdout only and exits 0" "$(show)"
		fi
	done
	for v in --version -V; do
		run "$t" "$v"
		if [ "$rc" = 0 ] && [ -z "$err" ] && [ "$out" = "$t $version
" ]; then
			ok "$t $v prints '$t $version' on stdout only"
		else
			not_ok "$t $v prints '$t $version' on stdout only" "$(show)"
		fi
	done
	two_line_usage_error "$t refuses an unknown long option in two lines" \
	    "$t" --no-such-option "$t" --no-such-option
	two_line_usage_error "$t refuses an unknown short option in two lines" \
	    "$t" Z "$t" -Z

	opts=$(tool_long_options "$t")
	case " $(echo $opts) " in
	*" help "*" version "*|*" version "*" help "*) ok "$t: the option table is found in bin/$t.c" ;;
	*) not_ok "$t: the option table is found in bin/$t.c" "found: $opts" ;;
	esac
	help=$("$t" --help)
	man=$CPM_TOP/man/$t.1
	bash_c=$CPM_TOP/completions/$t
	zsh_c=$CPM_TOP/completions/_$t
	for f in "$man" "$bash_c" "$zsh_c"; do
		[ -f "$f" ] || not_ok "$t has ${f#"$CPM_TOP"/}" "missing"
	done
	for o in $opts; do
		miss=
		printf '%s\n' "$help" | grep -Eq -- "(^|[^a-z0-9-])--$o([^a-z0-9-]|$)" || miss="$miss --help"
		grep -Eq -- "(^\\.|[[:space:]])Fl -$o([^a-z0-9-]|$)" "$man" 2>/dev/null || miss="$miss man/$t.1"
		grep -Eq -- "(^|[^a-z0-9-])--$o([^a-z0-9-]|$)" "$bash_c" 2>/dev/null || miss="$miss bash"
		grep -Eq -- "(^|[^a-z0-9-])--$o([^a-z0-9-]|$)" "$zsh_c" 2>/dev/null || miss="$miss zsh"
		if [ -z "$miss" ]; then
			ok "$t --$o is in --help, the manual and both completions"
		else
			not_ok "$t --$o is in --help, the manual and both completions" "missing from:$miss"
		fi
	done
done

# The --json output is documented field by field: every key the tool's
# JSON writer names appears as a tagged item (".It Li key") in its page.
# Keys of the tool's tables (lib/*/*table.c column definitions and JSON
# writers) count too.
json_keys() {
	case $1 in
	cpm-topo) _tab=view/topotable ;;
	cpm-alloc) _tab=alloc/alloctable ;;
	cpm-throttle) _tab=throttle/thrtable ;;
	cpm-quota) _tab=quota/quotatable ;;
	*) _tab= ;;
	esac
	{
		grep -E 'json_(key|id|list|set|cpus)\(' "$CPM_TOP/bin/$1.c" \
		    ${_tab:+"$CPM_TOP/lib/$_tab.c"} | grep -oE '"[a-z][a-z0-9_]*"'
		[ -n "$_tab" ] && grep -oE '\{ "[A-Z][A-Z0-9_]*", "[a-z][a-z0-9_]*"' \
		    "$CPM_TOP/lib/$_tab.c" | grep -oE '"[a-z][a-z0-9_]*"'
	} | tr -d '"' | sort -u
}
for t in $tools; do
	keys=$(json_keys "$t")
	if [ -z "$keys" ]; then
		not_ok "$t: the JSON keys are found in bin/$t.c" "no json_key() calls"
		continue
	fi
	miss=
	for k in $keys; do
		grep -Eq "^\.It Li ([a-z_0-9]+ , )*$k( ,|\$)" "$CPM_TOP/man/$t.1" || miss="$miss $k"
	done
	if [ -z "$miss" ]; then
		ok "$t: every JSON member is documented in man/$t.1"
	else
		not_ok "$t: every JSON member is documented in man/$t.1" "undocumented:$miss"
	fi
done

# Every manual page has the sections an operator looks for.
for m in "$CPM_TOP"/man/*.[1-8]; do
	p=$(basename "$m")
	miss=
	for s in NAME SYNOPSIS DESCRIPTION "EXIT STATUS" ENVIRONMENT FILES EXAMPLES "SEE ALSO"; do
		[ "$p" = cpm.7 ] && [ "$s" = SYNOPSIS ] && continue
		grep -q "^\\.Sh $s\$" "$m" || miss="$miss '$s'"
	done
	if [ -z "$miss" ]; then
		ok "$p has every section"
	else
		not_ok "$p has every section" "missing:$miss"
	fi
done

# mandoc -Tlint at every level down to style.  Two messages are about
# this machine's manual database, not the pages: cross-references to
# pages that are not installed here, and an outdated mandoc.db.
if command -v mandoc >/dev/null; then
	for m in "$CPM_TOP"/man/*.[1-8]; do
		p=$(basename "$m")
		lint=$(mandoc -Tlint -Wstyle "$m" 2>&1 |
		    grep -v -e 'referenced manual not found' -e 'mandoc\.db')
		if [ -z "$lint" ]; then
			ok "mandoc -Tlint is silent on $p"
		else
			not_ok "mandoc -Tlint is silent on $p" "$lint"
		fi
	done
else
	skip "mandoc -Tlint on the manual pages" "mandoc is not installed"
fi

# A negative number where a count or quantity goes is that, not an
# unknown option "-1" (getopt's reading of it).
export CPM_STATE="$T_TMP/neg.state"
check_fail "cpm-quota convert -1: the number must be positive" 2 \
    "^cpm-quota: invalid number '-1': must be positive$" cpm-quota convert -1
check_fail "cpm-quota convert 1 -0.5: the second as well" 2 \
    "^cpm-quota: invalid number '-0.5': must be positive$" cpm-quota convert 1 -0.5
check_fail "cpm-quota convert -250m: with a suffix" 2 \
    "^cpm-quota: invalid number '-250m': must be positive$" cpm-quota convert -250m
check_fail "cpm-alloc take a -1: the count must be positive" 2 \
    "^cpm-alloc: invalid number '-1': must be positive$" cpm-alloc take a -1
check_fail "cpm-alloc take a -12: a count of two digits" 2 \
    "^cpm-alloc: invalid number '-12': must be positive$" cpm-alloc take a -12
check_fail "an unknown letter is still an invalid option" 2 \
    "^cpm-alloc: invalid option -- 'x'$" cpm-alloc take a 1 -x
assert "nothing was written" "$(ls "$T_TMP/neg.state" 2>/dev/null)" ""
unset CPM_STATE

# One wording across the tools: "missing COMMAND", "invalid ... cpulist".
for t in cpm-alloc cpm-quota; do
	check_fail "$t without a command says missing COMMAND" 2 "^$t: missing COMMAND$" $t
done
check_fail "cpm-alloc --from names a cpulist as cpm-topo does" 2 \
    "^cpm-alloc: invalid --from cpulist 'x'" env CPM_STATE="$T_TMP/w.state" cpm-alloc take a 1 --from x
check_fail "cpm-alloc init --reserved names a cpulist as cpm-topo does" 2 \
    "^cpm-alloc: invalid --reserved cpulist 'x'" env CPM_STATE="$T_TMP/w.state" cpm-alloc init --reserved x
