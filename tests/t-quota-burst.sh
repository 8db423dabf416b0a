#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# cpm-quota burst and restore: raising quotas for a while, the journal,
# signals, SIGKILL and restore, concurrent processes; on a cgroup v2 file
# tree built here and on the host's real cgroup v1 cpu hierarchy.
. "$(dirname "$0")/lib.sh"

Q=cpm-quota
J=$T_TMP/burst.journal
export CPM_BURST_JOURNAL="$J"
HEADER="cpm-burst-journal 2
checksum fnv1a64:cbf29ce484222325"
# jwrite: write stdin as the entries of a journal with a right checksum
# (FNV-1a 64, computed here, not by cpm)
jwrite() {
	python3 -c 'import sys
b = sys.stdin.buffer.read()
h = 0xcbf29ce484222325
for c in b:
    h = ((h ^ c) * 0x100000001b3) & 0xffffffffffffffff
sys.stdout.buffer.write(b"cpm-burst-journal 2\nchecksum fnv1a64:%016x\n" % h + b)' >"$J"
}

# wait_until CMD: poll CMD (10 s at most); no timing is asserted.
wait_until() {
	_i=0
	while [ $_i -lt 200 ]; do
		eval "$1" && return 0
		sleep 0.05
		_i=$((_i + 1))
	done
	return 1
}
# journal_groups: the GROUP field of every journal entry.
journal_groups() { [ -f "$J" ] && sed 1,2d "$J" | awk '{ print $4 }' | tr '\n' ' '; }

# ---- a cgroup v2 file tree (plain files, NOT the kernel) ----
V2=$T_TMP/v2
mkdir -p "$V2/pod/c1" "$V2/pod/c2" "$V2/free"
echo "cpu cpuset memory" >"$V2/cgroup.controllers"
for d in pod pod/c1 pod/c2 free; do
	echo "cpu" >"$V2/$d/cgroup.controllers"
	echo 0 >"$V2/$d/cpu.max.burst"
	echo 100 >"$V2/$d/cpu.weight"
done
echo "max 100000" >"$V2/pod/cpu.max"
echo "50000 100000" >"$V2/pod/c1/cpu.max"
echo "20000 50000" >"$V2/pod/c2/cpu.max"
echo "max 100000" >"$V2/free/cpu.max"
QV="$Q --cgroup-root $V2"
max() { cat "$V2/$1/cpu.max"; }

# Groups named as arguments: raised for --for, then put back.
$QV burst --for 30s pod/c1 pod/c2 2>"$T_TMP/b1.err" &
bp=$!
if wait_until '[ "$(max pod/c1)" = "100000 100000" ] && [ "$(max pod/c2)" = "40000 50000" ]'; then
	ok "burst raises each named group's quota by the default factor 2"
else
	not_ok "burst raises each named group's quota by the default factor 2" \
	    "c1: $(max pod/c1)" "c2: $(max pod/c2)" "$(cat "$T_TMP/b1.err")"
fi
assert "the journal holds the originals while raised" "$(sed -n 1p "$J") $(journal_groups)" \
    "cpm-burst-journal 2 pod/c1 pod/c2 "
assert "the journal records the original quota and period" \
    "$(awk '$4 == "pod/c2" { print $5, $6, $7 }' "$J")" "20000 50000 40000"
kill -TERM $bp
wait $bp
rc=$?
assert "SIGTERM restores every raised group" "$rc $(max pod/c1) / $(max pod/c2)" \
    "0 50000 100000 / 20000 50000"
assert "SIGTERM leaves an empty journal" "$(cat "$J")" "$HEADER"

run $QV burst --for 100ms --factor 1.5 -v pod/c1
assert "burst --factor 1.5 raises and restores by itself after --for" \
    "$rc $(printf '%s' "$err" | grep -c "raised 'pod/c1' from 50000us to 75000us") $(printf '%s' "$err" | grep -c "restored 'pod/c1' to 50000us") $(max pod/c1)" \
    "0 1 1 50000 100000"

run $QV burst --for 100ms free
assert "a group without a limit is skipped with a note" \
    "$rc $(max free) $(printf '%s' "$err" | grep -c "'free' has no CPU limit; skipped")" \
    "0 max 100000 1"

# Groups read from stdin, as cpm-throttle -o names prints them.
T_IN="pod/c1
pod/c1

# a comment
/pod/c2
"
run $QV burst --for 100ms -v
assert "burst reads groups from stdin, once per group per batch" \
    "$rc $(printf '%s' "$err" | grep -c raised) $(max pod/c1) / $(max pod/c2)" \
    "0 2 50000 100000 / 20000 50000"
T_IN="pod/c1
../etc
pod/none
"
run $QV burst --for 100ms -v
assert "a bad line on stdin is reported and the others still processed" \
    "$rc $(printf '%s' "$err" | grep -c "'\.\.'") $(printf '%s' "$err" | grep -c "raised 'pod/c1'") $(max pod/c1)" \
    "2 1 1 50000 100000"
T_IN=

# --cooldown: a group is raised at most once per cooldown.  Each round
# writes its own log: the shell opens the FIFO before it truncates a
# shared one, so a reused log could still show the last round's
# "restored" when this round's first line is sent.
mkfifo "$T_TMP/fifo"
for cd in 3600s 0s; do
	$QV burst --for 50ms --cooldown $cd -v <"$T_TMP/fifo" 2>"$T_TMP/cd-$cd.err" &
	bp=$!
	exec 7>"$T_TMP/fifo"
	echo pod/c1 >&7
	wait_until "grep -q restored '$T_TMP/cd-$cd.err'"
	echo pod/c1 >&7
	if [ $cd = 0s ]; then
		wait_until "[ \$(grep -c restored '$T_TMP/cd-$cd.err') = 2 ]"
	else
		echo pod/c2 >&7	# a later line proves the second pod/c1 was seen
		wait_until "grep -q \"restored 'pod/c2'\" '$T_TMP/cd-$cd.err'"
	fi
	exec 7>&-
	wait $bp
	n=$(grep -c "raised 'pod/c1'" "$T_TMP/cd-$cd.err")
	if [ $cd = 3600s ]; then want=1; else want=2; fi
	assert "--cooldown $cd: pod/c1 raised $want time(s)" "$n $(max pod/c1)" "$want 50000 100000"
done

# SIGKILL leaves the quota raised and the journal says so; restore fixes it.
$QV burst --for 3600s pod/c1 &
bp=$!
wait_until '[ "$(max pod/c1)" = "100000 100000" ]'
kill -KILL $bp
wait $bp 2>/dev/null
assert "after SIGKILL the quota stays raised and journaled" \
    "$(max pod/c1) $(journal_groups)" "100000 100000 pod/c1 "
run $Q restore -v
assert "restore puts back what a killed process left raised" \
    "$rc $(max pod/c1) $(printf '%s' "$err" | grep -c "restored 'pod/c1'")" "0 50000 100000 1"
assert "restore clears the journal" "$(cat "$J")" "$HEADER"
run $Q restore
assert "restore with nothing to do succeeds" "$rc $out$err" "0 "

# A killed process's boost is adopted by the next burst of that group:
# the original, not the raised value, is what gets restored.
$QV burst --for 3600s pod/c2 &
bp=$!
wait_until '[ "$(max pod/c2)" = "40000 50000" ]'
kill -KILL $bp
wait $bp 2>/dev/null
run $QV burst --for 50ms pod/c2
assert "a new burst adopts a killed process's original" "$rc $(max pod/c2) $(cat "$J")" \
    "0 20000 50000 $HEADER"

# Two processes and restore at once: the journal lock keeps them apart.
$QV burst --for 3600s pod/c1 2>/dev/null &
bp=$!
wait_until '[ "$(max pod/c1)" = "100000 100000" ]'
run $QV burst --for 50ms -v pod/c1 pod/c2
assert "a second burst skips a group another process has raised" \
    "$rc $(printf '%s' "$err" | grep -c "'pod/c1' is already raised by process $bp") $(max pod/c1) $(printf '%s' "$err" | grep -c "raised 'pod/c2'")" \
    "0 1 100000 100000 1"
run $Q restore -v
assert "restore leaves a running process's groups alone" \
    "$rc $(max pod/c1) $(journal_groups)" "0 100000 100000 pod/c1 "
kill -INT $bp
wait $bp
assert "SIGINT restores too" "$(max pod/c1) $(cat "$J")" "50000 100000 $HEADER"

# Two journals, one group.  A burst with another journal leaves a group
# that a running burst has raised alone; once that burst is killed, it
# raises from the original the first one recorded, so that the restores
# of both journals, in any order, end at the original.
J2=$T_TMP/second.journal
$QV burst --for 3600s pod/c1 2>/dev/null &
bp=$!
wait_until '[ "$(max pod/c1)" = "100000 100000" ]'
run $QV burst --journal "$J2" --for 50ms -v pod/c1
assert "a burst with another journal skips a group a running burst has raised" \
    "$rc $(printf '%s' "$err" | grep -c "'pod/c1' is already raised by process $bp") $(max pod/c1)" \
    "0 1 100000 100000"
kill -TERM $bp
wait $bp
assert "two journals, both bursts ended: the original quota is back" \
    "$(max pod/c1) $(cat "$J")" "50000 100000 $HEADER"
$QV burst --for 3600s pod/c1 &
bp=$!
wait_until '[ "$(max pod/c1)" = "100000 100000" ]'
kill -KILL $bp
wait $bp 2>/dev/null
$QV burst --journal "$J2" --for 3600s pod/c1 &
bp=$!
wait_until "grep -q ' pod/c1 ' '$J2'"
sleep 0.1
kill -KILL $bp
wait $bp 2>/dev/null
assert "a burst after a killed one of another journal raises from the original" \
    "$(max pod/c1) $(awk '$4 == "pod/c1" { print $5, $7 }' "$J2")" "100000 100000 50000 100000"
run $Q restore
r1=$rc
run $Q restore --journal "$J2"
assert "two journals, both bursts killed, both restored: the original quota is back" \
    "$r1 $rc $(max pod/c1) $(cat "$J") / $(cat "$J2")" "0 0 50000 100000 $HEADER / $HEADER"
check_fail "a journal that is the register of raised groups is refused" 2 \
    "journal '$T_TMP/burst.groups' is the register of raised groups" \
    $QV burst --journal "$T_TMP/burst.groups" --for 1ms pod/c1

# Many concurrent bursts of different groups: every entry survives.
i=0
while [ $i -lt 8 ]; do
	mkdir -p "$V2/many/g$i"
	echo "10000 100000" >"$V2/many/g$i/cpu.max"
	echo 0 >"$V2/many/g$i/cpu.max.burst"
	i=$((i + 1))
done
pids=
i=0
while [ $i -lt 8 ]; do
	$QV burst --for 3600s many/g$i &
	pids="$pids $!"
	i=$((i + 1))
done
wait_until '[ $(sed 1,2d "$J" | wc -l) -eq 8 ] && ! grep -l "^10000 " "$V2"/many/g*/cpu.max >/dev/null'
assert "eight concurrent bursts journal eight entries" "$(sed 1,2d "$J" | awk '{print $4}' | sort | tr '\n' ' ')" \
    "many/g0 many/g1 many/g2 many/g3 many/g4 many/g5 many/g6 many/g7 "
# shellcheck disable=SC2086
kill -TERM $pids
for p in $pids; do wait "$p"; done
assert "all eight are restored and the journal is empty" \
    "$(cat "$V2"/many/g*/cpu.max | sort -u) $(cat "$J")" "10000 100000 $HEADER"

# A changed quota is never overwritten by a restore.
$QV burst --for 3600s pod/c1 &
bp=$!
wait_until '[ "$(max pod/c1)" = "100000 100000" ]'
kill -KILL $bp
wait $bp 2>/dev/null
echo "70000 100000" >"$V2/pod/c1/cpu.max"
run $Q restore
assert "restore leaves a quota someone changed meanwhile" \
    "$rc $(max pod/c1) $(printf '%s' "$err" | grep -c 'changed to 70000us')" "0 70000 100000 1"
echo "50000 100000" >"$V2/pod/c1/cpu.max"

# A journal damaged under a running burst: the quota still goes back.
$QV burst --for 3600s pod/c1 2>"$T_TMP/dmg.err" &
bp=$!
wait_until '[ "$(max pod/c1)" = "100000 100000" ]'
printf 'garbage\n' >"$J"
kill -TERM $bp
wait $bp
rc=$?
assert "a burst whose journal was damaged still restores, and says so" \
    "$rc $(max pod/c1) $(grep -c 'not a cpm burst journal' "$T_TMP/dmg.err")" "2 50000 100000 1"
rm -f "$J"

# Bad input changes nothing.
sum() { cat "$V2"/pod/c1/cpu.max "$V2"/pod/c2/cpu.max "$J" | cksum; }
b=$(sum)
check_fail "burst refuses a factor of 1" 2 "factor '1'" $QV burst --factor 1 pod/c1
check_fail "burst refuses a factor below 1" 2 "factor '0.5'" $QV burst --factor 0.5 pod/c1
check_fail "burst refuses a word as factor" 2 "invalid --factor 'two'" $QV burst --factor two pod/c1
check_fail "burst refuses a duration without unit" 2 "invalid --for '5'" $QV burst --for 5 pod/c1
check_fail "burst refuses a bad cooldown" 2 "invalid --cooldown" $QV burst --cooldown x pod/c1
check_fail "burst refuses .. in a group" 2 "'\.\.'" $QV burst pod/c1 ../pod/c2
check_fail "burst refuses the root group" 2 "root group" $QV burst pod/c1 /
check_fail "burst fails on a missing group before raising any" 1 "no cgroup 'pod/none'" \
    $QV burst pod/c1 pod/none
assert "refused bursts change nothing" "$(sum)" "$b"
printf '1 2 - pod/c1 oops\n' | jwrite
b=$(sum)
check_fail "burst refuses a damaged journal" 2 "journal .* line 3" $QV burst pod/c1
check_fail "restore refuses a damaged journal" 2 "journal .* line 3" $Q restore
# An edited journal: restore would otherwise write any quota.
# pod/c1 at the raised value, so a trusted entry would be restored
echo "100000 100000" >"$V2/pod/c1/cpu.max"
printf '1 2 - pod/c1 50000 100000 100000 0\n' | jwrite
sed -i 's/ 50000 / 90000 /' "$J"
b=$(cat "$V2"/pod/c1/cpu.max "$V2"/pod/c2/cpu.max)
check_fail "restore refuses an edited journal" 2 "journal .* checksum does not match" $Q restore --force
printf 'cpm-burst-journal 1\n1 2 - pod/c1 90000 100000 100000 0\n' >"$J"
check_fail "restore refuses a version 1 journal, which has no checksum" 2 "version 1" $Q restore --force
# Checked, but beyond what restore may write: above the raised value,
# above the kernel's largest quota, a period the kernel refuses.
for e in '1 2 - pod/c1 200000 100000 100000 0' \
    '1 2 - pod/c1 50000 100000 17592186044416 0' \
    '1 2 - pod/c1 500 100000 100000 0' '1 2 - pod/c1 50000 2000000 100000 0'; do
	printf '%s\n' "$e" | jwrite
	check_fail "restore refuses the entry '$e'" 2 "journal .* line 3 is not a valid entry" \
	    $Q restore --force
done
assert "refused restores change nothing" "$(cat "$V2"/pod/c1/cpu.max "$V2"/pod/c2/cpu.max)" "$b"
echo "50000 100000" >"$V2/pod/c1/cpu.max"
printf 'not a journal\n' >"$J"
check_fail "restore refuses a foreign file" 2 "not a cpm burst journal" $Q restore
assert "a damaged journal is left as it is" "$(cat "$J")" "not a journal"
rm -f "$J"
check_fail "restore refuses an option of burst" 2 "'--factor' does not apply" $Q restore --factor 2
(cd "$T_TMP" && $Q --cgroup-root v2 burst --for 3600s pod/c2) &
bp=$!
wait_until '[ "$(max pod/c2)" = "40000 50000" ]'
kill -KILL $bp
wait $bp 2>/dev/null
run $Q restore
assert "a relative --cgroup-root is journaled so that restore works from anywhere" \
    "$rc $(max pod/c2) $(cat "$J")" "0 20000 50000 $HEADER"
mkdir -p "$V2/odd dir/a%b"
echo "30000 100000" >"$V2/odd dir/a%b/cpu.max"
$QV burst --for 3600s "odd dir/a%b" &
bp=$!
wait_until '[ "$(max "odd dir/a%b")" = "60000 100000" ]'
kill -KILL $bp
wait $bp 2>/dev/null
run $Q restore
assert "group names with spaces and % survive the journal" \
    "$rc $(max "odd dir/a%b") $(cat "$J")" "0 30000 100000 $HEADER"
check "--journal overrides CPM_BURST_JOURNAL" 0 "$HEADER" \
    sh -c "$QV burst --for 1ms --journal '$T_TMP/other.j' pod/c1 && cat '$T_TMP/other.j'"

# ---- the host's real cgroup v1 cpu hierarchy ----
CPU=$(awk '$3 == "cgroup" && $4 ~ /(^|,)cpu(,|$)/ { print $2; exit }' /proc/self/mounts)
if ! is_root || [ -z "$CPU" ] || [ ! -w "$CPU" ]; then
	skip "burst on real cgroup v1" "needs root and a v1 cpu hierarchy"
	exit 0
fi
G=cpm-test-$$-burst
at_exit "rmdir '$CPU/$G/a' '$CPU/$G/b' '$CPU/$G' 2>/dev/null"
mkdir "$CPU/$G" "$CPU/$G/a" "$CPU/$G/b"
echo 30000 >"$CPU/$G/a/cpu.cfs_quota_us"
echo 5000 >"$CPU/$G/b/cpu.cfs_quota_us"
q() { cat "$CPU/$G/$1/cpu.cfs_quota_us"; }

$Q burst --for 3600s $G/a &
bp=$!
if wait_until '[ "$(q a)" = 60000 ]'; then
	ok "burst raises a real v1 quota"
else
	not_ok "burst raises a real v1 quota" "quota: $(q a)"
fi
kill -TERM $bp
wait $bp
assert "SIGTERM restores the real v1 quota" "$(q a) $(cat "$J")" "30000 $HEADER"

$Q burst --for 3600s --factor 3 $G/a $G/b &
bp=$!
wait_until '[ "$(q a)" = 90000 ] && [ "$(q b)" = 15000 ]'
kill -KILL $bp
wait $bp 2>/dev/null
assert "after SIGKILL the real quotas stay raised" "$(q a) $(q b)" "90000 15000"
run $Q restore
assert "restore puts the real v1 quotas back" "$rc $(q a) $(q b) $(cat "$J")" \
    "0 30000 5000 $HEADER"

# One group, two spellings of the live hierarchy: the second burst sees
# the first one's entry and leaves the group to it.
CGR=$(dirname "$CPU")
$Q --cgroup-root "$CGR" burst --for 3600s $G/a 2>"$T_TMP/sp1.err" &
bp=$!
wait_until '[ "$(q a)" = 60000 ]'
$Q burst --for 3600s $G/a 2>"$T_TMP/sp2.err" &
bp2=$!
# bp2 has nothing to do and exits, or raises the raised quota again
wait_until '! kill -0 $bp2 2>/dev/null || [ "$(q a)" != 60000 ]'
kill -TERM $bp $bp2 2>/dev/null
wait $bp
wait $bp2
assert "two spellings of the live hierarchy share one journal entry" \
    "$(q a) $(cat "$J")" "30000 $HEADER"

# The kernel refuses a child above its parent on v1: reported, not journaled.
echo 40000 >"$CPU/$G/cpu.cfs_quota_us"
run $Q burst --for 50ms $G/a
assert "a raise the kernel refuses is reported and leaves nothing behind" \
    "$rc $(printf '%s' "$err" | grep -c 'cpu.cfs_quota_us.*Invalid argument') $(q a) $(cat "$J")" \
    "1 1 30000 $HEADER"
echo -1 >"$CPU/$G/cpu.cfs_quota_us"

# The pipeline of the contract, on a really throttled group.
if ! command -v cpm-throttle >/dev/null; then
	skip "cpm-throttle --watch | cpm-quota burst raises a throttled group" "no cpm-throttle"
	exit 0
fi
echo 1000 >"$CPU/$G/b/cpu.cfs_quota_us"
sh -c 'while :; do :; done' &
hog=$!
at_exit "kill $hog 2>/dev/null; wait $hog 2>/dev/null"
echo $hog >"$CPU/$G/b/cgroup.procs"
mkfifo "$T_TMP/names"
cpm-throttle --watch --interval 1s --min-ratio 0.2 -o names $G >"$T_TMP/names" &
tp=$!
$Q burst --factor 2 --for 500ms -v <"$T_TMP/names" 2>"$T_TMP/pipe.err" &
bp=$!
if wait_until '[ "$(q b)" = 2000 ]' || wait_until '[ "$(q b)" = 2000 ]'; then
	ok "cpm-throttle --watch | cpm-quota burst raises a throttled group"
else
	not_ok "cpm-throttle --watch | cpm-quota burst raises a throttled group" \
	    "quota: $(q b)" "$(cat "$T_TMP/pipe.err")"
fi
kill -TERM $tp
wait $tp 2>/dev/null
wait $bp
rc=$?
assert "when cpm-throttle stops, burst restores and exits" \
    "$rc $(q b) $(cat "$J") $(grep -c "restored '$G/b' to 1000us" "$T_TMP/pipe.err")" \
    "0 1000 $HEADER 1"
grep -q "raised '$G/a'" "$T_TMP/pipe.err" &&
    not_ok "an unthrottled sibling is left alone" "$(cat "$T_TMP/pipe.err")" ||
    ok "an unthrottled sibling is left alone"
