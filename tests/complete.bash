# SPDX-License-Identifier: GPL-2.0-or-later
# bash complete.bash FILE WORD...: load bash-completion and the completion
# FILE, then call the function it registered for WORD (the command) with
# COMP_WORDS set to the WORDs, completing the last one, as readline would;
# print COMPREPLY, one candidate per line.
file=$1
shift
. /usr/share/bash-completion/bash_completion || exit 2
. "$file" || exit 2
COMP_WORDS=("$@")
COMP_CWORD=$(($# - 1))
COMP_LINE="$*"
COMP_POINT=${#COMP_LINE}
COMP_TYPE=9 COMP_KEY=9
# Outside readline compopt refuses to run; what it would set is not checked.
compopt() { :; }
spec=$(complete -p "$1") || exit 2
fn=${spec#*-F }
fn=${fn%% *}
COMPREPLY=()
"$fn" "$1" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
printf '%s\n' "${COMPREPLY[@]}" | sed '/^$/d' | sort -u
