#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# cpm-alloc under concurrent callers and under SIGKILL at random instants.
. "$(dirname "$0")/lib.sh"
. "$CPM_TOP/tests/lib-alloc.sh"

KILL=$CPM_TOP/tests/helpers/kill-after
# 2 sockets x 2 nodes x 32 cores x 2 threads = 256 CPUs.
gen_spec 2 2 32 2 | gen_tree "$T_TMP/m256"
export CPM_SYSROOT=$T_TMP/m256
export CPM_STATE=$T_TMP/alloc.state

cpm-alloc init --reserved 0,128 >/dev/null
i=0
while [ $i -lt 50 ]; do
	cpm-alloc take "job$i" 4 >"$T_TMP/out.$i" 2>"$T_TMP/err.$i" &
	i=$((i + 1))
done
wait
fails=0
i=0
while [ $i -lt 50 ]; do
	# (a take that waited a second says whom for: nothing else)
	[ "$(count "$(cat "$T_TMP/out.$i")")" = 4 ] &&
	    ! grep -Eqv "^cpm-alloc: waiting for '$CPM_STATE.lock', locked by (process [0-9]+|another process) \(--wait SECONDS bounds the wait\)$" "$T_TMP/err.$i" ||
		fails=$((fails + 1))
	i=$((i + 1))
done
assert "50 concurrent takes all succeed with 4 CPUs" "$fails" 0
cat "$T_TMP"/out.* | expand | sort -n >"$T_TMP/all"
assert "50 concurrent takes get disjoint CPUs" "$(wc -l <"$T_TMP/all" | tr -d ' ') $(sort -n -u "$T_TMP/all" | wc -l | tr -d ' ')" "200 200"
assert "no concurrent take got a reserved CPU" "$(grep -cx '0\|128' "$T_TMP/all")" 0
run cpm-alloc list
printf '%s' "$out" | awk 'NR > 1 { print $4 }' | expand | sort -n >"$T_TMP/recorded"
if cmp -s "$T_TMP/all" "$T_TMP/recorded" &&
    [ "$(printf '%s' "$out" | awk 'NR > 1' | wc -l | tr -d ' ')" = 50 ]; then
	ok "the state records exactly what the concurrent takes printed"
else
	not_ok "the state records exactly what the concurrent takes printed" "$(show)"
fi
i=0
ok_each=0
while [ $i -lt 50 ]; do
	[ "$(cpm-alloc show "job$i")" = "$(cat "$T_TMP/out.$i")" ] && ok_each=$((ok_each + 1))
	i=$((i + 1))
done
assert "every name shows the CPUs its take printed" "$ok_each" 50
i=0
while [ $i -lt 50 ]; do
	cpm-alloc release "job$i" &
	i=$((i + 1))
done
wait
check "50 concurrent releases leave an empty state" 0 "NAME MODE COUNT CPUS NODES MEMORY OWNER" cpm-alloc list

# A state of many pages, which cpm-alloc maps rather than reads: every
# command still reads and writes it whole while others replace it.
i=0
while [ $i -lt 400 ]; do
	cpm-alloc take "pad$i" 0 >/dev/null || break
	i=$((i + 1))
done
size=$(wc -c <"$CPM_STATE")
assert "400 entries make a state of more than three pages" \
	"$i $([ "$size" -gt 12288 ] && echo big)" "400 big"
i=0
while [ $i -lt 30 ]; do
	cpm-alloc take "big$i" 2 >"$T_TMP/big.$i" 2>"$T_TMP/bigerr.$i" &
	i=$((i + 1))
done
wait
cat "$T_TMP"/big.* | expand | sort -n >"$T_TMP/all"
assert "30 concurrent takes on a state of several pages get 60 distinct CPUs" \
	"$(wc -l <"$T_TMP/all" | tr -d ' ') $(sort -n -u "$T_TMP/all" | wc -l | tr -d ' ') $(cat "$T_TMP"/bigerr.* | grep -v "^cpm-alloc: waiting for '$CPM_STATE.lock', locked by" | wc -c | tr -d ' ')" \
	"60 60 0"
i=0
while [ $i -lt 30 ]; do
	cpm-alloc release "big$i" &
	cpm-alloc release "pad$i" &
	i=$((i + 1))
done
wait
run cpm-alloc list
assert "60 concurrent releases on a state of several pages leave the other 370 entries" \
	"$rc $(printf '%s' "$out" | awk 'NR > 1' | wc -l | tr -d ' ') $(printf '%s' "$out" | grep -c '^big\|^pad[0-9] \|^pad[12][0-9] ')" \
	"0 370 0"
run sh -c 'cpm-alloc take grow 2 >/dev/null && cpm-alloc resize grow 4 >/dev/null &&
    cpm-alloc mode grow share && cpm-alloc mode grow exclusive && cpm-alloc show grow'
assert "take, resize, mode and show on a state of several pages" "$rc $(count "$out")" "0 4"
check "check finds a state of several pages clean" 0 "" cpm-alloc check

# SIGKILL at random instants while taking and releasing.
if [ ! -x "$KILL" ]; then
	skip "a killed writer leaves the old or the new state" "tests/helpers/kill-after not built"
	exit 0
fi
gen_spec 1 2 4 2 | gen_tree "$T_TMP/m16"
export CPM_SYSROOT=$T_TMP/m16
cpm-alloc init --force >/dev/null
# Under the sanitizers (.ci/run sets CPM_SANITIZED) each command takes
# several times as long and most kills land in their start-up: 50 rounds
# there look for memory errors, the plain run's 200 for the instants.
rounds=200
[ -z "${CPM_SANITIZED:-}" ] || rounds=50
iter=0 bad=0 killed=0 finished=0 names=0
while [ $iter -lt $rounds ]; do
	cp "$CPM_STATE" "$T_TMP/old"
	cpm-alloc list >"$T_TMP/old.list"
	if [ $((iter % 3)) = 2 ] && [ $names -gt 0 ]; then
		victim=$(awk 'NR == 2 { print $1 }' "$T_TMP/old.list")
		op="release $victim"
	else
		op="take k$iter 1"
	fi
	# shellcheck disable=SC2086
	if "$KILL" 20000 cpm-alloc $op; then
		killed=$((killed + 1))
	else
		finished=$((finished + 1))
	fi
	if ! cpm-alloc list >"$T_TMP/new.list" 2>"$T_TMP/new.err"; then
		bad=$((bad + 1))
		not_ok "iteration $iter: the state does not load after 'cpm-alloc $op'" \
			"$(cat "$T_TMP/new.err")"
		cp "$T_TMP/old" "$CPM_STATE"
	elif cmp -s "$T_TMP/old" "$CPM_STATE"; then
		:	# the old state
	else
		# The new state: exactly the one change.
		case $op in
		take*)	want=$(awk 'NR > 1' "$T_TMP/old.list"; echo "k$iter") ;;
		*)	want=$(awk -v v="$victim" 'NR > 1 && $1 != v' "$T_TMP/old.list") ;;
		esac
		got=$(awk 'NR > 1 { print $1 }' "$T_TMP/new.list")
		if [ "$(printf '%s\n' "$want" | awk '{ print $1 }' | sort)" != "$(printf '%s\n' "$got" | sort)" ]; then
			bad=$((bad + 1))
			not_ok "iteration $iter: 'cpm-alloc $op' left a state that is neither old nor new" \
				"$(cat "$T_TMP/new.list")"
		fi
	fi
	names=$(($(wc -l <"$T_TMP/new.list") - 1))
	# Keep the machine from filling up.
	[ $names -ge 12 ] && cpm-alloc init --force >/dev/null && names=0
	iter=$((iter + 1))
done
assert "$rounds writers killed at random instants always leave the old or the new state" "$bad" 0
[ $killed -gt 0 ] && ok "some writers were killed ($killed killed, $finished finished)" ||
	not_ok "some writers were killed ($killed killed, $finished finished)"
run cpm-alloc take last 1
assert "the next write succeeds and prints one CPU" \
	"$rc $(printf '%s\n' "$out" | grep -cx '[0-9][0-9]*')" "0 1"
assert "no temporary files are left after the next write" \
	"$(ls -A "$(dirname "$CPM_STATE")" | grep -c '\.tmp\.')" 0
