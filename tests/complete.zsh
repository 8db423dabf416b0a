# SPDX-License-Identifier: GPL-2.0-or-later
# zsh -f complete.zsh FPATHDIR LINE [DUMP]: print the candidates zsh's
# completion system offers for LINE (completed at its end), one per line.
# It runs an interactive zsh in a pseudo-terminal (zpty), wraps compadd to
# print what it adds, types LINE and a TAB, and reads until a marker.
# DUMP is compinit's dump file, made by the first call and reused by the
# next (scanning every completion function takes seconds).
zmodload zsh/zpty || exit 2
fdir=$1 line=$2 dump=${3:-}
zpty cz zsh -f -i
zpty -w cz "PS1= PS2= RPS1=; unsetopt zle_bracketed_paste 2>/dev/null; fpath=(${(q)fdir} \$fpath)"
# Never stop to ask "do you wish to see all N possibilities?".
zpty -w cz 'LISTMAX=1000000; stty rows 1000 cols 400 2>/dev/null'
if [[ -n $dump ]]; then
	zpty -w cz "autoload -Uz compinit && compinit -u -d ${(q)dump}"
else
	zpty -w cz 'autoload -Uz compinit && compinit -u -D'
fi
zpty -w cz "zstyle ':completion:*' list-prompt ''; zstyle ':completion:*' menu no; zstyle ':completion:*' ignore-parents parent pwd"
zpty -w cz 'compadd() {
	if [[ ${@[1,(i)(-|--)]} == *-(O|A|D)\ * ]]; then
		builtin compadd "$@"; return
	fi
	local -a __h; builtin compadd -A __h "$@"
	local -A __o; zparseopts -E -A __o P: S: p: s: i: I: J: V: X: x: M: r: R: F: W: d: o: q Q U 1 2 f e E: C l n
	local __x
	for __x in $__h; do print -r -- "<<CAND>>${__o[-p]-}$__x${__o[-s]-}"; done
	builtin compadd "$@"
}'
# One key completes, then prints the end marker and empties the line: a
# TAB and a ^U typed after it would be pending input while the completion
# runs, which a loaded machine turned into an empty candidate list now
# and then.
zpty -w cz 'cz-complete() { zle complete-word; print -r -- "<<DONE$((1+1))>>"; BUFFER=; }; zle -N cz-complete; bindkey "^X^T" cz-complete'
zpty -w cz 'print -r -- "<<READY$((1+1))>>"'
zpty -r -m cz __l '*<<READY2>>*' || exit 3
zpty -w -n cz "$line"$'\C-x\C-t'
zpty -r -m cz __out '*<<DONE2>>*' || exit 3
print -r -- "$__out" | tr -d '\r' | grep -o '<<CAND>>[^[:cntrl:]]*' | sed 's/^<<CAND>>//' | sort -u
zpty -d cz
