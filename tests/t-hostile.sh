# SPDX-License-Identifier: GPL-2.0-or-later
# Root's cron-style commands in a directory every user can write, against
# an unprivileged user (a numeric uid with no account, through setpriv)
# who plants FIFOs, symlinks and files of their own at the paths cpm
# writes and reads, and holds locks.  The oracles are the file system
# (owners, modes, types, what exists where) and /proc/locks, not cpm.
# "timeout" only keeps a hang (the bug) from stopping the suite.
. "$(dirname "$0")/lib.sh"

if [ "$(id -u)" != 0 ]; then
	skip "hostile environment" "needs root to play both users"
	exit 0
fi
if ! command -v setpriv >/dev/null || ! command -v flock >/dev/null; then
	skip "hostile environment" "needs setpriv and flock (util-linux)"
	exit 0
fi
EVIL=54321
evil() { setpriv --reuid=$EVIL --regid=$EVIL --clear-groups "$@"; }
chmod 755 "$T_TMP"
W=$T_TMP/shared
mkdir "$W"
chmod 0777 "$W"	# world-writable, not sticky: the worst case
ST=$T_TMP/sticky
mkdir "$ST"
chmod 1777 "$ST"	# world-writable and sticky, as /tmp
G=120	# the hang guard, in seconds
# holder FILE: the attacker holds an exclusive flock on FILE until killed
# (a simple command, so that $! is flock's own PID; descriptors above 2
# closed, so that it holds no lock the test suite was started under)
holders=
holder() {
	setpriv --reuid=$EVIL --regid=$EVIL --clear-groups \
	    flock -x "$1" sleep 3600 3>&- 4>&- 5>&- 6>&- 7>&- 8>&- 9>&- &
	holders="$holders $!"
	# until the kernel lists the lock (flock's own PID holds it)
	_i=0
	while [ $_i -lt 500 ] && ! grep -q ":$(stat -c %i "$1") 0 EOF" /proc/locks 2>/dev/null; do
		sleep 0.01; _i=$((_i + 1))
	done
}
at_exit 'for p in $holders; do pkill -P $p sleep 2>/dev/null; kill $p 2>/dev/null; done'

V1=$T_TMP/v1
mkdir -p "$V1/cpu/a" "$V1/cpuacct/a"
echo 50000 >"$V1/cpu/a/cpu.cfs_quota_us"
echo 100000 >"$V1/cpu/a/cpu.cfs_period_us"
printf 'nr_periods 10\nnr_throttled 5\nthrottled_time 7\n' >"$V1/cpu/a/cpu.stat"
echo 0 >"$V1/cpuacct/a/cpuacct.usage"
for f in cpu.cfs_quota_us cpu.cfs_period_us cpu.stat; do
	cp "$V1/cpu/a/$f" "$V1/cpu/$f"
done
echo -1 >"$V1/cpu/cpu.cfs_quota_us"
echo 0 >"$V1/cpuacct/cpuacct.usage"

# --- the atomic writer: files planted at the temporary names ---
# The PIDs the next commands will get, each with a file of the attacker's
# at the temporary name a predictable writer would use.
# (echo and mkfifo in one shell: the loop itself takes no PID)
evil sh -c 'n=$(cat /proc/sys/kernel/ns_last_pid); i=1
	while [ $i -le 400 ]; do echo planted >"$1/.m.prom.tmp.$((n + i))"; i=$((i + 1)); done' - "$W"
run timeout $G cpm-throttle --cgroup-root "$V1" --prom-file "$W/m.prom"
if [ "$rc" = 0 ] && [ "$(stat -c '%u %a %F' "$W/m.prom")" = "0 644 regular file" ] &&
    grep -q '^cpm_cpu_cfs_periods_total{cgroup="a",id="/a"} 10$' "$W/m.prom"; then
	ok "--prom-file beside planted temporaries is root's, 0644, and cpm's text"
else
	not_ok "--prom-file beside planted temporaries is root's, 0644, and cpm's text" \
	    "$(show)" "$(ls -ln "$W/m.prom" 2>&1)" "$(head -3 "$W/m.prom" 2>&1)"
fi
rm -f "$W"/.m.prom.tmp.*

evil sh -c 'n=$(cat /proc/sys/kernel/ns_last_pid)
	set --; i=1; while [ $i -le 400 ]; do set -- "$@" "$0/.s.snap.tmp.$((n + 20 + i))"; i=$((i + 1)); done
	exec mkfifo "$@"' "$W"
run timeout $G cpm-throttle --cgroup-root "$V1" --since "$W/s.snap" -o names
if [ "$rc" = 0 ] && [ "$(stat -c '%u %F' "$W/s.snap")" = "0 regular file" ]; then
	ok "--since beside planted FIFOs does not hang"
else
	not_ok "--since beside planted FIFOs does not hang" "$(show)"
fi
rm -f "$W"/.s.snap.tmp.*

# --- locks another user can hold ---
holder "$W"
run timeout $G cpm-throttle --cgroup-root "$V1" --since "$W/d.snap" -o names
if [ "$rc" = 0 ] && [ -f "$W/d.snap" ]; then
	ok "a lock held on the shared directory does not block --since"
else
	not_ok "a lock held on the shared directory does not block --since" "$(show)"
fi

evil touch "$W/e.snap.lock"
holder "$W/e.snap.lock"
run timeout $G cpm-throttle --cgroup-root "$V1" --since "$W/e.snap" -o names
if [ "$rc" = 2 ] && [ -z "$out" ] && [ ! -e "$W/e.snap" ] &&
    printf '%s' "$err" | grep -q "lock file '$W/e.snap.lock' is owned by another user"; then
	ok "a lock file of another user is refused, not waited on"
else
	not_ok "a lock file of another user is refused, not waited on" "$(show)"
fi

# root's own lock file, held by the attacker through a read-only open
touch "$W/f.snap.lock"
holder "$W/f.snap.lock"
hpid=$(awk -v ino="$(stat -c %i "$W/f.snap.lock")" '$1 ~ /:$/ && $2 == "FLOCK" { split($6, a, ":"); if (a[3] == ino) print $5 }' /proc/locks)
run timeout $G cpm-throttle --cgroup-root "$V1" --since "$W/f.snap" --wait 0.2s -o names
if [ "$rc" = 1 ] && [ -n "$hpid" ] && [ ! -e "$W/f.snap" ] &&
    printf '%s' "$err" | grep -q "is locked by process $hpid; gave up waiting"; then
	ok "--since --wait gives up naming the holder"
else
	not_ok "--since --wait gives up naming the holder" "holder $hpid" "$(show)"
fi

SYS=$T_TMP/sysroot
"$CPM_TOP/tests/gen-sysfs" - "$SYS" <<EOF >/dev/null
cpu 0 core=0 socket=0 node=0
cpu 1 core=1 socket=0 node=0
EOF
touch "$W/g.state.lock"
holder "$W/g.state.lock"
hpid=$(awk -v ino="$(stat -c %i "$W/g.state.lock")" '$1 ~ /:$/ && $2 == "FLOCK" { split($6, a, ":"); if (a[3] == ino) print $5 }' /proc/locks)
run timeout $G cpm-alloc --sysroot "$SYS" --state "$W/g.state" --wait 1 init
if [ "$rc" = 1 ] && [ ! -e "$W/g.state" ] &&
    printf '%s' "$err" | grep -q "is locked by process $hpid; gave up waiting"; then
	ok "cpm-alloc --wait gives up naming the holder"
else
	not_ok "cpm-alloc --wait gives up naming the holder" "holder $hpid" "$(show)"
fi
touch "$ST/g.journal.lock"
holder "$ST/g.journal.lock"
hpid=$(awk -v ino="$(stat -c %i "$ST/g.journal.lock")" '$1 ~ /:$/ && $2 == "FLOCK" { split($6, a, ":"); if (a[3] == ino) print $5 }' /proc/locks)
run timeout $G cpm-quota --journal "$ST/g.journal" --wait 0 restore
if [ "$rc" = 1 ] && printf '%s' "$err" | grep -q "is locked by process $hpid"; then
	ok "cpm-quota restore --wait gives up naming the holder"
else
	not_ok "cpm-quota restore --wait gives up naming the holder" "$(show)"
fi

# --- links and files that are not cpm's: nothing created beside them ---
# A scratch file stands for /etc/passwd: root's, 0644, not cpm's.
PW=$T_TMP/etc/passwd
mkdir "$T_TMP/etc"
echo 'root:x:0:0:root:/root:/bin/sh' >"$PW"
for d in "$W" "$ST"; do
	evil ln -s "$PW" "$d/c.state"
	run env CPM_STATE="$d/c.state" timeout $G cpm-alloc --sysroot "$SYS" take x 1
	if [ "$rc" = 2 ] && [ ! -e "$PW.lock" ] && [ ! -e "$d/c.state.lock" ] &&
	    printf '%s' "$err" | grep -q "state '$d/c.state' is a symbolic link another user could have planted"; then
		ok "another user's link as state is not followed (${d##*/})"
	else
		not_ok "another user's link as state is not followed (${d##*/})" "$(show)" "$(ls -l "$T_TMP/etc")"
	fi
done
run timeout $G cpm-throttle --cgroup-root "$V1" --since "$PW" -o names
if [ "$rc" = 2 ] && [ ! -e "$PW.lock" ] && [ "$(cat "$PW")" = 'root:x:0:0:root:/root:/bin/sh' ] &&
    printf '%s' "$err" | grep -q "'$PW' is not a cpm snapshot file"; then
	ok "--since a file not a snapshot creates no lock beside it"
else
	not_ok "--since a file not a snapshot creates no lock beside it" "$(show)" "$(ls -l "$T_TMP/etc")"
fi
run timeout $G cpm-alloc --sysroot "$SYS" --state "$PW" take x 1
if [ "$rc" = 2 ] && [ ! -e "$PW.lock" ] && printf '%s' "$err" | grep -q "'$PW' is not a cpm state file"; then
	ok "a state that is not cpm's creates no lock beside it"
else
	not_ok "a state that is not cpm's creates no lock beside it" "$(show)"
fi
cpm-alloc --sysroot "$SYS" --state "$T_TMP/own.state" init >/dev/null
evil cp "$T_TMP/own.state" "$ST/o.state"
run timeout $G cpm-alloc --sysroot "$SYS" --state "$ST/o.state" take x 1
if [ "$rc" = 2 ] && [ ! -e "$ST/o.state.lock" ] &&
    printf '%s' "$err" | grep -q "state '$ST/o.state' is owned by another user"; then
	ok "a state of another user is refused"
else
	not_ok "a state of another user is refused" "$(show)"
fi
cp "$T_TMP/own.state" "$T_TMP/ww.state"
chmod 0666 "$T_TMP/ww.state"
check_fail "a state others may write is refused" 2 "state '$T_TMP/ww.state' is writable by other users" \
    timeout $G cpm-alloc --sysroot "$SYS" --state "$T_TMP/ww.state" take x 1
assert "cpm-alloc creates its lock 0600" "$(stat -c %a "$T_TMP/own.state.lock")" "600"

# --- a waiter is told whom it waits for, and how to stop waiting ---
touch "$T_TMP/own.state.lock"
chmod 0644 "$T_TMP/own.state.lock"	# as an older cpm made it
holder "$T_TMP/own.state.lock"
hpid=$(awk -v ino="$(stat -c %i "$T_TMP/own.state.lock")" '$1 ~ /:$/ && $2 == "FLOCK" { split($6, a, ":"); if (a[3] == ino) print $5 }' /proc/locks)
run timeout $G cpm-alloc --sysroot "$SYS" --state "$T_TMP/own.state" --wait 2 take x 1
if [ "$rc" = 1 ] && [ -n "$hpid" ] &&
    printf '%s' "$err" | grep -q "^cpm-alloc: waiting for '$T_TMP/own.state.lock', locked by process $hpid (--wait SECONDS bounds the wait)$" &&
    [ "$(stat -c %a "$T_TMP/own.state.lock")" = 600 ]; then
	ok "a waiting take names the holder after a second"
else
	not_ok "a waiting take names the holder after a second" "holder $hpid" "$(show)"
fi
IRQ=$T_TMP/irqroot
cp -r "$SYS" "$IRQ"
mkdir -p "$IRQ/proc/irq/24/eth0" "$T_TMP/irqj"
printf '3\n' >"$IRQ/proc/irq/default_smp_affinity"
printf '0-1\n' >"$IRQ/proc/irq/24/smp_affinity_list"
touch "$T_TMP/irqj/irq.journal.lock"
holder "$T_TMP/irqj/irq.journal.lock"
hpid=$(awk -v ino="$(stat -c %i "$T_TMP/irqj/irq.journal.lock")" '$1 ~ /:$/ && $2 == "FLOCK" { split($6, a, ":"); if (a[3] == ino) print $5 }' /proc/locks)
run env CPM_IRQ_JOURNAL="$T_TMP/irqj/irq.journal" timeout $G cpm-pin --sysroot "$IRQ" --irqs-away 1 --wait 300ms
if [ "$rc" = 1 ] && [ "$(cat "$IRQ/proc/irq/24/smp_affinity_list")" = 0-1 ] &&
    printf '%s' "$err" | grep -q "is locked by process $hpid; gave up waiting"; then
	ok "cpm-pin --irqs-away --wait gives up naming the holder"
else
	not_ok "cpm-pin --irqs-away --wait gives up naming the holder" "holder $hpid" "$(show)"
fi

# --- journals nobody else could have written ---
# A forged burst journal, valid checksum and all, asks restore to set a
# live group's quota to 1000 us; a forged IRQ journal, to move IRQ 24.
printf '%s 0 %s a 1000 100000 2000 0\n' 999999 "$V1/cpu" >"$T_TMP/body"
sum=$(python3 -c 'import sys
h = 0xcbf29ce484222325
for b in open(sys.argv[1], "rb").read():
    h = ((h ^ b) * 0x100000001b3) & 0xffffffffffffffff
print("%016x" % h)' "$T_TMP/body")
evil sh -c "{ printf 'cpm-burst-journal 2\nchecksum fnv1a64:%s\n' $sum; cat '$T_TMP/body'; } >'$ST/f.journal'"
run timeout $G cpm-quota --cgroup-root "$V1" --journal "$ST/f.journal" restore
if [ "$rc" = 2 ] && [ "$(cat "$V1/cpu/a/cpu.cfs_quota_us")" = 50000 ] &&
    printf '%s' "$err" | grep -q "journal '$ST/f.journal' is owned by another user"; then
	ok "a burst journal of another user is not trusted"
else
	not_ok "a burst journal of another user is not trusted" "$(show)" "$(cat "$V1/cpu/a/cpu.cfs_quota_us")"
fi
# The same file as the register of raised groups, which every burst's
# journal shares: its original would be adopted as the one to put back.
run env CPM_BURST_GROUPS="$ST/f.journal" timeout $G cpm-quota --cgroup-root "$V1" \
    --journal "$T_TMP/own.journal" burst --for 1ms a
if [ "$rc" = 2 ] && [ "$(cat "$V1/cpu/a/cpu.cfs_quota_us")" = 50000 ] &&
    printf '%s' "$err" | grep -q "journal '$ST/f.journal' is owned by another user"; then
	ok "a register of raised groups of another user is not trusted"
else
	not_ok "a register of raised groups of another user is not trusted" "$(show)"
fi
cp "$ST/f.journal" "$W/r.journal"
run timeout $G cpm-quota --cgroup-root "$V1" --journal "$W/r.journal" restore
if [ "$rc" = 2 ] && [ "$(cat "$V1/cpu/a/cpu.cfs_quota_us")" = 50000 ] && [ -e "$W/r.journal" ] &&
    printf '%s' "$err" | grep -q "journal '$W/r.journal' is not trusted: its directory is writable by other users"; then
	ok "a burst journal in a directory others may write is not trusted"
else
	not_ok "a burst journal in a directory others may write is not trusted" "$(show)"
fi
body='irq 24 0'
isum=$(printf '%s\n' "$body" >"$T_TMP/body"; python3 -c 'import sys
h = 0xcbf29ce484222325
for b in open(sys.argv[1], "rb").read():
    h = ((h ^ b) * 0x100000001b3) & 0xffffffffffffffff
print("%016x" % h)' "$T_TMP/body")
evil sh -c "{ printf 'cpm-irq-journal 1\nchecksum fnv1a64:%s\n' $isum; cat '$T_TMP/body'; } >'$ST/irq.journal'"
run env CPM_IRQ_JOURNAL="$ST/irq.journal" timeout $G cpm-pin --sysroot "$IRQ" --irqs-restore
if [ "$rc" = 2 ] && [ -e "$ST/irq.journal" ] && [ "$(cat "$IRQ/proc/irq/24/smp_affinity_list")" = 0-1 ] &&
    printf '%s' "$err" | grep -q "IRQ journal '$ST/irq.journal' is owned by another user"; then
	ok "an IRQ journal of another user is neither applied nor removed"
else
	not_ok "an IRQ journal of another user is neither applied nor removed" "$(show)"
fi

# --- files of an attacker's --sysroot tree that are not the tree's ---
# With fs.protected_hardlinks=0 any user can hard-link root's 0600 files
# into a tree of theirs; root makes the link here, as the attacker could
# on such a system (the test leaves the sysctl alone).
HL=$T_TMP/hlroot
cp -r "$IRQ" "$HL"
mkdir -p "$HL/proc/irq/25/eth1" "$T_TMP/hlj"
printf '0-1\n' >"$HL/proc/irq/25/smp_affinity_list"
chown -R $EVIL:$EVIL "$HL"
run env CPM_IRQ_JOURNAL="$T_TMP/hlj/irq.journal" timeout $G cpm-pin --sysroot "$HL" --irqs-away 1
away=$(show)
printf 'root secret\n' >"$T_TMP/secret"
chmod 600 "$T_TMP/secret"
rm -f "$HL/proc/irq/24/smp_affinity_list"
ln "$T_TMP/secret" "$HL/proc/irq/24/smp_affinity_list"
run env CPM_IRQ_JOURNAL="$T_TMP/hlj/irq.journal" timeout $G cpm-pin --sysroot "$HL" --irqs-restore
if [ "$rc" = 2 ] && [ "$(cat "$T_TMP/secret")" = "root secret" ] &&
    [ -e "$T_TMP/hlj/irq.journal" ] && [ "$(cat "$HL/proc/irq/25/smp_affinity_list")" = 0 ] &&
    [ "$(printf '%s' "$err" | wc -l)" = 1 ] &&
    printf '%s' "$err" | grep -q "refusing to write '$HL/proc/irq/24/smp_affinity_list': a file linked in from outside the tree (2 links"; then
	ok "--irqs-restore refuses a hard-linked file of a --sysroot tree, writing nothing"
else
	not_ok "--irqs-restore refuses a hard-linked file of a --sysroot tree, writing nothing" \
	    "$(show)" "$(cat "$T_TMP/secret")" "$(ls "$T_TMP/hlj")" "$away" "$(cat "$HL/proc/irq/25/smp_affinity_list")"
fi
# A file of root's alone, its other name since removed: not the tree's.
rm -f "$HL/proc/irq/24/smp_affinity_list" "$T_TMP/secret" "$T_TMP/hlj/irq.journal"
printf '0-1\n' >"$HL/proc/irq/24/smp_affinity_list"
chmod 600 "$HL/proc/irq/24/smp_affinity_list"
printf '0-1\n' >"$HL/proc/irq/25/smp_affinity_list"
chown $EVIL:$EVIL "$HL/proc/irq/25/smp_affinity_list"
run env CPM_IRQ_JOURNAL="$T_TMP/hlj/irq.journal" timeout $G cpm-pin --sysroot "$HL" --irqs-away 1
if [ "$rc" = 2 ] && [ "$(cat "$HL/proc/irq/24/smp_affinity_list")" = 0-1 ] &&
    [ "$(cat "$HL/proc/irq/25/smp_affinity_list")" = 0-1 ] && [ ! -e "$T_TMP/hlj/irq.journal" ] &&
    printf '%s' "$err" | grep -q "refusing to write '$HL/proc/irq/24/smp_affinity_list': a file linked in from outside the tree (1 links, owner 0)"; then
	ok "--irqs-away refuses a file of another owner in a --sysroot tree, writing nothing"
else
	not_ok "--irqs-away refuses a file of another owner in a --sysroot tree, writing nothing" "$(show)"
fi

# A dump never makes a file more readable than its source: root's 0600
# file left in the attacker's tree (linked in, its other name since
# removed) is not copied world-readable, nor a 0640 file of the tree.
HD=$T_TMP/hdroot
cp -r "$SYS" "$HD"
chown -R $EVIL:$EVIL "$HD"
c0=$HD/sys/devices/system/cpu/cpu0/topology/core_id
c1=$HD/sys/devices/system/cpu/cpu1/topology/core_id
rm -f "$c0"
printf '0\n' >"$c0"
chmod 600 "$c0"
chmod 640 "$c1"
run timeout $G cpm-topo --sysroot "$HD" dump "$T_TMP/hdump"
wide=
for f in "$c0" "$c1"; do
	d=$T_TMP/hdump${f#"$HD"}
	[ -e "$d" ] || continue
	[ $((0$(stat -c %a "$d") & ~0$(stat -c %a "$f"))) = 0 ] || wide="$wide $(stat -c '%a %n' "$d")"
done
if [ "$rc" = 0 ] && [ -z "$wide" ] && [ -d "$T_TMP/hdump/sys" ]; then
	ok "a dump never copies a file with a wider mode than its source"
else
	not_ok "a dump never copies a file with a wider mode than its source" "$(show)" "$wide"
fi
# Nor does an error message quote such a file: root's 0600 file, its
# other name gone, as a control file of the attacker's --cgroup-root tree.
HV=$T_TMP/hv1
cp -r "$V1" "$HV"
chown -R $EVIL:$EVIL "$HV"
rm -f "$HV/cpu/a/cpu.cfs_quota_us"
printf 'ROOTONLY-TEXT\n' >"$HV/cpu/a/cpu.cfs_quota_us"
chmod 600 "$HV/cpu/a/cpu.cfs_quota_us"
run timeout $G cpm-throttle --cgroup-root "$HV"
if [ "$rc" = 2 ] && ! printf '%s%s' "$out" "$err" | grep -q ROOTONLY &&
    [ "$(printf '%s' "$err" | wc -l)" = 1 ]; then
	ok "cpm-throttle does not quote a root-only file of another user's tree"
else
	not_ok "cpm-throttle does not quote a root-only file of another user's tree" "$(show)"
fi

# --- a state that says CPUs are held where none can be ---
# (hand-made and signed, as a user who may write it could make it; 'take'
# would hand the same CPUs out again, or reserved ones, or none at all)
. "$CPM_TOP/tests/lib-alloc.sh"
for case in "0:entry q n=1 cpus=0 mode=exclusive:reserved CPUs 0 are held by an allocation" \
    ":entry q n=1 cpus=1 mode=exclusive|entry r n=1 cpus=1 mode=share:two allocations hold the same CPUs" \
    ":entry q n=1 cpus=7 mode=exclusive:allocations hold CPUs 7, which this machine lacks"; do
	res=${case%%:*} rest=${case#*:}
	lines=${rest%%:*} msg=${rest#*:}
	rm -f "$T_TMP/bh.state"
	cpm-alloc --sysroot "$SYS" --state "$T_TMP/bh.state" init ${res:+--reserved $res} >/dev/null
	printf '%s\n' "$lines" | tr '|' '\n' >>"$T_TMP/bh.state"
	resign "$T_TMP/bh.state"
	cp "$T_TMP/bh.state" "$T_TMP/bh.orig"
	check_fail "take refuses a state where ${msg%% which*}" 2 "cannot be taken from: $msg" \
	    cpm-alloc --sysroot "$SYS" --state "$T_TMP/bh.state" take x 1
	assert "that state is left as it was (${msg%% *} ...)" "$(cmp "$T_TMP/bh.state" "$T_TMP/bh.orig" && echo same)" same
done

# --- a state cut and written back in place while it is read ---
# (by a program that does not replace it as cpm does: every read ends in
# the state or a clean error, never a signal; test-state runs 10,000)
# Three hundred entries in one change: written as a version 2 state
# (whose FNV-1a checksum a script can compute) that the next take
# rewrites as cpm writes it.
cpm-alloc --sysroot "$SYS" --state "$T_TMP/cut.state" init >/dev/null
python3 -c 'import sys
body = open(sys.argv[1]).read().split("\n", 2)[2]
body += "".join("entry padding-entry-%d n=0 cpus= mode=exclusive\n" % i for i in range(300))
h = 0xcbf29ce484222325
for b in body.encode():
    h = ((h ^ b) * 0x100000001b3) & 0xffffffffffffffff
open(sys.argv[1], "w").write("cpm-alloc-state 2\nchecksum fnv1a64:%016x\n" % h + body)' "$T_TMP/cut.state"
cpm-alloc --sysroot "$SYS" --state "$T_TMP/cut.state" take padding-entry-300 0 >/dev/null
assert "a state of 301 entries to cut" \
    "$(head -n 1 "$T_TMP/cut.state") $(grep -c '^entry padding-entry-' "$T_TMP/cut.state")" \
    "cpm-alloc-state 3 301"
cp "$T_TMP/cut.state" "$T_TMP/cut.orig"
size=$(wc -c <"$T_TMP/cut.orig")
python3 -c 'import os, random, sys
data = open(sys.argv[1], "rb").read()
fd = os.open(sys.argv[2], os.O_WRONLY)
while True:
    os.ftruncate(fd, random.randrange(len(data)))
    os.pwrite(fd, data, 0)' "$T_TMP/cut.orig" "$T_TMP/cut.state" &
cutter=$!
at_exit "kill $cutter 2>/dev/null"
# Under valgrind each read costs most of a second: a few dozen reads
# there look for memory errors; the race itself is the plain run's.
readers=1000
[ -z "${CPM_VALGRIND:-}" ] || readers=40
n=0 bad=
while [ $n -lt $readers ]; do
	cpm-alloc --sysroot "$SYS" --state "$T_TMP/cut.state" list >/dev/null 2>&1
	rc=$?
	[ $rc -le 2 ] || bad="$bad $rc"
	n=$((n + 1))
done
kill $cutter
wait $cutter 2>/dev/null
assert "a state of $size bytes cut under $readers readers: no reader dies of a signal" "$bad" ""

# --- cpm-quota burst: input without end, and signals ---
run sh -c 'exec timeout -k 5 20 cpm-quota --cgroup-root "$1" --journal "$2" burst </dev/zero' - "$V1" "$T_TMP/z.journal"
if [ "$rc" = 2 ] && [ "$(printf '%s' "$err" | wc -l)" = 1 ] &&
    printf '%s' "$err" | grep -q "a line on stdin is longer than 65535 bytes"; then
	ok "burst </dev/zero stops at the first line too long, with one warning"
else
	not_ok "burst </dev/zero stops at the first line too long, with one warning" "exit $rc" "$(printf '%s' "$err" | head -c 300)"
fi
python3 -c 'import sys
sys.stdout.buffer.write(b"x\0y\n" * 200000)' >"$T_TMP/nul.in"
run sh -c 'exec timeout -k 5 20 cpm-quota --cgroup-root "$1" --journal "$2" burst <"$3"' - "$V1" "$T_TMP/z.journal" "$T_TMP/nul.in"
if [ "$rc" = 2 ] && [ "$(printf '%s' "$err" | wc -l)" = 10 ]; then
	ok "burst warns of ten lines holding a NUL byte, not 200,000"
else
	not_ok "burst warns of ten lines holding a NUL byte, not 200,000" "exit $rc" "$(printf '%s' "$err" | wc -l) lines"
fi
# an input that never pauses: SIGTERM still ends it, and 'a' goes back
yes a | timeout -k 5 30 cpm-quota --cgroup-root "$V1" --journal "$T_TMP/y.journal" --for 60s burst 2>"$T_TMP/y.err" &
bp=$!
i=0
while [ $i -lt 500 ] && [ "$(cat "$V1/cpu/a/cpu.cfs_quota_us")" = 50000 ]; do sleep 0.01; i=$((i + 1)); done
raised=$(cat "$V1/cpu/a/cpu.cfs_quota_us")
bpid=$(pgrep -P $$ -f 'cpm-quota --cgroup-root' | head -1)
[ -n "$bpid" ] || bpid=$(pgrep -f "cpm-quota --cgroup-root $V1 --journal $T_TMP/y.journal" | head -1)
t0=$(date +%s)
kill -TERM "$bpid" 2>/dev/null
wait $bp
t1=$(date +%s)
assert "burst fed without pause: raised, then SIGTERM ends it at once and restores" \
    "$raised $(cat "$V1/cpu/a/cpu.cfs_quota_us") $([ $((t1 - t0)) -lt 10 ] && echo soon)" "100000 50000 soon"

# The same on the kernel's own cpu hierarchy (v1), where a write is a
# syscall and not a file rewrite: a group raised, then input that never
# pauses (NUL bytes as from /dev/zero, or the group's name as from 'yes')
# must neither keep SIGTERM out nor flood stderr, and the quota goes back.
LG=cpm-test-$$
LD=/sys/fs/cgroup/cpu/$LG
if is_root && [ -f /sys/fs/cgroup/cpu/cpu.cfs_quota_us ] && mkdir "$LD" 2>/dev/null; then
	at_exit "rmdir '$LD' 2>/dev/null"
	echo 100000 >"$LD/cpu.cfs_period_us"
	echo 30000 >"$LD/cpu.cfs_quota_us"
	# The feeder keeps a 1 MiB pipe full, so that stdin is always ready
	# (as /dev/zero is), whatever the speed of the reader.
	for feed in zero yes; do
		python3 -c 'import fcntl, os, sys
fcntl.fcntl(1, 1031, 1 << 20)		# F_SETPIPE_SZ
g = sys.argv[2].encode() + b"\n"
os.write(1, g)
buf = b"\0" * 65536 if sys.argv[1] == "zero" else g * (65536 // len(g))
while True:
	os.write(1, buf)' $feed $LG 2>/dev/null | CPM_BURST_GROUPS="$T_TMP/live.groups" \
		    cpm-quota --journal "$T_TMP/live-$feed.journal" --for 60s burst \
		    >/dev/null 2>"$T_TMP/live-$feed.err" &
		bp=$!
		i=0
		while [ $i -lt 500 ] && [ "$(cat "$LD/cpu.cfs_quota_us")" = 30000 ]; do
			sleep 0.01; i=$((i + 1))
		done
		raised=$(cat "$LD/cpu.cfs_quota_us")
		sleep 1
		bpid=$(pgrep -f "cpm-quota --journal $T_TMP/live-$feed.journal" | head -1)
		[ -n "$bpid" ] && kill -TERM "$bpid" 2>/dev/null
		# a bounded wait: 10 s, then it is killed and counted as hung
		i=0
		while [ -n "$bpid" ] && kill -0 "$bpid" 2>/dev/null && [ $i -lt 100 ]; do
			sleep 0.1; i=$((i + 1))
		done
		if [ -n "$bpid" ] && kill -0 "$bpid" 2>/dev/null; then
			ended=hung
			kill -KILL "$bpid" 2>/dev/null
		else
			ended=ended
		fi
		wait $bp 2>/dev/null
		bytes=$(wc -c <"$T_TMP/live-$feed.err")
		assert "burst on the kernel's cpu group under endless input ($feed): SIGTERM ends it, stderr small, quota back" \
		    "$raised $ended $([ "$bytes" -le 1024 ] && echo small || echo "$bytes bytes") $(cat "$LD/cpu.cfs_quota_us")" \
		    "60000 ended small 30000"
		echo 30000 >"$LD/cpu.cfs_quota_us"
	done
else
	skip "burst on the kernel's cpu group under endless input" "needs root and a v1 cpu hierarchy"
fi

# --- a fake tree's control files: FIFOs and hard links ---
EVW=$T_TMP/evw
cp -r "$V1" "$EVW"
chown -R $EVIL:$EVIL "$EVW"
evil rm -f "$EVW/cpu/a/cpu.shares"
evil mkfifo "$EVW/cpu/a/cpu.shares"
run timeout $G cpm-quota --cgroup-root "$EVW" set a --request 2
if [ "$rc" != 0 ] && [ "$rc" != 124 ] && printf '%s' "$err" | grep -q "cpu.shares of a: not a regular file"; then
	ok "set refuses a FIFO in place of a control file, without hanging"
else
	not_ok "set refuses a FIFO in place of a control file, without hanging" "$(show)"
fi
# with protected_hardlinks off, a link to root's 0600 file in the tree
ph=$(cat /proc/sys/fs/protected_hardlinks)
at_exit "echo $ph >/proc/sys/fs/protected_hardlinks"
echo 0 >/proc/sys/fs/protected_hardlinks
echo 'cpm-secret-text' >"$T_TMP/secret.hl"
chmod 600 "$T_TMP/secret.hl"
hl() {	# hl NAME: the attacker's file NAME replaced by a link to the secret
	echo 'cpm-secret-text' >"$T_TMP/secret.hl"	# as it was, whatever came before
	evil rm -f "$1" && evil ln "$T_TMP/secret.hl" "$1"
}
hl "$EVW/cpu/a/cpu.shares"
run timeout $G cpm-quota --cgroup-root "$EVW" set a --request 2
if [ "$rc" != 0 ] && [ "$(cat "$T_TMP/secret.hl")" = cpm-secret-text ] &&
    printf '%s' "$err" | grep -q "cpu.shares of a: a file linked in from outside the tree"; then
	ok "set does not truncate root's file hard-linked into a tree"
else
	not_ok "set does not truncate root's file hard-linked into a tree" "$(show)" "$(cat "$T_TMP/secret.hl")"
fi
hl "$EVW/cpu/a/cpu.cfs_quota_us"
run timeout $G cpm-quota --cgroup-root "$EVW" get a
if [ "$rc" = 2 ] && ! printf '%s%s' "$out" "$err" | grep -q cpm-secret &&
    printf '%s' "$err" | grep -q "cannot read cpu.cfs_quota_us of a: a file hard-linked from elsewhere"; then
	ok "get does not show root's file hard-linked into a tree"
else
	not_ok "get does not show root's file hard-linked into a tree" "$(show)"
fi
hl "$EVW/cpu/a/cpu.stat"
run timeout $G cpm-throttle --cgroup-root "$EVW"
if [ "$rc" = 2 ] && ! printf '%s%s' "$out" "$err" | grep -q cpm-secret; then
	ok "cpm-throttle does not show root's file hard-linked into a tree"
else
	not_ok "cpm-throttle does not show root's file hard-linked into a tree" "$(show)"
fi
EVS=$T_TMP/evsys
cp -r "$SYS" "$EVS"
chown -R $EVIL:$EVIL "$EVS"
hl "$EVS/sys/devices/system/cpu/online"
run cpm-topo --sysroot "$EVS"
if [ "$rc" = 2 ] && ! printf '%s%s' "$out" "$err" | grep -q cpm-secret &&
    printf '%s' "$err" | grep -q "online is a file hard-linked from elsewhere"; then
	ok "cpm-topo does not show root's file hard-linked into a sysroot"
else
	not_ok "cpm-topo does not show root's file hard-linked into a sysroot" "$(show)"
fi
echo "$ph" >/proc/sys/fs/protected_hardlinks

# --- control bytes from input are shown escaped ---
run cpm-topo --sysroot "$SYS" cpus "$(printf '0\033]0;owned\007')"
if [ "$rc" = 2 ] && ! printf '%s' "$err" | grep -q "$(printf '\033')" &&
    printf '%s' "$err" | grep -qF '\x1b]0;owned\x07'; then
	ok "control bytes in an error message are escaped"
else
	not_ok "control bytes in an error message are escaped" "$(show | od -c | head -5)"
fi

# --- readers: FIFOs and devices where files belong ---
# A reader that grows without bound would eat all memory: run those under
# a 2 GB address-space limit, so that it fails quickly instead.  A tool
# built with AddressSanitizer maps terabytes of shadow at start and cannot
# run under any such limit; there the size caps are still checked, with
# only the timeout as the guard.
memcap='ulimit -v 2000000'
if grep -q __asan_init "$CPM_TOP/bin/cpm-topo" 2>/dev/null; then
	memcap=:
fi
evil mkfifo "$W/h.state"
check_fail "a FIFO as state is refused" 2 "state '$W/h.state' is not a regular file" \
    timeout $G cpm-alloc --sysroot "$SYS" --state "$W/h.state" list
if [ ! -e "$W/h.state.lock" ]; then
	ok "a refused state creates no lock file"
else
	not_ok "a refused state creates no lock file"
fi
evil mkfifo "$W/i.snap"
check_fail "a FIFO as snapshot is refused" 2 "snapshot '$W/i.snap' is not a regular file" \
    timeout $G cpm-throttle --cgroup-root "$V1" --since "$W/i.snap"
evil ln -s /dev/zero "$W/j.snap"
check_fail "/dev/zero as snapshot is refused" 2 "snapshot '$W/j.snap' is a symbolic link another user could have planted" \
    sh -c "$memcap"'; exec timeout '$G' "$@"' - cpm-throttle --cgroup-root "$V1" --since "$W/j.snap"
mkfifo "$ST/k.journal"
check_fail "a FIFO as burst journal is refused" 2 "journal '$ST/k.journal' is not a regular file" \
    timeout $G cpm-quota --journal "$ST/k.journal" restore

evil mkfifo "$W/n.kubelet"
check_fail "a FIFO as kubelet checkpoint is refused" 2 "cannot read '$W/n.kubelet': not a regular file" \
    timeout $G cpm-alloc --sysroot "$SYS" --state "$T_TMP/n.state" import-kubelet "$W/n.kubelet"

# --- directories: a symlink planted on the way ---
mkdir "$T_TMP/rootdir"
evil ln -s "$T_TMP/rootdir" "$W/l"
run timeout $G cpm-topo --sysroot "$SYS" dump "$W/l/dump"
if [ "$rc" != 0 ] && [ -z "$(ls -A "$T_TMP/rootdir")" ]; then
	ok "topo dump does not follow another user's symlink"
else
	not_ok "topo dump does not follow another user's symlink" "$(show)" "$(ls -lA "$T_TMP/rootdir")"
fi
run timeout $G cpm-alloc --sysroot "$SYS" --state "$W/l/m.state" init
if [ "$rc" != 0 ] && [ -z "$(ls -A "$T_TMP/rootdir")" ]; then
	ok "the state's directory is not created through another user's symlink"
else
	not_ok "the state's directory is not created through another user's symlink" "$(show)"
fi

# --- symlinked state: one file whatever the spelling ---
cpm-alloc --sysroot "$SYS" --state "$T_TMP/real.state" init >/dev/null
ln -s "$T_TMP/real.state" "$T_TMP/link.state"
run cpm-alloc --sysroot "$SYS" --state "$T_TMP/link.state" take x 1
if [ "$rc" = 0 ] && [ -L "$T_TMP/link.state" ] && grep -q '^entry x ' "$T_TMP/real.state" &&
    [ ! -e "$T_TMP/link.state.lock" ] && [ -e "$T_TMP/real.state.lock" ]; then
	ok "a symlinked state locks and replaces the real file"
else
	not_ok "a symlinked state locks and replaces the real file" "$(show)" "$(ls -l "$T_TMP")"
fi

# --- inconsistent machines: refused, naming the file, never guessed ---
for case in "online:0-3:inconsistent sys/devices/system/cpu/online: CPUs 2-3 are not possible" \
    "isolated:0-7:inconsistent sys/devices/system/cpu/isolated: CPUs 2-7 are not possible" \
    "online:NUL:malformed sys/devices/system/cpu/online: a NUL byte inside its text"; do
	f=${case%%:*} rest=${case#*:}
	v=${rest%%:*} msg=${rest#*:}
	rm -rf "$T_TMP/bad"
	cp -r "$SYS" "$T_TMP/bad"
	if [ "$v" = NUL ]; then
		printf '0\0001\n' >"$T_TMP/bad/sys/devices/system/cpu/$f"
	else
		echo "$v" >"$T_TMP/bad/sys/devices/system/cpu/$f"
	fi
	check_fail "$f '$v' is refused by cpm-topo" 2 "$msg" cpm-topo --sysroot "$T_TMP/bad"
	check_fail "$f '$v' is refused by cpm-alloc take, creating nothing" 2 "$msg" \
	    cpm-alloc --sysroot "$T_TMP/bad" --state "$T_TMP/bad.state" take a 1
	assert "$f '$v': no state was written" "$(ls "$T_TMP"/bad.state* 2>/dev/null)" ""
done
# Lists that name CPUs the tree does not hold.  The kernel makes cpuN for
# every present CPU before it can come online, its sibling masks hold
# possible CPUs only, and it maps each CPU to one node; but possible CPUs
# beyond the present ones have no directory on real machines, and broken
# firmware does give overlapping node lists.
IN=$T_TMP/incons
"$CPM_TOP/tests/gen-sysfs" - "$IN" <<EOF >/dev/null
cpu 0 core=0 socket=0 node=0
cpu 1 core=0 socket=0 node=0
cpu 2 core=1 socket=0 node=1
cpu 3 core=1 socket=0 node=1
EOF
cpud=sys/devices/system/cpu
incons() {	# a fresh copy of the sound tree
	rm -rf "$T_TMP/inc" "$T_TMP"/inc.state*
	cp -r "$IN" "$T_TMP/inc"
}
incons
for f in possible present online; do echo 0-7 >"$T_TMP/inc/$cpud/$f"; done
msg="inconsistent $cpud/online: CPU 4 is online but there is no $cpud/cpu4"
check_fail "online CPUs without a cpuN directory are refused by cpm-topo" 2 "$msg" \
    cpm-topo --sysroot "$T_TMP/inc"
check_fail "... by cpm-alloc init, writing no state" 2 "$msg" \
    cpm-alloc --sysroot "$T_TMP/inc" --state "$T_TMP/inc.state" init
assert "... no state was written" "$(ls "$T_TMP"/inc.state* 2>/dev/null)" ""
check_fail "... by cpm-alloc take, handing out nothing" 2 "$msg" \
    cpm-alloc --sysroot "$T_TMP/inc" --state "$T_TMP/inc.state" take a 6
check_fail "... and by cpm-pin" 2 "$msg" \
    cpm-pin --sysroot "$T_TMP/inc" --dry-run 4 -- true
incons
echo 0-7 >"$T_TMP/inc/$cpud/possible"
run cpm-topo --sysroot "$T_TMP/inc" cpus offline
assert "possible CPUs beyond the present ones, without directories, are no fault (real machines)" \
    "$rc $(echo $out) $err" "0 4-7 "
incons
echo 0-1,9 >"$T_TMP/inc/$cpud/cpu0/topology/thread_siblings_list"
msg="inconsistent $cpud/cpu0/topology/thread_siblings_list: CPU 9 is not possible"
check_fail "an SMT sibling list naming a CPU that is not possible is refused by cpm-topo" 2 "$msg" \
    cpm-topo --sysroot "$T_TMP/inc"
check_fail "... and by cpm-alloc take, handing out nothing" 2 "$msg" \
    cpm-alloc --sysroot "$T_TMP/inc" --state "$T_TMP/inc.state" take a 2
assert "... no state was written" "$(ls "$T_TMP"/inc.state* 2>/dev/null)" ""
incons
rm -f "$T_TMP/inc/$cpud/cpu2/topology/thread_siblings_list" "$T_TMP/inc/$cpud/cpu2/topology/thread_siblings"
echo 2-4 >"$T_TMP/inc/$cpud/cpu2/topology/core_cpus_list"
check_fail "a core_cpus_list naming a CPU that is not possible is refused" 2 \
    "inconsistent $cpud/cpu2/topology/core_cpus_list: CPU 4 is not possible" \
    cpm-topo --sysroot "$T_TMP/inc"
incons
echo 0,2-3 >"$T_TMP/inc/sys/devices/system/node/node1/cpulist"
run cpm-topo --sysroot "$T_TMP/inc" cpus node:0
assert "node lists that overlap (broken firmware does it): the CPU stays in the lowest node, warned once" \
    "$rc $(echo $out) $(printf '%s' "$err" | wc -l) $err" "0 0-1 1 cpm-topo: inconsistent sys/devices/system/node/node1/cpulist: CPU 0 is in node 0 too; taken as node 0's
"
run cpm-alloc --sysroot "$T_TMP/inc" --state "$T_TMP/inc.state" init
assert "... cpm-alloc warns of it too" "$rc $(printf '%s' "$err" | grep -c 'CPU 0 is in node 0 too')" "0 1"
rm -rf "$T_TMP/inc" "$T_TMP"/inc.state*

rm -f "$T_TMP/bad/sys/devices/system/cpu/online"
mkfifo "$T_TMP/bad/sys/devices/system/cpu/online"
check_fail "a FIFO in place of a sysfs file is refused" 2 \
    "sys/devices/system/cpu/online is not a regular file" timeout $G cpm-topo --sysroot "$T_TMP/bad"

# --- a replayed tree another user owns: no link leads out of it ---
# Root's secret lies outside the attacker's tree; the tree points at it
# with an absolute link, and with a relative one climbing out through
# "..".  Resolved with the tree as the root (as in a chroot), both name
# the tree's own file at that path: absent first (the tree then has no
# online file), then the attacker's own text, never root's.
SECRET=$T_TMP/secret
echo 'cpm-secret-text' >"$SECRET"
chmod 600 "$SECRET"
EV=$T_TMP/evtree
cp -r "$SYS" "$EV"
chown -R $EVIL:$EVIL "$EV"
n=0
for link in "$SECRET" "../../../../../../../../../../../..$SECRET"; do
	n=$((n + 1))
	evil rm -f "$EV/sys/devices/system/cpu/online"
	evil ln -s "$link" "$EV/sys/devices/system/cpu/online"
	run cpm-topo --sysroot "$EV"
	if [ "$rc" = 0 ] && ! printf '%s%s' "$out" "$err" | grep -q cpm-secret; then
		ok "link $n out of a replayed tree: root's file is not read"
	else
		not_ok "link $n out of a replayed tree: root's file is not read" "$(show)"
	fi
done
evil mkdir -p "$EV${SECRET%/*}"
evil sh -c "echo 1 >'$EV$SECRET'"
run cpm-topo --sysroot "$EV" cpus online
assert "a link out of a replayed tree resolves inside it" "$rc $(printf "%s" "$out")" "0 1"
# a directory: the node directory as a link to another tree's, outside
printf '%s\n' 'cpu 0 core=0 socket=0 node=0' 'cpu 1 core=1 socket=0 node=1' |
    "$CPM_TOP/tests/gen-sysfs" - "$T_TMP/other" >/dev/null
evil rm -rf "$EV/sys/devices/system/node"
evil ln -s "$T_TMP/other/sys/devices/system/node" "$EV/sys/devices/system/node"
run cpm-topo --sysroot "$EV"
assert "a directory link out of a replayed tree is not listed" \
    "$rc $(printf '%s' "$out" | grep '^NUMA nodes:')" "0 NUMA nodes:           0"

# --- a fake cgroup tree another user owns: no control file is a link ---
# No cgroup file system holds a link; one planted where a control file
# belongs points at root's file, whose text would pass for the control
# file's.  Refused as bad input, naming the file, with nothing of it read.
printf 'nr_periods 99\nnr_throttled 98\nthrottled_time 97\n' >"$T_TMP/secret.stat"
echo 12345 >"$T_TMP/secret.quota"
chmod 600 "$T_TMP/secret.stat" "$T_TMP/secret.quota"
EVCG=$T_TMP/evcg
cp -r "$V1" "$EVCG"
chown -R $EVIL:$EVIL "$EVCG"
evil rm -f "$EVCG/cpu/a/cpu.stat"
evil ln -s "$T_TMP/secret.stat" "$EVCG/cpu/a/cpu.stat"
check_fail "cpm-throttle refuses a control file that is a link" 2 \
    "^cpm-throttle: cannot read cpu.stat of a: a symbolic link$" \
    cpm-throttle --cgroup-root "$EVCG"
evil rm -f "$EVCG/cpu/a/cpu.stat"
evil cp "$V1/cpu/a/cpu.stat" "$EVCG/cpu/a/cpu.stat"
evil rm -f "$EVCG/cpu/a/cpu.cfs_quota_us"
evil ln -s "$T_TMP/secret.quota" "$EVCG/cpu/a/cpu.cfs_quota_us"
check_fail "cpm-quota get refuses a control file that is a link" 2 \
    "^cpm-quota: cannot read cpu.cfs_quota_us of a: a symbolic link$" \
    cpm-quota --cgroup-root "$EVCG" get a

# --- one meaning of a node's CPUs in every view ---
# (an arm64 kernel's tree: x86 drops an offline CPU from the list)
printf '%s\n' 'arch arm64' 'cpu 0 core=0 socket=0 node=0' 'cpu 1 core=1 socket=0 node=0 online=0' \
    'cpu 2 core=0 socket=1 node=1' 'cpu 3 core=1 socket=1 node=1' |
    "$CPM_TOP/tests/gen-sysfs" - "$T_TMP/off" >/dev/null
# the oracle: the node's cpulist in the tree, less the offline CPUs
want=$(cat "$T_TMP/off/sys/devices/system/node/node0/cpulist")
assert "the generated node 0 lists its offline CPU" "$want" "0-1"
sel=$(cpm-topo --sysroot "$T_TMP/off" cpus node:0)
sum=$(cpm-topo --sysroot "$T_TMP/off" | sed -n 's/^NUMA node 0: *CPUs \([^ ,]*\).*/\1/p')
js=$(cpm-topo --sysroot "$T_TMP/off" --json | python3 -c 'import json, sys; print(json.load(sys.stdin)["nodes"][0]["cpus"])')
assert "cpus node:0, the summary and --json agree: online CPUs only" "$sel $sum $js" "0 0 0"

# --- stdin without end ---
run sh -c "$memcap"'; yes 0, | exec timeout '$G' cpm-topo cpus -'
if [ "$rc" = 2 ] && printf '%s' "$err" | grep -q "stdin holds more than"; then
	ok "an endless stdin is refused"
else
	not_ok "an endless stdin is refused" "$(show)"
fi
exit 0
