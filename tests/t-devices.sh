#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Devices in cpm's picture of the machine: cpm-topo devices, the dev:
# selector, and the devices' locality checked against the kernel's own
# files and against hwloc reading the same trees.
. "$(dirname "$0")/lib.sh"
. "$CPM_TOP/tests/lib-alloc.sh"	# expand, to_list

if ! command -v python3 >/dev/null 2>&1; then
	skip "devices" "python3 is missing"
	exit 0
fi
g=$T_TMP/dev
python3 "$CPM_TOP/tests/gen-sysfs" "$CPM_TOP/tests/topologies/2s4n-devices.spec" "$g" ||
    { not_ok "gen-sysfs writes the machine with devices"; exit 0; }
pci=$g/sys/bus/pci/devices

# ---- the table ----
check "devices lists the devices an operator places work beside" 0 \
"ADDRESS       TYPE     NODE  CPUS   DRIVER      VFS  PF            NAMES
0000:00:1f.2  storage     0  0-3    ahci          -  -             sda
0000:12:00.0  accel       0  0-3    habanalabs    -  -             -
0000:3b:00.0  net         1  4-7    ice           2  -             eth1
0000:3b:00.1  net         1  4-7    ice           -  -             eth2
0000:3b:01.0  net         1  4-7    iavf          -  0000:3b:00.0  eth1v0
0000:3b:01.1  net         1  4-7    iavf          -  0000:3b:00.0  eth1v1
0000:5e:00.0  nvme        2  8-11   nvme          -  -             nvme0,nvme0n1
0000:af:00.0  gpu         3  12-15  nvidia        -  -             card1
0000:d8:00.0  net         -  0-15   mlx5_core     -  -             ib0,mlx5_0" \
    cpm-topo --sysroot "$g" devices
check "devices -o picks columns, --raw --noheadings plain rows" 0 \
"sda 0 ahci
0000:12:00.0 0 habanalabs
eth1 1 ice
eth2 1 ice
eth1v0 1 iavf
eth1v1 1 iavf
nvme0 2 nvme
card1 3 nvidia
ib0 - mlx5_core" \
    cpm-topo --sysroot "$g" devices -o device,node,driver --raw --noheadings
check "the class and the vendor are columns too" 0 \
"0000:af:00.0 0x030200 10de:1234" \
    sh -c "cpm-topo --sysroot '$g' devices -o address,class,vendor --raw --noheadings | grep af:00"
check_fail "devices refuses an unknown column" 2 "unknown column 'bogus'" \
    cpm-topo --sysroot "$g" devices -o bogus
check_fail "devices takes no arguments" 2 "devices takes no arguments" \
    cpm-topo --sysroot "$g" devices eth1
check_fail "devices has no -e" 2 "." cpm-topo --sysroot "$g" devices -e

# Node -1 is unknown: never node 0, in text or JSON.
run cpm-topo --sysroot "$g" devices --json
printf '%s' "$out" >"$T_TMP/dev.json"
got=$(python3 -c '
import json, sys
d = {x["address"]: x for x in json.load(open(sys.argv[1]))}
x = d["0000:d8:00.0"]
print(x["node"], x["cpus"], ",".join(x["names"]), x["type"])
v = d["0000:3b:01.0"]
print(v["pf"], v["vfs"], d["0000:3b:00.0"]["vfs"], v["class"], v["driver"])
print(d["0000:12:00.0"]["names"])
' "$T_TMP/dev.json" 2>&1)
assert "devices --json: node -1 is null, VFs name their PF" "$got" \
"None 0-15 ib0,mlx5_0 net
0000:3b:00.0 None 2 0x020000 iavf
[]"
run cpm-topo --sysroot "$g" --json
printf '%s' "$out" >"$T_TMP/all.json"
got=$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
print(len(d["devices"]), d["devices"][6]["names"], len(d["cpus"]))
' "$T_TMP/all.json" 2>&1)
assert "the main --json holds the devices" "$got" "9 ['nvme0', 'nvme0n1'] 16"
run cpm-topo --sysroot "$g" --json -o cpu
got=$(printf '%s' "$out" | python3 -c '
import json, sys
d = json.load(sys.stdin)
print(d["cpus"][0], d["devices"][0]["address"])' 2>&1)
assert "--json -o chooses the cpus members, not the devices'" "$got" \
    "{'cpu': 0} 0000:00:1f.2"
# Plain cpm-topo reads no device file: the summary of a machine is as
# fast as it was.
if command -v strace >/dev/null 2>&1; then
	run strace -f -e trace=openat,open,openat2 -o "$T_TMP/strace" \
	    cpm-topo --sysroot "$g"
	n=$(grep -c 'pci' "$T_TMP/strace")
	assert "the summary opens no PCI file" "$n" 0
else
	skip "the summary opens no PCI file" "no strace"
fi

# Every device's node and local CPUs are the kernel's files.
bad=
for d in "$pci"/*; do
	a=${d##*/}
	n=$(cat "$d/numa_node")
	[ "$n" = -1 ] && n=-
	want="$a $n $(cat "$d/local_cpulist")"
	got=$(cpm-topo --sysroot "$g" devices -o address,node,cpus --raw --noheadings |
	    grep "^$a ")
	[ -z "$got" ] && continue	# a bridge: not shown
	[ "$got" = "$want" ] || bad="$bad [$got] != [$want]"
done
assert "NODE and CPUS are numa_node and local_cpulist" "$bad" ""

# ---- dev: selectors ----
for sel_want in eth1=4-7 0000:3b:00.0=4-7 3b:00.0=4-7 0000:3B:00.0=4-7 \
    eth1v0=4-7 nvme0=8-11 nvme0n1=8-11 card1=12-15 sda=0-3 \
    0000:12:00.0=0-3 mlx5_0=0-15 ib0=0-15; do
	sel=${sel_want%=*} want=${sel_want#*=}
	check "dev:$sel is the device's local online CPUs" 0 "$want" \
	    cpm-topo --sysroot "$g" cpus "dev:$sel"
done
check "dev: joins other selectors" 0 "4-11" \
    cpm-topo --sysroot "$g" cpus dev:eth1 dev:nvme0
check "--not dev: removes a device's CPUs" 0 "0-7,12-15" \
    cpm-topo --sysroot "$g" cpus all --not dev:nvme0n1
check "--and dev: keeps a device's CPUs" 0 "4-7" \
    cpm-topo --sysroot "$g" cpus socket:0 --and dev:eth2
check "--count with dev:" 0 "4" \
    cpm-topo --sysroot "$g" cpus dev:card1 --count
check_fail "dev: of a name nothing has" 2 \
    "^cpm-topo: invalid selector 'dev:eth9': no device 'eth9'" \
    cpm-topo --sysroot "$g" cpus dev:eth9
check_fail "dev: of an address no device has" 2 \
    "^cpm-topo: invalid selector 'dev:0000:3b:02.0': no PCI device 0000:3b:02.0" \
    cpm-topo --sysroot "$g" cpus dev:0000:3b:02.0
mkdir -p "$g/sys/devices/virtual/net/lo"
ln -s ../../devices/virtual/net/lo "$g/sys/class/net/lo"
check_fail "dev: of an interface that is no PCI device" 2 \
    "^cpm-topo: invalid selector 'dev:lo': 'lo' is not a PCI device$" \
    cpm-topo --sysroot "$g" cpus dev:lo
for bad in "dev:" "dev:../eth1" "dev:a/b" "dev:.hidden"; do
	check_fail "'$bad' is an invalid device name" 2 \
	    "^cpm-topo: invalid selector '$bad': invalid device name" \
	    cpm-topo --sysroot "$g" cpus "$bad"
done
# A device whose local CPUs are all offline has none to give.
cp -r "$g" "$T_TMP/off"
echo 15 >"$T_TMP/off/sys/bus/pci/devices/0000:af:00.0/local_cpulist"
echo 0-14 >"$T_TMP/off/sys/devices/system/cpu/online"
echo 15 >"$T_TMP/off/sys/devices/system/cpu/offline"
echo 0 >"$T_TMP/off/sys/devices/system/cpu/cpu15/online"
check_fail "dev: of a device with no online local CPU" 2 \
    "^cpm-topo: invalid selector 'dev:card1': 0000:af:00.0 has no local CPUs online$" \
    cpm-topo --sysroot "$T_TMP/off" cpus dev:card1
check "dev: leaves offline CPUs out" 0 "4-7" \
    cpm-topo --sysroot "$T_TMP/off" cpus dev:eth1
# Kernels before 2.6.26 have the mask only.
rm "$T_TMP/off/sys/bus/pci/devices/0000:3b:00.0/local_cpulist"
check "without local_cpulist, local_cpus (the mask)" 0 "4-7" \
    cpm-topo --sysroot "$T_TMP/off" cpus dev:0000:3b:00.0
check "cpm-pin takes dev: as its CPU list" 0 \
"cpus: 8-11
mempolicy: inherited
exec: true" \
    cpm-pin --sysroot "$g" --dry-run dev:nvme0 -- true
check_fail "cpm-pin refuses an unknown device" 2 \
    "^cpm-pin: invalid selector 'dev:nvme7': no device 'nvme7'" \
    cpm-pin --sysroot "$g" --dry-run dev:nvme7 -- true

# ---- dumps replay the devices ----
cols=device,address,type,node,cpus,driver,names,vfs,pf,class,vendor
run cpm-topo --sysroot "$g" dump "$T_TMP/dump"
assert "dump writes the devices' files" "$rc" 0
check "a dump replays the devices as they were" 0 \
    "$(cpm-topo --sysroot "$g" devices -o $cols)" \
    cpm-topo --sysroot "$T_TMP/dump" devices -o $cols
check "a dump replays dev: selectors" 0 "8-11" \
    cpm-topo --sysroot "$T_TMP/dump" cpus dev:nvme0n1

# ---- hwloc's locality of each device ----
# hwloc hangs each PCI device below the smallest object that holds the
# device's local CPUs; the names it gives a device's network, block and
# RDMA functions must be among cpm's.  hwloc reads local_cpus (the mask);
# where a tree's two files disagree (edited by hand), it is compared with
# that.
hwloc_compare() {	# NAME ROOT
	HWLOC_COMPONENTS=linux,stop HWLOC_FSROOT=$2 \
	    lstopo-no-graphics --of xml --whole-io - 2>/dev/null |
	    python3 "$CPM_TOP/tests/hwloc-pci.py" >"$T_TMP/hw" ||
	    { not_ok "$1: hwloc reads the tree"; return; }
	cpm-topo --sysroot "$2" devices -o address,names --raw --noheadings \
	    >"$T_TMP/names"
	_bad= _exact=0 _n=0
	while read -r a hcpus hnames; do
		c=$(cpm-topo --sysroot "$2" cpus "dev:$a" 2>/dev/null) || c=
		_n=$((_n + 1))
		if [ "$c" = "$hcpus" ]; then
			_exact=$((_exact + 1))
		else
			# cpm's set must lie within hwloc's object.
			extra=$( { printf '%s\n' "$c" | expand; printf '%s\n' "$hcpus" | expand;
				printf '%s\n' "$hcpus" | expand; } | sort -n | uniq -u)
			mask=$(cat "$2/sys/bus/pci/devices/$a/local_cpus" 2>/dev/null)
			if [ -n "$extra" ] && [ -n "$mask" ]; then
				# the mask's CPUs, as hwloc reads them
				m=$(python3 -c 'import sys
v = int(sys.argv[1].replace(",", ""), 16)
print("\n".join(str(i) for i in range(v.bit_length()) if v >> i & 1))' "$mask")
				extra=$( { printf '%s\n' "$m"; printf '%s\n' "$hcpus" | expand;
					printf '%s\n' "$hcpus" | expand; } | sort -n | uniq -u)
			fi
			if [ -n "$extra" ] && [ -n "$c" ]; then
				_bad="$_bad $a:cpm=$c,hwloc=$hcpus,mask=$mask"
			fi
		fi
		[ "$hnames" = - ] && continue
		cn=$(awk -v a="$a" '$1 == a { print $2 }' "$T_TMP/names")
		for nm in $(printf '%s' "$hnames" | tr ',' ' '); do
			case ",$cn," in
			*",$nm,"*) ;;
			*) _bad="$_bad $a:name:$nm:not-in:$cn" ;;
			esac
		done
	done <"$T_TMP/hw"
	if [ "$_n" = 0 ]; then
		skip "$1: hwloc's device locality" "hwloc places no PCI device"
	else
		assert "$1: every device sits within hwloc's place for it ($_exact of $_n exactly)" \
		    "$_bad" ""
	fi
}
if command -v lstopo-no-graphics >/dev/null 2>&1; then
	hwloc_compare "generated tree" "$g"
	# On the generated tree hwloc's place is exactly cpm's answer.
	bad=$(while read -r a hcpus _; do
		c=$(cpm-topo --sysroot "$g" cpus "dev:$a")
		[ "$c" = "$hcpus" ] || echo "$a $c $hcpus"
	done <"$T_TMP/hw" | grep -v ' 0000:00:00.0 ')
	assert "generated tree: each device's CPUs are hwloc's exactly" "$bad" ""
	for tb in "$FIXTURES"/hwloc/*.tar.bz2; do
		name=$(basename "$tb" .tar.bz2)
		bzip2 -dc "$tb" 2>/dev/null | tar tf - 2>/dev/null |
		    grep -q 'sys/bus/pci/devices/.' || continue
		root=$(fixture_tree "$name") || { not_ok "$name: unpack"; continue; }
		hwloc_compare "$name" "$root"
	done
else
	skip "hwloc's device locality" "no lstopo-no-graphics"
fi

# ---- cpm-topo check --device ----
check "check --device: CPUs local to the device are no finding" 0 "" \
    cpm-topo --sysroot "$g" check 4-5 --device eth1
check "check --device warns about remote CPUs, with the distance" 3 \
"warning: CPUs 8-9 are not local to eth1 (0000:3b:00.0, NUMA node 1): on NUMA node 2, distance 21 (local 10)
warning: CPU 12 is not local to eth1 (0000:3b:00.0, NUMA node 1): on NUMA node 3, distance 21 (local 10)" \
    cpm-topo --sysroot "$g" check 4,8-9,12 --policy spread --device eth1
check "check --device: the distance of a near node" 3 \
"warning: CPU 0 is not local to 0000:3b:00.0 (0000:3b:00.0, NUMA node 1): on NUMA node 0, distance 12 (local 10)" \
    cpm-topo --sysroot "$g" check 0,4 --policy spread --device 0000:3b:00.0
check "check --device: a device of unknown node gets a note, no warning" 0 \
    "note: the NUMA node of mlx5_0 (0000:d8:00.0) is unknown (the firmware gives none): its locality cannot be checked" \
    cpm-topo --sysroot "$g" check 0-1 --device mlx5_0
check "check --device takes a list of devices, as take --near does" 3 \
"warning: CPUs 8-9 are not local to eth1 (0000:3b:00.0, NUMA node 1): on NUMA node 2, distance 21 (local 10)
warning: CPUs 4-5 are not local to nvme0 (0000:5e:00.0, NUMA node 2): on NUMA node 1, distance 21 (local 10)" \
    cpm-topo --sysroot "$g" check 4-5,8-9 --policy spread --device eth1,nvme0
check_fail "check --device refuses an empty name in its list" 2 \
    "^cpm-topo: invalid --device list 'eth1,'" \
    cpm-topo --sysroot "$g" check 4 --device eth1,
check_fail "check --device refuses an unknown device" 2 \
    "^cpm-topo: invalid --device: no device 'eth7'" \
    cpm-topo --sysroot "$g" check 0-1 --device eth7

# ---- cpm-alloc take --near ----
export CPM_STATE="$T_TMP/near.state"
A="cpm-alloc --sysroot $g"
$A init >/dev/null || not_ok "cpm-alloc init on the generated tree"
check "take --near keeps the CPUs beside the NIC under single-numa-node" 0 \
    "4-7" $A take web 4 --near eth1 --numa-policy single-numa-node
check_fail "take --near refuses when the device's node is full" 3 \
    "^cpm-alloc: topology affinity error: the single-numa-node policy refuses 2 CPUs beside eth2 \(on NUMA node 1, 0 CPUs free there\): no single NUMA node can hold it with the device \(free CPUs per node: 0:4 1:0 2:4 3:4\)$" \
    $A take fwd 2 --near eth2 --numa-policy single-numa-node
check_fail "restricted refuses too" 3 \
    "^cpm-alloc: topology affinity error: the restricted policy refuses 2 CPUs beside eth1 \(on NUMA node 1, 0 CPUs free there\)" \
    $A take fwd 2 --near eth1 --numa-policy restricted
check_fail "single-numa-node refuses devices on two nodes" 3 \
    "beside nvme0 \(on NUMA node 2, 4 CPUs free there\) and card1 \(on NUMA node 3, 4 CPUs free there\)" \
    $A take both 2 --near nvme0,card1 --numa-policy single-numa-node
check "a refused take leaves the state as it was" 0 "web" \
    sh -c "$A list -o name --noheadings"
run $A take db 2 --near nvme0 --numa-policy single-numa-node --explain
assert "--explain shows the device hint among the others" "$rc $out$err" \
"0 8-9
cpm-alloc: CPU hints: 0 preferred, 2 preferred, 3 preferred, 0-1 -, 0,2 -, 0,3 -, 1-2 -, 1,3 -, 2-3 -, 0-2 -, 0-1,3 -, 0,2-3 -, 1-3 -, 0-3 -
cpm-alloc: device hints (nvme0, NUMA node 2): 2 preferred, 0,2 -, 1-2 -, 2-3 -, 0-2 -, 0,2-3 -, 1-3 -, 0-3 -
cpm-alloc: single-numa-node policy: merged hint 2 preferred: admitted
cpm-alloc: chose 8-9 of 12 free CPUs (per node: 0:4 1:0 2:4 3:4), from NUMA nodes 2 first: the static policy takes whole NUMA nodes or sockets, then whole cores, then single threads, packed on the fewest
"
run $A take rdma 2 --near mlx5_0 --numa-policy single-numa-node --explain
case $err in
*"device hints (mlx5_0): any (no preference)"*)
	assert "a device of unknown node is no preference" "$rc" 0 ;;
*)	not_ok "a device of unknown node is no preference" "$(show)" ;;
esac
check "best-effort admits and still prefers the device's node" 0 "12-13" \
    $A take gpu 2 --near card1 --numa-policy best-effort
check "under none the device's node is filled first" 0 "14-15" \
    $A take gpu2 2 --near 0000:af:00.0
check_fail "take --near refuses a name that is no device, changing nothing" 2 \
    "^cpm-alloc: invalid --near device: no device 'eth9'" \
    $A take x 1 --near eth9
check_fail "take --near refuses an empty name in the list" 2 \
    "^cpm-alloc: invalid --near list 'eth1,'" $A take x 1 --near eth1,
check "list shows the devices" 0 \
"NAME DEVICES
web eth1
db nvme0
rdma mlx5_0
gpu card1
gpu2 0000:af:00.0" \
    $A list --raw -o name,devices
check "show --devices: each device's name and address" 0 \
    "nvme0 0000:5e:00.0" $A show db --devices
check "show --devices of an entry taken beside none" 0 "" \
    sh -c "$A take plain 1 >/dev/null && $A show plain --devices"
run $A list --json
got=$(printf '%s' "$out" | python3 -c '
import json, sys
d = json.load(sys.stdin)
print([(e["name"], e["devices"]) for e in d["entries"]][:2])' 2>&1)
assert "list --json: devices as name and address" "$got" \
    "[('web', [{'name': 'eth1', 'address': '0000:3b:00.0'}]), ('db', [{'name': 'nvme0', 'address': '0000:5e:00.0'}])]"
check "the state records each device by name and address" 0 \
    "entry web n=4 cpus=4-7 mode=exclusive opts=numa-policy=single-numa-node near=eth1@0000:3b:00.0" \
    grep '^entry web ' "$CPM_STATE"
check "hints --near keeps the node sets that hold the device" 0 \
"1 preferred
0-1 -
1-2 -
1,3 -
0-2 -
0-1,3 -
1-3 -
0-3 -
device eth2: NUMA node 1" \
    sh -c "CPM_STATE=$T_TMP/fresh.state cpm-alloc --sysroot $g hints 2 --near eth2"

# ---- cpm-alloc check: still beside the devices? ----
check "check: every allocation sits beside its device" 0 "" $A check
# The NIC's firmware now puts it on node 2 (a card moved to another slot).
cp -r "$g" "$T_TMP/moved"
echo 2 >"$T_TMP/moved/sys/bus/pci/devices/0000:3b:00.0/numa_node"
echo 8-11 >"$T_TMP/moved/sys/bus/pci/devices/0000:3b:00.0/local_cpulist"
rm -r "$T_TMP/moved/sys/bus/pci/devices/0000:5e:00.0"
run cpm-alloc --sysroot "$T_TMP/moved" check
assert "check warns when an allocation is no longer beside its device" \
    "$rc $out" "3 warning: 'web' is not beside eth1 (0000:3b:00.0, NUMA node 2): CPUs 4-7 are not local to it
warning: 'db' was taken beside nvme0 (0000:5e:00.0), which is gone
"

# ---- cpm-pin --irqs-to: a device's interrupts onto its CPUs ----
# A fake proc/irq beside the generated devices (never the host's own
# interrupts): eth1's MSI-X vectors are 40-43 and nvme0's 50-51, as the
# spec's msix= lines put them in msi_irqs/; 30 belongs to no device.
S=$T_TMP/irqs
cp -r "$g" "$S"
mkdir -p "$S/proc/irq"
printf 'ffff\n' >"$S/proc/irq/default_smp_affinity"
for i in 30 40 41 42 43 50 51; do
	mkdir -p "$S/proc/irq/$i/dev$i"
	echo 0-15 >"$S/proc/irq/$i/smp_affinity_list"
done
echo 0-3 >"$S/proc/irq/41/smp_affinity_list"
export CPM_IRQ_JOURNAL=$T_TMP/irq.journal
snap() {
	for i in 30 40 41 42 43 50 51; do
		printf '%s:%s ' $i "$(cat "$S/proc/irq/$i/smp_affinity_list")"
	done
}
orig=$(snap)
check "--irqs-to moves the device's vectors onto the CPUs" 0 "" \
    cpm-pin --sysroot "$S" --irqs-to eth1 dev:eth1
assert "only the device's IRQs (its msi_irqs) moved" "$(snap)" \
    "30:0-15 40:4-7 41:4-7 42:4-7 43:4-7 50:0-15 51:0-15 "
check "the journal holds the steering and the originals" 0 \
"steer irqs-to:0000:3b:00.0 4-7 40-43
irq 41 0-3" \
    sh -c "grep -e '^steer' -e '^irq 41 ' '$CPM_IRQ_JOURNAL'"
run cpm-pin --sysroot "$S" --irqs-away 4
assert "--irqs-away after steering says the steered IRQs stay" "$rc:$err" \
    "0:cpm-pin: note: IRQs 40-43 stay on the CPUs they are steered to (--irqs-to), away set or not
"
assert "steering wins over the away CPUs; the rest leave them" "$(snap)" \
    "30:0-3,5-15 40:4-7 41:4-7 42:4-7 43:4-7 50:0-3,5-15 51:0-3,5-15 "
check "steering again replaces the CPUs it steered to" 0 "" \
    cpm-pin --sysroot "$S" --irqs-to 0000:5e:00.0 8-9
check "--irqs-restore puts every affinity back" 0 "" \
    cpm-pin --sysroot "$S" --irqs-restore
assert "the affinities are exactly the originals" "$(snap)" "$orig"
assert "the journal is gone after the restore" \
    "$(test -e "$CPM_IRQ_JOURNAL" && echo there)" ""
check_fail "--irqs-to refuses an unknown device" 2 \
    "^cpm-pin: invalid --irqs-to device: no device 'eth9'" \
    cpm-pin --sysroot "$S" --irqs-to eth9 4
check_fail "--irqs-to of a device with no interrupt" 3 \
    "^cpm-pin: eth2 \(0000:3b:00.1\) has no interrupts" \
    cpm-pin --sysroot "$S" --irqs-to eth2 4
check_fail "--irqs-to needs a CPU list" 2 "^cpm-pin: --irqs-to needs a CPU list$" \
    cpm-pin --sysroot "$S" --irqs-to eth1
check_fail "--irqs-to takes one CPU list" 2 "^cpm-pin: unexpected argument '5'$" \
    cpm-pin --sysroot "$S" --irqs-to eth1 4 5
check_fail "--irqs-to does not go with --irqs-away" 2 \
    "^cpm-pin: --irqs-to goes with neither --irqs-away nor --irqs-restore$" \
    cpm-pin --sysroot "$S" --irqs-to eth1 4 --irqs-away 5
rm -r "$S/proc/irq/43"
check_fail "a vector missing from proc/irq changes nothing" 1 \
    "^cpm-pin: IRQ 43 is not in /proc/irq$" \
    cpm-pin --sysroot "$S" --irqs-to eth1 4-7
assert "nothing moved and no journal" \
    "$(snap 2>/dev/null | cut -d' ' -f1-4)$(test -e "$CPM_IRQ_JOURNAL" && echo there)" \
    "30:0-15 40:0-15 41:0-3 42:0-15"
