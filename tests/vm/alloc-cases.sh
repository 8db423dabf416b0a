# SPDX-License-Identifier: GPL-2.0-or-later
# alloc_cases PREFIX CMD...: run a topology's ALLOC_CASES (see
# tests/vm/topologies/) with CMD (cpm-alloc and its options) on the state
# $CPM_STATE, one test line per case, names prefixed with PREFIX.  Each
# case is "ARGS => CPULIST" (exit 0, exactly that cpulist on stdout),
# "ARGS => exit N" (exit N, nothing on stdout) or "ARGS" (exit 0).
# Needs tests/lib.sh.
alloc_cases() {
	_pfx=$1
	shift
	printf '%s\n' "$ALLOC_CASES" | sed -e '/^#/d' -e '/^ *$/d' >"$T_TMP/alloc.cases"
	while IFS= read -r _line; do
		_args=${_line%%=>*}
		_args=${_args% }
		case $_line in
		*"=> exit "*)
			_want=${_line##*=> exit }
			run "$@" $_args
			if [ "$rc" = "$_want" ] && [ -z "$out" ]; then
				ok "${_pfx}cpm-alloc $_args exits $_want"
			else
				not_ok "${_pfx}cpm-alloc $_args exits $_want" "$(show)"
			fi ;;
		*"=>"*)
			_want=${_line##*=>}
			_want=${_want# }
			check "${_pfx}cpm-alloc $_args gives $_want" 0 "$_want" "$@" $_args ;;
		*)
			run "$@" $_args
			if [ "$rc" = 0 ]; then ok "${_pfx}cpm-alloc $_args"
			else not_ok "${_pfx}cpm-alloc $_args" "$(show)"; fi ;;
		esac
	done <"$T_TMP/alloc.cases"
}
