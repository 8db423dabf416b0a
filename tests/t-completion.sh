# SPDX-License-Identifier: GPL-2.0-or-later
# The bash and zsh completions offer what the machine and the state hold:
# subcommands, options, CPUs and nodes of the machine (here a small tree
# given with --sysroot), NAMEs from 'cpm-alloc list', groups of the cgroup
# hierarchy (a tree given with --cgroup-root) and the command after "--".
# bash's functions are called with COMP_WORDS/COMP_CWORD set
# (tests/complete.bash); zsh's run in an interactive zsh in a zpty with
# compadd wrapped to print its candidates (tests/complete.zsh).
. "$(dirname "$0")/lib.sh"

comp=$CPM_TOP/completions

# A machine with CPUs 0-3,8-9 online and NUMA nodes 0 and 2.
sr=$T_TMP/root
mkdir -p "$sr/sys/devices/system/cpu" "$sr/sys/devices/system/node/node0" \
    "$sr/sys/devices/system/node/node2"
echo 0-3,8-9 >"$sr/sys/devices/system/cpu/online"
# Two network interfaces of a PCI NIC.
mkdir -p "$sr/sys/class/net"
ln -s ../../devices/pci0000:3b/0000:3b:00.0/net/eth1 "$sr/sys/class/net/eth1"
ln -s ../../devices/pci0000:3b/0000:3b:00.1/net/eth2 "$sr/sys/class/net/eth2"
# A v1 hierarchy with groups batch, batch/job1 and web.
cg=$T_TMP/cg
mkdir -p "$cg/cpu/batch/job1" "$cg/cpu/web" "$cg/cpuset/pinned"
# A state with two allocations.
export CPM_STATE=$T_TMP/alloc.state
cpm-alloc init >/dev/null && cpm-alloc take db 1 >/dev/null &&
    cpm-alloc take web 0 >/dev/null ||
    not_ok "the allocation state for the NAME tests is made" "$(cpm-alloc list 2>&1)"

# candidates SHELL LINE: what SHELL offers at the end of LINE.
candidates() {
	case $1 in
	bash)
		# Split LINE into words as readline does for these lines
		# (blanks only); a trailing blank starts an empty word.
		set -f
		# shellcheck disable=SC2086
		set -- $2 $(case $2 in *' ') echo "''" ;; esac)
		set +f
		_w=
		for _a in "$@"; do
			[ "$_a" = "''" ] && _a=
			_w="$_w '$_a'"
		done
		eval "set -- $_w"
		bash "$CPM_TOP/tests/complete.bash" "$comp/$1" "$@" 2>&1
		;;
	zsh)
		timeout 60 zsh -f "$CPM_TOP/tests/complete.zsh" "$comp" "$2" \
		    "$T_TMP/zcompdump" 2>&1
		;;
	esac
}

# offers SHELL LINE WANT...: every WANT is among the candidates.
offers() {
	_sh=$1 _line=$2
	shift 2
	_got=$(candidates "$_sh" "$_line")
	_miss=
	for _x in "$@"; do
		printf '%s\n' "$_got" | grep -qxF -- "$_x" || _miss="$_miss $_x"
	done
	if [ -z "$_miss" ]; then
		ok "$_sh: '$_line' offers $*"
	else
		not_ok "$_sh: '$_line' offers $*" "missing:$_miss" "got: $(echo $_got)"
	fi
}

# offers_only SHELL LINE WANT...: the candidates are exactly the WANTs.
offers_only() {
	_sh=$1 _line=$2
	shift 2
	_got=$(candidates "$_sh" "$_line" | sort | tr '\n' ' ')
	_want=$(printf '%s\n' "$@" | sort | tr '\n' ' ')
	assert "$_sh: '$_line' offers only $*" "$_got" "$_want"
}

have_zsh=yes
command -v zsh >/dev/null || have_zsh=
[ -f /usr/share/bash-completion/bash_completion ] || {
	skip "bash completion" "bash-completion is not installed"
	exit 0
}

for sh in bash zsh; do
	if [ "$sh" = zsh ] && [ -z "$have_zsh" ]; then
		skip "zsh completion" "zsh is not installed"
		continue
	fi
	# g: a group as the shell shows it (bash adds the slash of a
	# directory it will descend into; zsh adds it on insertion).
	if [ "$sh" = bash ]; then s=/; else s=; fi

	offers_only $sh 'cpm-topo ' cpus nodes check dump devices memory draw
	offers $sh 'cpm-topo cpus ' all online allowed node: thread: dev:
	# After "dev:" the shells complete the name alone (bash breaks the
	# word at the colon, zsh keeps the prefix aside).
	offers_only $sh "cpm-topo --sysroot $sr cpus dev:e" eth1 eth2
	offers_only $sh "cpm-topo --sysroot $sr check 0 --device e" eth1 eth2
	offers_only $sh "cpm-alloc --sysroot $sr take x 1 --near e" eth1 eth2
	offers_only $sh 'cpm-topo devices -o ' DEVICE ADDRESS TYPE NODE CPUS \
	    DRIVER NAMES VFS PF CLASS VENDOR
	offers $sh "cpm-topo --sysroot $sr cpus " 0-3,8-9 0 3 8 9
	offers_only $sh "cpm-topo --sysroot $sr nodes " 0-3,8-9 0 1 2 3 8 9
	offers_only $sh "cpm-topo --sysroot $sr check 0 --nodes " 0 2
	offers_only $sh "cpm-topo check 0 --policy " compact spread local
	for c in cpus nodes check; do
		offers $sh "cpm-topo $c 0 --j" --json
	done
	offers_only $sh 'cpm-alloc ' init take release resize mode show list \
	    shared reserved hints check reconcile import-kubelet apply oci-hook map
	offers_only $sh 'cpm-alloc oci-hook ' createRuntime prestart poststop
	offers_only $sh 'cpm-alloc release ' db web
	offers_only $sh 'cpm-alloc show w' web
	offers_only $sh 'cpm-alloc mode db ' exclusive share
	offers_only $sh 'cpm-alloc take x 1 --numa-policy ' none best-effort \
	    restricted single-numa-node
	offers_only $sh "cpm-alloc --sysroot $sr take x 1 --prefer-nodes " 0 2
	offers_only $sh 'cpm-quota ' convert class set get burst restore
	offers_only $sh 'cpm-quota get --' --json --weight-formula \
	    --cgroup-root --help --version
	offers_only $sh "cpm-quota --cgroup-root $cg set " batch$s web$s
	offers_only $sh "cpm-throttle --cgroup-root $cg " batch$s web$s
	offers_only $sh "cpm-throttle --cgroup-root $cg batch/" batch/job1$s
	offers_only $sh 'cpm-throttle -o ' table tsv json prom names
	offers_only $sh 'cpm-topo -o ' CPU NODE SOCKET DIE CORE L3 ONLINE \
	    TYPE CAPACITY SIBLINGS PART L1d L1i L2 CACHE
	[ $sh = bash ] && offers_only $sh 'cpm-topo --output cpu,N' cpu,NODE
	offers_only $sh 'cpm-throttle -O ' GROUP PERIODS THROTTLED RATIO \
	    THROTTLED_S LIMIT USAGE RESET PINNED_THROTTLED QOS POD CONTAINER \
	    UNIT BURSTS BURST_S PSI_SOME PSI_FULL PSI_MEM_SOME PSI_MEM_FULL \
	    PSI_IO_SOME PSI_IO_FULL
	offers_only $sh 'cpm-throttle --pressure ' cpu memory io all none
	offers_only $sh "cpm-pin --cgroup-root $cg --cgroup " pinned$s
	offers_only $sh "cpm-pin --sysroot $sr --nodes " 0 2
	offers_only $sh 'cpm-pin --mem ' local bind interleave preferred \
	    preferred-many weighted-interleave
	offers $sh "cpm-pin --sysroot $sr " 0-3,8-9 0 9
	offers $sh 'cpm-pin 0 -- ech' echo
	offers $sh 'cpm-pin 0 -- e' echo env

	# Every long option of the tool's table is offered after "--"
	# (cpm-alloc: the union over its commands).
	for t in cpm-throttle cpm-pin; do
		# shellcheck disable=SC2046
		offers $sh "$t --" $(tool_long_options "$t" | sed 's/^/--/')
	done
	# cpm-topo: the union over its commands.
	got=$(for c in '' cpus check memory draw; do
		candidates $sh "cpm-topo $c --" | sed "s/^/$c /"
	done)
	miss=
	for o in $(tool_long_options cpm-topo); do
		printf '%s\n' "$got" | grep -q -- " --$o\$" || miss="$miss --$o"
	done
	assert "$sh: every cpm-topo option is offered after its command" "$miss" ""
	# cpm-quota: the union over its commands.
	got=$(for c in '' convert class set get burst restore; do
		candidates $sh "cpm-quota $c --" | sed "s/^/$c /"
	done)
	miss=
	for o in $(tool_long_options cpm-quota); do
		printf '%s\n' "$got" | grep -q -- " --$o\$" || miss="$miss --$o"
	done
	assert "$sh: every cpm-quota option is offered after its command" "$miss" ""
	offers $sh 'cpm-alloc take x 1 --' --share --full-cores --distribute \
	    --spread-cores --prefer-l3 --align-socket --numa-policy \
	    --closest-numa --explain --mem --from --prefer-nodes --owner \
	    --dry-run --state --sysroot --cgroup-root
	offers $sh 'cpm-alloc init --' --reserved --reserve --strict-reserved --force
	offers_only $sh 'cpm-alloc list --' --json --output --columns \
	    --noheadings --raw --state --sysroot --cgroup-root --wait --help \
	    --version
	offers_only $sh 'cpm-alloc list -o ' NAME MODE COUNT CPUS NODES \
	    MEMORY OWNER OPTIONS DEVICES CONTAINER
done
