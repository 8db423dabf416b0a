# SPDX-License-Identifier: GPL-2.0-or-later
# The README's walkthrough, run as written on this machine: every command
# between "# walkthrough: begin" and "# walkthrough: end" must exit 0.
# Changed for the test only: the state file is a temporary one (CPM_STATE),
# the group cpm-demo is cpm-test-PID (removed at the end whatever
# happens), the examples come from this tree and go to a temporary
# directory, and systemctl is a stand-in (this machine's PID 1 is not
# systemd): it checks that the unit it enables was installed.
. "$(dirname "$0")/lib.sh"

README=$CPM_TOP/README
if ! awk '/^  # walkthrough: begin$/ { on = 1; next }
	/^  # walkthrough: end$/ { on = 0; done = 1 }
	on { print }
	END { exit !done }' "$README" >"$T_TMP/block" || [ ! -s "$T_TMP/block" ]; then
	not_ok "README has the walkthrough between its markers"
	exit 0
fi
ok "README has the walkthrough between its markers"
# Commands: indented by two, no comments or blank lines, "\" continues.
sed 's/^  //' "$T_TMP/block" | awk '
	/^[[:space:]]*(#|$)/ { next }
	{ line = line $0 }
	/\\$/ { sub(/\\$/, "", line); next }
	{ print line; line = "" }' >"$T_TMP/cmds"
n=$(wc -l <"$T_TMP/cmds")
bad=$(grep -v '^[a-zA-Z_$]' "$T_TMP/cmds")
assert "every walkthrough line is a command ($n of them)" "$bad" ""

# A take whose list feeds another tool stops the script when it fails,
# rather than hand that tool an empty list: cpus=$(cpm-alloc ...) || exit,
# never "$(cpm-alloc take ...)" inside another command or piped on.
bad=$(sed -n 's/^  //p' "$README" | awk '{ line = line $0 } /\\$/ { sub(/\\$/, "", line); next }
	{ print line; line = "" }' |
    grep -E 'cpm-alloc (take|reserved)' | grep -v '^ *#' |
    grep -vE '^[a-z_]+=\$\(cpm-alloc [^)]*\) \|\| exit$' |
    grep -E '\$\(cpm-alloc|cpm-alloc take [^|]*\|')
assert "README's takes feed other tools only through cpus=\$(...) || exit" "$bad" ""

cpu=/sys/fs/cgroup/cpu cs=/sys/fs/cgroup/cpuset acct=/sys/fs/cgroup/cpuacct
for c in cgclassify cgdelete; do
	command -v $c >/dev/null || { skip "the walkthrough" "$c not installed (cgroup-tools)"; exit 0; }
done
if ! is_root || [ ! -f $cs/cpuset.cpus ] || [ ! -f $cpu/cpu.cfs_quota_us ]; then
	skip "the walkthrough" "needs root and the cgroup v1 cpu and cpuset hierarchies"
	exit 0
fi
held=
for f in $cs/*/cpuset.cpu_exclusive; do
	[ -f "$f" ] && [ "$(cat "$f")" = 1 ] && held="$held ${f%/cpuset.cpu_exclusive}"
done
if [ -n "$held" ]; then
	skip "the walkthrough" "CPUs of the root cpuset are held exclusively by$held"
	exit 0
fi

G=cpm-test-$$
export CPM_STATE="$T_TMP/alloc.state"
mkdir "$T_TMP/systemd"
at_exit "for d in $cpu/$G $acct/$G $cs/$G; do
		[ -d \$d ] || continue
		for p in \$(cat \$d/cgroup.procs); do kill -9 \$p; done
		sleep 0.2; rmdir \$d
	done"

# One script: the commands share the shell's variables and jobs.  Each
# one's output goes to out.N and its status to a line of the log.
{
	cat <<EOF2
systemctl() {
	case "\$*" in
	daemon-reload) return 0 ;;
	"enable --now "*)
		shift 2
		for u in "\$@"; do
			[ -f "$T_TMP/systemd/\$u" ] || { echo "systemctl: no unit \$u" >&2; return 1; }
			s=\${u%.timer}.service
			[ "\$s" = "\$u" ] || [ -f "$T_TMP/systemd/\$s" ] ||
			    { echo "systemctl: \$u starts \$s, not installed" >&2; return 1; }
			echo "\$u" >>"$T_TMP/enabled"
		done ;;
	*) echo "systemctl: not part of the stand-in: \$*" >&2; return 1 ;;
	esac
}
EOF2
	i=0
	while IFS= read -r c; do
		i=$((i + 1))
		c=$(printf '%s\n' "$c" | sed "s|cpm-demo|$G|g;
		    s|/usr/share/doc/cpm/examples|$CPM_TOP/examples|g;
		    s|/etc/systemd/system|$T_TMP/systemd|g")
		printf '%s\n' "$c" >"$T_TMP/cmd.$i"
		printf '{\n%s\n} >"%s/out.%s" 2>&1\necho "%s $?"\n' "$c" "$T_TMP" "$i" "$i"
	done <"$T_TMP/cmds"
} >"$T_TMP/walk.sh"

(cd "$T_TMP" && sh "$T_TMP/walk.sh") >"$T_TMP/status" 2>&1
i=0
while [ $i -lt "$n" ]; do
	i=$((i + 1))
	name="README: $(sed -n "${i}p" "$T_TMP/cmds")"
	st=$(sed -n "s/^$i \([0-9]*\)$/\1/p" "$T_TMP/status")
	if [ "$st" = 0 ]; then
		ok "$name"
	else
		not_ok "$name" "as run: $(cat "$T_TMP/cmd.$i")" "exit ${st:-(not reached)}" \
		    "$(cat "$T_TMP/out.$i" 2>/dev/null)"
	fi
done

# What the commands did.
tcmd=$(grep -n '^cpm-throttle ' "$T_TMP/cmds" | head -1 | cut -d: -f1)
if [ -n "$tcmd" ] && grep -Eq "^$G +[0-9]+ +[0-9]+ +[01]\.[0-9]{3} " "$T_TMP/out.$tcmd"; then
	ok "the walkthrough's cpm-throttle reports its group"
else
	not_ok "the walkthrough's cpm-throttle reports its group" "$(cat "$T_TMP/out.${tcmd:-0}" 2>&1)"
fi
usage=$(awk -v g="$G" '$1 == g { print $NF }' "$T_TMP/out.${tcmd:-0}" 2>/dev/null)
case $usage in
''|-) not_ok "the walkthrough's cpm-throttle reports its group's usage" "USAGE: '$usage'" ;;
*) ok "the walkthrough's cpm-throttle reports its group's usage" ;;
esac
pcmd=$(grep -n '^cpm-pin -p ' "$T_TMP/cmds" | head -1 | cut -d: -f1)
lcmd=$(grep -n '^cpm-alloc list' "$T_TMP/cmds" | head -1 | cut -d: -f1)
given=$(awk '$1 == "demo" { print $4 }' "$T_TMP/out.${lcmd:-0}" 2>/dev/null)
assert "the service ran on the CPU cpm-alloc gave it" \
    "$(head -1 "$T_TMP/out.${pcmd:-0}" 2>&1)" "${given:-?}"
assert "the walkthrough gives its CPU back" "$(cpm-alloc list 2>&1 | sed 1d)" ""
assert "the walkthrough removes its groups" "$(ls -d $cpu/$G $acct/$G $cs/$G 2>/dev/null)" ""
assert "the walkthrough installs and enables the report's timer" \
    "$(ls "$T_TMP/systemd"):$(cat "$T_TMP/enabled" 2>&1)" \
    "cpm-throttle-report.service
cpm-throttle-report.timer:cpm-throttle-report.timer"
