#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A device's interrupts steered onto the CPUs of its work (cpm-pin
# --irqs-to), beside CPUs kept free of other interrupts (--irqs-away,
# cpm-alloc take --isolate-irqs), and checked (cpm-topo check --device
# --irqs).  A fake proc/irq beside the generated devices: the host's own
# interrupts are never moved (the host has no such NIC; the VM tier moves
# a real kernel's).  eth1's MSI-X vectors are 40-43 and nvme0's 50-51, as
# the spec's msix= lines put them in msi_irqs/; 30 belongs to no device.
. "$(dirname "$0")/lib.sh"

if ! command -v python3 >/dev/null 2>&1; then
	skip "irq steering" "python3 is missing"
	exit 0
fi
S=$T_TMP/m
python3 "$CPM_TOP/tests/gen-sysfs" "$CPM_TOP/tests/topologies/2s4n-devices.spec" "$S" ||
    { not_ok "gen-sysfs writes the machine with devices"; exit 0; }
mkdir -p "$S/proc/irq"
printf 'ffff\n' >"$S/proc/irq/default_smp_affinity"
for i in 30 40 41 42 43 50 51; do
	mkdir -p "$S/proc/irq/$i/dev$i"
	echo 0-15 >"$S/proc/irq/$i/smp_affinity_list"
done
echo 0-3 >"$S/proc/irq/41/smp_affinity_list"
# /proc/interrupts, a column per CPU; it does not change between the
# two samples, so no CPU shows load.
awk 'BEGIN { printf "     "; for (c = 0; c < 16; c++) printf "       CPU%d", c; print ""
	printf "LOC:"; for (c = 0; c < 16; c++) printf " %10d", 1000 + c; print "  Local timer interrupts" }' \
    >"$S/proc/interrupts"
export CPM_IRQ_JOURNAL=$T_TMP/irq.journal
export CPM_STATE=$T_TMP/alloc.state
snap() {
	for i in 30 40 41 42 43 50 51; do
		printf '%s:%s ' $i "$(cat "$S/proc/irq/$i/smp_affinity_list")"
	done
}
orig=$(snap)
pin() { cpm-pin --sysroot "$S" "$@"; }
topo() { cpm-topo --sysroot "$S" "$@"; }
reset() {
	rm -f "$CPM_IRQ_JOURNAL" "$CPM_STATE"
	for i in 30 40 42 43 50 51; do echo 0-15 >"$S/proc/irq/$i/smp_affinity_list"; done
	echo 0-3 >"$S/proc/irq/41/smp_affinity_list"
}

# ---- the README's forwarder flow ----
# Its lines that name fwd, as written, but the one that runs ./forwarder
# (this host has no CPUs 4-7 to run it on).
flow=$(sed -n 's/^  //p' "$CPM_TOP/README" | awk '{ line = line $0 }
	/\\$/ { sub(/\\$/, "", line); next } { print line; line = "" }' |
    grep -e 'fwd' | grep -v './forwarder')
assert "the README's forwarder flow takes, steers and checks" \
    "$(printf '%s\n' "$flow" | sed 's/ .*//' | tr '\n' ' ')" 'fwd=$(cpm-alloc cpm-pin cpm-topo '
run env CPM_SYSROOT="$S" sh -ec "$flow"
assert "the forwarder flow runs clean" "$rc $out" \
    "0 note: eth1's IRQs 40-43 are on CPUs 4-7
"
assert "eth1's interrupts end on the forwarder's CPUs, the others off them" \
    "$(snap)" "30:0-3,8-15 40:4-7 41:4-7 42:4-7 43:4-7 50:0-3,8-15 51:0-3,8-15 "
check "the forwarder's CPUs check clean with eth1's interrupts on them" 0 \
    "note: eth1's IRQs 40-43 are on CPUs 4-7" \
    topo check 4-7 --device eth1 --irqs --interval 0s
run topo check 4-7 --device eth1 --irqs --interval 0s --json
assert "check --json: the note is a finding of level note" "$rc $out" \
    '0 {"cpus":"4-7","findings":[{"level":"note","message":"eth1'"'"'s IRQs 40-43 are on CPUs 4-7"}]}
'
# Released in any order, the originals come back exactly.
run cpm-alloc --sysroot "$S" release fwd
assert "releasing the allocation keeps eth1 steered, the rest come back" \
    "$rc $(snap)" "0 30:0-15 40:4-7 41:4-7 42:4-7 43:4-7 50:0-15 51:0-15 "
check "--irqs-restore eth1 then puts back the last" 0 "" pin --irqs-restore eth1
assert "every affinity is the original, the journal gone" \
    "$(snap)$(test -e "$CPM_IRQ_JOURNAL" && echo there)" "$orig"

# ---- --irqs-away, then --irqs-to onto those CPUs ----
reset
pin --irqs-away 4-7
run pin -v --irqs-to eth1 4-7
assert "--irqs-to onto CPUs kept free of interrupts steers, and -v says so" \
    "$rc
$err" "0
cpm-pin: IRQ 40 (dev40): 0-3,8-15 -> 4-7
cpm-pin: IRQ 41 (dev41): 0-3 -> 4-7
cpm-pin: IRQ 42 (dev42): 0-3,8-15 -> 4-7
cpm-pin: IRQ 43 (dev43): 0-3,8-15 -> 4-7
cpm-pin: eth1 (0000:3b:00.0): IRQs 40-43 steered to 4-7, which other interrupts stay off
"
assert "eth1 on 4-7, the others still off them" "$(snap)" \
    "30:0-3,8-15 40:4-7 41:4-7 42:4-7 43:4-7 50:0-3,8-15 51:0-3,8-15 "
run pin -v --irqs-to eth1 4-7
assert "steering again where it is: -v still says what holds" "$rc $out|$err" \
    "0 |cpm-pin: eth1 (0000:3b:00.0): IRQs 40-43 steered to 4-7, which other interrupts stay off
"
check "--irqs-restore eth1 undoes eth1 alone" 0 "" pin --irqs-restore eth1
assert "eth1 leaves 4-7 again; the away CPUs stay in force" "$(snap)" \
    "30:0-3,8-15 40:0-3,8-15 41:0-3 42:0-3,8-15 43:0-3,8-15 50:0-3,8-15 51:0-3,8-15 "
run pin --irqs-restore eth1
assert "restoring a device that is not steered says so" "$rc $err" \
    "0 cpm-pin: note: eth1 (0000:3b:00.0) is not steered: nothing to restore
"
check_fail "--irqs-restore of an unknown device" 2 \
    "^cpm-pin: invalid --irqs-restore device: no device 'eth9'" pin --irqs-restore eth9
pin --irqs-to nvme0 dev:nvme0
check "--irqs-restore puts back everything" 0 "" pin --irqs-restore
assert "the originals, exactly" "$(snap)$(test -e "$CPM_IRQ_JOURNAL" && echo there)" "$orig"

# ---- where the kernel will not: exit 3, and why ----
# A managed vector: its file is read-only and cpm-pin runs without
# CAP_DAC_OVERRIDE.
reset
chmod 0444 "$S/proc/irq/43/smp_affinity_list"
run setpriv --bounding-set=-dac_override cpm-pin --sysroot "$S" --irqs-to eth1 4-7
case $rc:$err in
3:*"cannot steer IRQ 43 of eth1 to 4-7: Permission denied; it stays on 0-15"*)
	ok "a vector the kernel keeps elsewhere: exit 3, named, with why" ;;
*) not_ok "a vector the kernel keeps elsewhere: exit 3, named, with why" "$(show)" ;;
esac
chmod 0644 "$S/proc/irq/43/smp_affinity_list"
pin --irqs-restore
assert "restored after the refusal" "$(snap)" "$orig"

# ---- effective_affinity_list ----
# IRQ 42's effective affinity stays on CPU 0 (nothing updates the fake
# file), as a kernel shows an IRQ it has not moved yet.
echo 0 >"$S/proc/irq/42/effective_affinity_list"
pin --irqs-away 4-7
run pin --irqs-to eth1 4-7
assert "--irqs-to says when the kernel still delivers elsewhere" "$rc $err" \
    "0 cpm-pin: warning: IRQ 42 (dev42) is set to 4-7, but the kernel still delivers it to 0 (effective_affinity_list)
"
check "check --device --irqs reads the effective affinity" 3 \
    "warning: the kernel delivers 1 of eth1's IRQs outside CPUs 4-7 (effective_affinity_list): 42 (dev42) on 0" \
    topo check 4-7 --device eth1 --irqs --interval 0s
echo 5 >"$S/proc/irq/42/effective_affinity_list"
check "an effective affinity within the CPUs is clean" 0 \
    "note: eth1's IRQs 40-43 are on CPUs 4-7" \
    topo check 4-7 --device eth1 --irqs --interval 0s
rm "$S/proc/irq/42/effective_affinity_list"
pin --irqs-restore

# ---- check --device --irqs: the device's own, and the others ----
check "check --device --irqs tells eth1's IRQs from the others, and where they are" 3 \
"warning: 3 IRQs of other devices may be delivered to CPUs 4-7: 30 (dev30), 50 (dev50), 51 (dev51) (cpm-pin --irqs-away moves them)
warning: 4 of eth1's 4 IRQs are not only on CPUs 4-7: 40 (dev40) on 0-15, 41 (dev41) on 0-3, 42 (dev42) on 0-15, 43 (dev43) on 0-15 (cpm-pin --irqs-to eth1 CPULIST steers them)" \
    topo check 4-7 --device eth1 --irqs --interval 0s
check "check --device with two devices: each one's own IRQs" 3 \
"warning: 1 IRQ of other devices may be delivered to CPUs 4-11: 30 (dev30) (cpm-pin --irqs-away moves them)
warning: 4 of eth1's 4 IRQs are not only on CPUs 4-11: 40 (dev40) on 0-15, 41 (dev41) on 0-3, 42 (dev42) on 0-15, 43 (dev43) on 0-15 (cpm-pin --irqs-to eth1 CPULIST steers them)
warning: 2 of nvme0's 2 IRQs are not only on CPUs 4-11: 50 (dev50) on 0-15, 51 (dev51) on 0-15 (cpm-pin --irqs-to nvme0 CPULIST steers them)" \
    sh -c "cpm-topo --sysroot '$S' check 4-11 --policy spread --device eth1,nvme0 --irqs --interval 0s >'$T_TMP/o'
	r=\$?; grep IRQ '$T_TMP/o'; exit \$r"

# ---- locality ----
run pin --irqs-to eth1 8-9
assert "--irqs-to onto a remote node's CPUs warns, and steers" "$rc $err$(snap)" \
    "0 cpm-pin: warning: CPUs 8-9 are not local to eth1 (0000:3b:00.0, NUMA node 1): on NUMA node 2, distance 21 (local 10)
30:0-15 40:8-9 41:8-9 42:8-9 43:8-9 50:0-15 51:0-15 "
pin --irqs-restore

# ---- --dry-run ----
reset
check "--irqs-to --dry-run prints the plan" 0 \
"irq: 40 0-15 -> 4-7 (dev40)
irq: 41 0-3 -> 4-7 (dev41)
irq: 42 0-15 -> 4-7 (dev42)
irq: 43 0-15 -> 4-7 (dev43)" \
    pin -n --irqs-to eth1 4-7
check "--irqs-away --dry-run prints the plan" 0 \
"irq: 30 0-15 -> 0-3,8-15 (dev30)
irq: 40 0-15 -> 0-3,8-15 (dev40)
irq: 42 0-15 -> 0-3,8-15 (dev42)
irq: 43 0-15 -> 0-3,8-15 (dev43)
irq: 50 0-15 -> 0-3,8-15 (dev50)
irq: 51 0-15 -> 0-3,8-15 (dev51)
default_smp_affinity: rewritten" \
    pin --dry-run --irqs-away 4-7
assert "a dry run changes nothing and writes no journal" \
    "$(snap)$(test -e "$CPM_IRQ_JOURNAL" && echo there)" "$orig"
pin --irqs-away 4-7
check "--irqs-restore --dry-run prints the plan" 0 \
"irq: 30 0-3,8-15 -> 0-15 (dev30)
irq: 40 0-3,8-15 -> 0-15 (dev40)
irq: 42 0-3,8-15 -> 0-15 (dev42)
irq: 43 0-3,8-15 -> 0-15 (dev43)
irq: 50 0-3,8-15 -> 0-15 (dev50)
irq: 51 0-3,8-15 -> 0-15 (dev51)
default_smp_affinity: rewritten" \
    pin -n --irqs-restore
assert "a dry restore keeps the journal and the affinities" \
    "$(test -e "$CPM_IRQ_JOURNAL" && echo there) $(cat "$S/proc/irq/30/smp_affinity_list")" \
    "there 0-3,8-15"
pin --irqs-restore
assert "the originals after the dry runs" "$(snap)" "$orig"
