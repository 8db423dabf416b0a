# SPDX-License-Identifier: GPL-2.0-or-later
# The EXAMPLES section of every manual page, run as written, as
# tests/t-readme.sh runs the README's walkthrough.  Each example (one
# .Dl line, .Dl lines that follow one another, or one .Bd -literal block)
# runs in a shell of its own with a fresh state; it must exit 0, and in a
# block that shows a session ("$ command" lines followed by what they
# print) every command must print what the page shows.  A block of unit
# file lines ([Service] ...) must be the shipped unit's lines.
#
# Where the examples run, and what is changed for the test only:
#   - the machine is a generated one (2 NUMA nodes, 8 cores of 2 threads
#     each, 32 GiB each: CPM_SYSROOT), the cgroups a scratch cgroup v2
#     tree (CPM_CGROUP_ROOT; /sys/fs/cgroup is rewritten to it), the state
#     a temporary file (CPM_STATE);
#   - cpm-pin runs with --dry-run, but to show a process or move
#     interrupts (of a fake proc/irq in the generated machine): the
#     generated machine's CPUs are not this host's, and cpm-pin refuses to
#     change anything on another machine's;
#   - /var/lib/cpm, /var/lib/prometheus/node-exporter, /etc/systemd/system
#     and /tmp/host1 are rewritten to directories below a temporary one,
#     /usr/share/doc/cpm/examples to this tree's examples/,
#     /var/lib/kubelet/cpu_manager_state to a kubelet checkpoint written
#     here, the process 1234 to a sleeping process, and svc to one named so
#     (its PID written in, since another process may be named svc too);
#     ./bigbox is a generated machine of 128 CPUs; the node_exporter
#     textfile directory exists, as Debian's package makes it;
#   - a sampling interval longer than a second is cut to 200ms, and a
#     --watch pipeline, which runs until stopped, passes when it is still
#     running after two seconds;
#   - an example about PCI devices (dev:, devices, --near, --irqs-to,
#     --irqs-restore DEV) runs
#     on tests/topologies/2s4n-devices.spec, the machine whose devices
#     the pages show, and one about a plan on Kerf's machine
#     (tests/plans/kerf.machine) with /etc/cpm/plan rewritten to
#     tests/plans/kerf.plan;
#   - an example about memory (cpm-topo memory, weighted interleave,
#     preferred-many) runs on tests/topologies/2s3n-hmat.spec, with tiers,
#     HMAT attributes and weights; cpm-pin --set-weights and
#     --restore-weights write that machine's weights (below the test's
#     directory); an example that reads a running process's pages
#     (check --pid) is skipped: tests/t-topo-check-mem.sh and the VM
#     tier's HMAT machine run those;
#   - a podman example is skipped: it needs an image from a registry
#     (tests/t-oci-hook.sh runs podman on a local root filesystem);
#   - systemctl is a stand-in (this machine's PID 1 is not systemd) that
#     knows daemon-reload, enable --now of installed units and
#     set-property; examples that need systemd itself (cpm-pin --scope,
#     systemctl show) are skipped: the VM tier's systemd machine runs them.
. "$(dirname "$0")/lib.sh"

command -v python3 >/dev/null || { skip "the manuals' examples" "python3 not installed"; exit 0; }

# --- the machine, the cgroup tree and the stand-ins ---------------------
SYS=$T_TMP/machine
{
	echo "node 0 mem_kb=33554432 free_kb=31457280 distance=10,21"
	echo "node 1 mem_kb=33554432 free_kb=31457280 distance=21,10"
	c=0
	while [ $c -lt 16 ]; do
		n=$((c / 8))
		echo "cpu $c core=$c socket=$n node=$n l3=$n"
		echo "cpu $((c + 16)) core=$c socket=$n node=$n l3=$n"
		c=$((c + 1))
	done
} >"$T_TMP/spec"
python3 "$CPM_TOP/tests/gen-sysfs" "$T_TMP/spec" "$SYS" >/dev/null ||
    { not_ok "the generated machine" "gen-sysfs failed"; exit 0; }
# Its interrupts: two devices on every CPU, one on CPU 5.
mkdir -p "$SYS/proc/irq"
printf 'ffffffff\n' >"$SYS/proc/irq/default_smp_affinity"
for i in 24 25 26; do
	mkdir -p "$SYS/proc/irq/$i/dev$i"
	echo 0-31 >"$SYS/proc/irq/$i/smp_affinity_list"
done
echo 5 >"$SYS/proc/irq/26/smp_affinity_list"
# ./bigbox: a dumped machine of 128 CPUs on two nodes.
{
	echo "node 0 mem_kb=67108864 free_kb=60000000"
	echo "node 1 mem_kb=67108864 free_kb=60000000"
	c=0
	while [ $c -lt 128 ]; do
		echo "cpu $c core=$c socket=$((c / 64)) node=$((c / 64)) l3=$((c / 64))"
		c=$((c + 1))
	done
} >"$T_TMP/bigbox.spec"
python3 "$CPM_TOP/tests/gen-sysfs" "$T_TMP/bigbox.spec" "$T_TMP/bigbox" >/dev/null ||
    { not_ok "the generated bigbox" "gen-sysfs failed"; exit 0; }

# The machines with devices and of Kerf's plan.
python3 "$CPM_TOP/tests/gen-sysfs" "$CPM_TOP/tests/topologies/2s4n-devices.spec" \
    "$T_TMP/devices" >/dev/null ||
    { not_ok "the generated machine with devices" "gen-sysfs failed"; exit 0; }
python3 "$CPM_TOP/tests/gen-sysfs" "$CPM_TOP/tests/topologies/2s3n-hmat.spec" \
    "$T_TMP/hmat" >/dev/null ||
    { not_ok "the generated machine with memory tiers" "gen-sysfs failed"; exit 0; }
python3 "$CPM_TOP/tests/gen-sysfs" "$CPM_TOP/tests/plans/kerf.machine" \
    "$T_TMP/kerf" >/dev/null ||
    { not_ok "Kerf's generated machine" "gen-sysfs failed"; exit 0; }

# Its NIC's vectors (40-43 in the spec), on every CPU.
mkdir -p "$T_TMP/devices/proc/irq"
printf 'ffff\n' >"$T_TMP/devices/proc/irq/default_smp_affinity"
for i in 40 41 42 43; do
	mkdir -p "$T_TMP/devices/proc/irq/$i/ice"
	echo 0-15 >"$T_TMP/devices/proc/irq/$i/smp_affinity_list"
done
awk 'BEGIN { printf "     "; for (c = 0; c < 16; c++) printf "       CPU%d", c; print ""
	printf "LOC:"; for (c = 0; c < 16; c++) printf " %10d", 1000 + c; print "  Local timer interrupts" }' \
    >"$T_TMP/devices/proc/interrupts"

# machine_for EXAMPLE: the sysroot an example runs on.
machine_for() {
	if grep -q '/etc/cpm/plan' "$1"; then
		echo "$T_TMP/kerf"
	elif grep -qE 'cpm-topo memory|-weights|weighted-interleave|preferred-many' "$1"; then
		echo "$T_TMP/hmat"
	elif grep -qE 'dev:|cpm-topo devices|--near|--irqs-to|--irqs-restore [a-z]' "$1"; then
		echo "$T_TMP/devices"
	else
		echo "$SYS"
	fi
}

# v2grp DIR GROUP: a group with the files cpm-quota, cpm-pin and
# cpm-throttle read and write, as the kernel makes them.
v2grp() {
	_d=$1/$2
	mkdir -p "$_d"
	echo "cpu cpuset memory" >"$_d/cgroup.controllers"
	echo "cpu cpuset" >"$_d/cgroup.subtree_control"
	echo "max 100000" >"$_d/cpu.max"
	echo 0 >"$_d/cpu.max.burst"
	echo 100 >"$_d/cpu.weight"
	: >"$_d/cpuset.cpus"
	: >"$_d/cpuset.mems"
	echo 0-31 >"$_d/cpuset.cpus.effective"
	echo 0-1 >"$_d/cpuset.mems.effective"
	echo member >"$_d/cpuset.cpus.partition"
	: >"$_d/cgroup.procs"
	printf 'usage_usec 1000000\nuser_usec 0\nsystem_usec 0\nnr_periods 100\nnr_throttled 50\nthrottled_usec 200000\nnr_bursts 0\nburst_usec 0\n' >"$_d/cpu.stat"
}

KUBELET=$T_TMP/cpu_manager_state
printf '%s\n' '{"policyName":"static","defaultCpuSet":"0-31","checksum":3540042759}' >"$KUBELET"

BIN=$T_TMP/bin
mkdir -p "$BIN"
cat >"$BIN/systemctl" <<EOF
#!/bin/sh
case "\$*" in
daemon-reload) exit 0 ;;
"enable --now "*)
	shift 2
	for u; do
		[ -f "\$EX_ROOT/systemd/\$u" ] || { echo "systemctl: no unit \$u" >&2; exit 1; }
	done ;;
"set-property "*" AllowedCPUs="*) exit 0 ;;
*) echo "systemctl: not part of the stand-in: \$*" >&2; exit 1 ;;
esac
EOF
# cpm-pin plans what it would do on the generated machine, but shows a
# process and moves interrupts (of the machine's proc/irq) as it is.
cat >"$BIN/cpm-pin" <<EOF
#!/bin/sh
case " \$* " in *" --irqs-"*|*" --set-weights "*|*" --restore-weights "*) exec "$CPM_TOP/bin/cpm-pin" "\$@" ;; esac
[ \$# = 2 ] && [ "\$1" = -p ] && exec "$CPM_TOP/bin/cpm-pin" "\$@"
exec "$CPM_TOP/bin/cpm-pin" --dry-run "\$@"
EOF
ln -s "$(command -v sleep)" "$BIN/svc"
chmod 755 "$BIN/systemctl" "$BIN/cpm-pin"
"$BIN/svc" 600 &
svcpid=$!
sleep 600 &
pid1234=$!
at_exit "kill $svcpid $pid1234 2>/dev/null"

# --- the examples --------------------------------------------------------
# extract PAGE: the examples of PAGE, each as "#@ KIND LINE" followed by
# its lines (KIND: run, session or unit).
extract() {
	awk '
	function unesc(s) {
		gsub(/\\\(dq/, "\"", s); gsub(/\\-/, "-", s); gsub(/\\&/, "", s)
		gsub(/\\e/, "\\", s)
		return s
	}
	/^\.Sh EXAMPLES/ { on = 1; next }
	/^\.Sh / { on = 0 }
	!on { next }
	/^\.Dl / {
		if (!dl) print "#@ run " FNR
		dl = 1
		print unesc(substr($0, 5))
		next
	}
	/^\.Bd -literal/ { bd = 1; n = 0; start = FNR; dl = 0; next }
	/^\.Ed/ {
		kind = "run"
		if (line[1] ~ /^\$ /) kind = "session"
		else if (line[1] ~ /^\[[A-Za-z]+\]$/) kind = "unit"
		else if (line[1] ~ /^\* \* \* \* \* root /) {
			kind = "run"; sub(/^\* \* \* \* \* root /, "", line[1])
		}
		print "#@ " kind " " start
		for (i = 1; i <= n; i++) print line[i]
		bd = 0
		next
	}
	bd { line[++n] = unesc($0); next }
	{ dl = 0 }
	' "$1"
}

# rewrite: the example as it runs here (see the top of this file).
rewrite() {
	sed "s|/var/lib/cpm|$EX_ROOT/var/lib/cpm|g
	    s|/var/lib/prometheus/node-exporter|$EX_ROOT/node-exporter|g
	    s|/etc/systemd/system|$EX_ROOT/systemd|g
	    s|/tmp/host1|$EX_ROOT/host1|g
	    s|/usr/share/doc/cpm/examples|$CPM_TOP/examples|g
	    s|/var/lib/kubelet/cpu_manager_state|$KUBELET|g
	    s|/etc/cpm/plan|$CPM_TOP/tests/plans/kerf.plan|g
	    s|/sys/fs/cgroup|$EX_ROOT/cgroup|g
	    s|\\([ \"]\\)1234\\([ \"]\\)|\\1$pid1234\\2|g
	    s|\$(pidof svc)|$svcpid|g
	    s|\\([ \"]\\)1234\$|\\1$pid1234|
	    s|--interval \\([2-9]\\|[1-9][0-9]\\)s|--interval 200ms|g"
}

# logical: a unit file's lines with "\" continuations joined and blanks
# squeezed.
logical() {
	sed -e :a -e '/\\$/N; s/\\\n//; ta' | tr -s ' \t' '  ' | sed 's/^ //; s/ $//'
}

# needs_systemd EXAMPLE: true when it needs systemd as PID 1.
needs_systemd() { grep -qE -- 'cpm-pin .*--scope|systemctl show' "$1"; }

# setup: a fresh state, cgroup tree and working directory for an example.
setup() {
	rm -rf "$EX_ROOT"
	mkdir -p "$EX_ROOT/cwd" "$EX_ROOT/systemd"
	C=$EX_ROOT/cgroup
	v2grp "$C" .
	for g in batch system.slice system.slice/db.service kubepods \
	    kubepods/burstable kubepods/burstable/pod11111111-2222-3333-4444-555555555555; do
		v2grp "$C" "$g"
	done
	ln -s "$T_TMP/bigbox" "$EX_ROOT/cwd/bigbox"
	# as the prometheus-node-exporter package leaves it
	mkdir -p "$EX_ROOT/node-exporter"
	for p in db batch analytics nightly-report app; do
		printf '#!/bin/sh\nexit 0\n' >"$EX_ROOT/cwd/$p"
		chmod 755 "$EX_ROOT/cwd/$p"
	done
}

EX_ROOT=$T_TMP/ex
export EX_ROOT
# run_page PAGE: every example of PAGE, one ok/not ok/skip line each.
run_page() {
	m=$1
	page=${m##*/}
	extract "$m" >"$T_TMP/examples"
	if ! grep -q '^#@ ' "$T_TMP/examples"; then
		not_ok "$page has examples" "no EXAMPLES section found"
		return
	fi
	# one file a example
	rm -f "$T_TMP"/ex.*
	awk -v d="$T_TMP" '/^#@ / { n++; f = sprintf("%s/ex.%03d", d, n) } { print > f }' "$T_TMP/examples"
	for e in "$T_TMP"/ex.*; do
		set -- $(head -1 "$e")
		kind=$2 line=$3
		sed 1d "$e" >"$T_TMP/body"
		first=$(head -1 "$T_TMP/body")
		name="$page:$line: $first"
		if [ "$kind" = unit ]; then
			case $first in
			'[Timer]') u=$CPM_TOP/examples/cpm-throttle-report.timer ;;
			*) u=$CPM_TOP/examples/cpm-throttle-report.service ;;
			esac
			logical <"$u" >"$T_TMP/unit"
			missing=$(logical <"$T_TMP/body" | grep -vxF -f "$T_TMP/unit")
			assert "$name: the lines of ${u##*/}" "$missing" ""
			continue
		fi
		if [ "$kind" != session ] && needs_systemd "$T_TMP/body"; then
			skip "$name" "needs systemd as PID 1 (the VM tier runs it)"
			continue
		fi
		if grep -qE 'check --pid' "$T_TMP/body"; then
			skip "$name" "reads a running process's pages (t-topo-check-mem and the VM tier run it)"
			continue
		fi
		if grep -q 'podman run' "$T_TMP/body"; then
			skip "$name" "needs a container image (tests/t-oci-hook.sh runs podman)"
			continue
		fi
		setup
		rewrite <"$T_TMP/body" >"$T_TMP/body.run"
		env_="CPM_SYSROOT=$(machine_for "$T_TMP/body") CPM_STATE=$EX_ROOT/var/lib/cpm/alloc.state CPM_CGROUP_ROOT=$EX_ROOT/cgroup CPM_BURST_JOURNAL=$EX_ROOT/var/lib/cpm/burst.journal CPM_BURST_GROUPS=$EX_ROOT/var/lib/cpm/burst.groups CPM_IRQ_JOURNAL=$EX_ROOT/var/lib/cpm/irq.journal PATH=$BIN:$CPM_TOP/bin:$PATH"
		if [ "$kind" = session ]; then
			# each "$ command" and the lines it prints
			awk -v d="$T_TMP" '
			/^\$ / { n++; print substr($0, 3) > (d "/s.cmd." n); printf "" > (d "/s.want." n); next }
			{ print >> (d "/s.want." n) }' "$T_TMP/body.run"
			i=1
			while [ -f "$T_TMP/s.cmd.$i" ]; do
				cmd=$(cat "$T_TMP/s.cmd.$i")
				if printf '%s\n' "$cmd" >"$T_TMP/s.one" && needs_systemd "$T_TMP/s.one"; then
					skip "$page:$line: \$ $cmd" "needs systemd as PID 1 (the VM tier runs it)"
					i=$((i + 1))
					continue
				fi
				got=$(cd "$EX_ROOT/cwd" && env $env_ sh -c "$cmd" 2>&1)
				st=$?
				want=$(cat "$T_TMP/s.want.$i")
				if [ "$st" = 0 ] && [ "$got" = "$want" ]; then
					ok "$page:$line: \$ $cmd"
				else
					not_ok "$page:$line: \$ $cmd" "exit $st" "got:  $got" "want: $want"
				fi
				i=$((i + 1))
			done
			rm -f "$T_TMP"/s.cmd.* "$T_TMP"/s.want.*
			continue
		fi
		if grep -q -- '--watch' "$T_TMP/body.run"; then
			# runs until stopped: still running after two seconds
			(cd "$EX_ROOT/cwd" && exec env $env_ timeout -s TERM 2 sh -c "$(cat "$T_TMP/body.run")") >"$T_TMP/out" 2>&1
			st=$?
			[ "$st" = 124 ] && st=0
			# timeout stops the pipeline's commands but waits only
			# for sh: one still exiting (a sanitizer's leak check
			# caught by the SIGCONT that follows the SIGTERM can
			# hang for good) must not outlive the example.
			stop_in_dir "$EX_ROOT/cwd"
		else
			(cd "$EX_ROOT/cwd" && exec env $env_ sh -e "$T_TMP/body.run") >"$T_TMP/out" 2>&1
			st=$?
		fi
		if [ "$st" = 0 ]; then
			ok "$name"
		else
			not_ok "$name" "exit $st" "as run: $(cat "$T_TMP/body.run")" "$(cat "$T_TMP/out")"
		fi
	done
}

for m in "$CPM_TOP"/man/*.[17]; do
	run_page "$m"
done

# The runner fails a wrong example: a page whose example asks for a node
# the machine does not have, and one whose session shows the wrong output.
mkdir "$T_TMP/bad"
printf '%s\n' '.Sh EXAMPLES' 'The CPUs of node 9:' '.Dl cpm-topo cpus node:9' \
    '.Bd -literal' '$ cpm-quota convert 250m | grep shares' 'shares=999' '.Ed' >"$T_TMP/bad/x.1"
run_page "$T_TMP/bad/x.1" >"$T_TMP/bad/out" 2>&1
if [ "$(grep -c '^not ok - x.1:' "$T_TMP/bad/out")" = 2 ]; then
	ok "a wrong example or a wrong output shown fails"
else
	not_ok "a wrong example or a wrong output shown fails" "$(cat "$T_TMP/bad/out")"
fi
