# SPDX-License-Identifier: GPL-2.0-or-later
# What a QEMU machine looks like to Linux, computed from the topology that
# was asked for on the QEMU command line and never from cpm.  Sourced by
# tests/vm/run (to build the QEMU command line), by the tests that run
# inside the VM and by tests/t-vm-fixtures.sh (to replay dumped trees).
# Plain POSIX sh and awk: it also runs under busybox inside the VM.
#
# A topology file (tests/vm/topologies/NAME) sets:
#   MODEL      QEMU CPU model (an Intel model: the L3 follows the die)
#   SOCKETS DIES CORES THREADS
#              -smp sockets=, dies= (per socket), cores= (per die),
#              threads= (per core); DIES and CORES powers of two or not,
#              CPU numbers follow QEMU's order: socket, die, core, thread
#   CPUS       CPUs present at boot (default all; the rest are possible
#              but not present, -smp maxcpus=)
#   NODES_PER_SOCKET
#              NUMA nodes a socket is cut into, in equal CPU ranges
#   MEM_NODES  extra NUMA nodes with memory and no CPU, numbered last
#   NODE_MB    memory per NUMA node
#   DIST       "SRC DST VAL" triples separated by commas; the matrix is
#              symmetric, 10 on the diagonal, 20 when not given (QEMU
#              wants all or none)
#   HMAT_LB    ACPI HMAT (-machine hmat=on): "INITIATOR TARGET LAT BW"
#              entries separated by commas, an access latency in ns and
#              an access bandwidth in MB/s (-numa hmat-lb) from the
#              initiator node to the target node; memory-only nodes take
#              the initiator of their first entry
#   HMAT_CACHE memory-side caches, "NODE SIZE LINE" entries (bytes;
#              level 1, direct-mapped, write-back: -numa hmat-cache)
#   OFFLINE    cpulist taken offline inside the VM before the tests
#   ALLOC_*    cpm-alloc expectations, derived by hand from the kubelet
#              rules on this topology (see the comments there)
#   GUEST      what runs as PID 1: busybox (the default: the tests run
#              from the initramfs) or systemd (the host's own Debian
#              userland, shared read-only over 9p under a tmpfs overlay,
#              with systemd as PID 1 on cgroup v2)
#   KERNELS    kernel versions to boot this machine with, each its own VM
#              (e.g. "6.1 6.12"; default: the one kernel of tests/vm/run)
#   TESTS      guest tests to run (default: tests/vm/run's list)
#   TIMEOUT    seconds the VM may take (default: tests/vm/run's)
#   PCI_DEVS   PCI devices, "KIND:NODE ..." with KIND net (virtio-net)
#              or nvme: device i sits alone at slot 3 behind a PCI
#              expander bridge (pxb) with bus_nr B = 16 * (i + 1) and
#              numa_node=NODE, which ACPI gives the guest as the root
#              bridge's _PXM; the pxb puts a PCI bridge at B:00.0, so the
#              device is 0000:(B+1):03.0 (pci_dev_addr)
#   MODULES    kernel modules the busybox guest loads first, with their
#              dependencies (e.g. "virtio_net nvme" for PCI_DEVS)
#
# Linux numbers CPUs in QEMU's order, so CPU c sits on
#   thread c % THREADS, core (c / THREADS) % CORES,
#   die (c / (THREADS*CORES)) % DIES, socket c / (THREADS*CORES*DIES).
# The kernel's L3 cache id is the APIC id shifted past the die bits:
#   socket * 2^ceil(log2 DIES) + die.
# So is the kernel's die_id since the x86 topology rework of Linux 6.9;
# before, die_id counts the dies of each socket from 0.  TOPO_KERNEL (the
# kernel release, `uname -r`) says which; unset, the older numbering.

# topo_load NAME DIR: read DIR/NAME and derive the counts.
topo_load() {
	TOPO_NAME=$1
	MODEL=Skylake-Server SOCKETS=1 DIES=1 CORES=1 THREADS=1 CPUS=
	NODES_PER_SOCKET=1 MEM_NODES=0 NODE_MB=256 DIST= OFFLINE=
	HMAT_LB= HMAT_CACHE=
	ALLOC_CASES= GUEST=busybox KERNELS= TESTS= TIMEOUT= PCI_DEVS= MODULES=
	. "$2/$1" || return 1
	T_MAXCPUS=$((SOCKETS * DIES * CORES * THREADS))
	T_PRESENT=${CPUS:-$T_MAXCPUS}
	T_PER_SOCKET=$((DIES * CORES * THREADS))
	T_PER_NODE=$((T_PER_SOCKET / NODES_PER_SOCKET))
	T_CPU_NODES=$((SOCKETS * NODES_PER_SOCKET))
	T_NODES=$((T_CPU_NODES + MEM_NODES))
	_b=1
	while [ "$_b" -lt "$DIES" ]; do _b=$((_b * 2)); done
	T_DIE_SPAN=$_b
	T_DIE_APIC=0
	_v=${TOPO_KERNEL:-0.0}
	_v=${_v%%-*}
	_m=${_v#*.}
	_m=${_m%%[!0-9]*}
	[ "${_v%%.*}" -gt 6 ] || { [ "${_v%%.*}" -eq 6 ] && [ "${_m:-0}" -ge 9 ]; } &&
	    T_DIE_APIC=1
	T_OFFLINE_SET=" $(list_expand "$OFFLINE") "
}

# list_fmt: numbers on stdin (any order, whitespace separated) to the
# canonical cpulist (ascending, ranges collapsed, an empty set is "").
list_fmt() {
	tr -s ' \t' '\n\n' | awk 'NF { print $1 + 0 }' | sort -n -u | awk '
		NR == 1 { lo = hi = $1; next }
		$1 == hi + 1 { hi = $1; next }
		{ out = out sep (lo == hi ? lo : lo "-" hi); sep = ","; lo = hi = $1 }
		END { if (NR) out = out sep (lo == hi ? lo : lo "-" hi); print out }'
}

# list_expand LIST: a cpulist to space-separated numbers.
list_expand() {
	printf '%s\n' "$1" | tr ',' '\n' | awk -F- 'NF == 1 && $1 != "" { printf "%d ", $1 }
		NF == 2 { for (i = $1; i <= $2; i++) printf "%d ", i }'
}

cpu_present() { [ "$1" -lt "$T_PRESENT" ]; }
cpu_online() {
	cpu_present "$1" && case $T_OFFLINE_SET in *" $1 "*) return 1;; esac
}
cpu_socket() { echo $(($1 / T_PER_SOCKET)); }
cpu_die() { echo $((($1 / (CORES * THREADS)) % DIES)); }
cpu_node() { echo $(($1 / T_PER_NODE)); }
# die_id S D: the kernel's die_id of die D (counted from 0) of socket S.
die_id() { [ "$T_DIE_APIC" = 1 ] && echo $(($1 * T_DIE_SPAN + $2)) || echo "$2"; }
cpu_die_id() { die_id "$(cpu_socket $1)" "$(cpu_die $1)"; }
cpu_l3() { echo $(($1 / T_PER_SOCKET * T_DIE_SPAN + ($1 / (CORES * THREADS)) % DIES)); }
# The first thread of CPU's core: cpm's (and the kubelet's) core number
# when that thread is online.
cpu_core_first() { echo $(($1 - $1 % THREADS)); }

# The CPUs (c from 0 to maxcpus-1) for which "TEST" holds, as a cpulist;
# TEST is evaluated with $c set.
cpus_where() {
	_c=0 _l=
	while [ "$_c" -lt "$T_MAXCPUS" ]; do
		c=$_c
		if eval "$1"; then _l="$_l $_c"; fi
		_c=$((_c + 1))
	done
	echo "$_l" | list_fmt
}

exp_possible() { echo "0-$((T_MAXCPUS - 1))"; }
exp_present() { echo "0-$((T_PRESENT - 1))"; }
exp_online() { cpus_where 'cpu_online $c'; }
exp_offline() { cpus_where '! cpu_online $c'; }
# Online SMT siblings of CPU, including itself (what thread_siblings_list
# shows).
exp_siblings() {
	_f=$(cpu_core_first "$1")
	cpus_where "[ \$c -ge $_f ] && [ \$c -lt $((_f + THREADS)) ] && cpu_online \$c"
}
# Online CPUs of a node, socket, die (S D) or L3 id: what the kernel
# lists (x86 drops offline CPUs from the node lists).
exp_node_cpus() { cpus_where "cpu_online \$c && [ \$((c / T_PER_NODE)) = $1 ]"; }
exp_socket_cpus() { cpus_where "cpu_online \$c && [ \$((c / T_PER_SOCKET)) = $1 ]"; }
exp_die_cpus() {
	cpus_where "cpu_online \$c && [ \$((c / T_PER_SOCKET)) = $1 ] && [ \$(((c / (CORES * THREADS)) % DIES)) = $2 ]"
}
exp_l3_cpus() { cpus_where "cpu_online \$c && [ \$(cpu_l3 \$c) = $1 ]"; }
# The K-th thread of every core, online CPUs only.
exp_thread() { cpus_where "cpu_online \$c && [ \$((c % THREADS)) = $1 ]"; }
# L3 ids that have an online CPU.
exp_l3_ids() {
	_c=0
	while [ "$_c" -lt "$T_MAXCPUS" ]; do
		cpu_online "$_c" && cpu_l3 "$_c"
		_c=$((_c + 1))
	done | sort -n -u | tr '\n' ' '
}

# exp_distance I J
exp_distance() {
	[ "$1" = "$2" ] && { echo 10; return; }
	printf '%s\n' "$DIST" | tr ',' '\n' | awk -v i="$1" -v j="$2" '
		NF == 3 && (($1 == i && $2 == j) || ($1 == j && $2 == i)) { v = $3 }
		END { print v == "" ? 20 : v }'
}
# One node's row of the distance matrix, space separated.
exp_distance_row() {
	_j=0 _r=
	while [ "$_j" -lt "$T_NODES" ]; do
		_r="$_r $(exp_distance "$1" "$_j")"
		_j=$((_j + 1))
	done
	echo $_r
}

# topo_qemu_args: the QEMU options that make this machine, one per line.
topo_qemu_args() {
	echo -cpu; echo "$MODEL"
	echo -smp
	echo "$T_PRESENT,maxcpus=$T_MAXCPUS,sockets=$SOCKETS,dies=$DIES,cores=$CORES,threads=$THREADS"
	echo -m; echo "$((NODE_MB * T_NODES))M"
	[ -n "$HMAT_LB" ] && { echo -machine; echo pc,hmat=on; }
	_n=0
	while [ "$_n" -lt "$T_NODES" ]; do
		echo -object; echo "memory-backend-ram,size=${NODE_MB}M,id=m$_n"
		echo -numa
		if [ "$_n" -lt "$T_CPU_NODES" ]; then
			echo "node,nodeid=$_n,cpus=$((_n * T_PER_NODE))-$(((_n + 1) * T_PER_NODE - 1)),memdev=m$_n"
		elif [ -n "$HMAT_LB" ]; then
			echo "node,nodeid=$_n,memdev=m$_n,initiator=$(hmat_initiator $_n)"
		else
			echo "node,nodeid=$_n,memdev=m$_n"
		fi
		_n=$((_n + 1))
	done
	printf '%s\n' "$DIST" | tr ',' '\n' | awk 'NF == 3 {
		print "-numa"; print "dist,src=" $1 ",dst=" $2 ",val=" $3 }'
	_i=0
	for _d in $PCI_DEVS; do
		_bus=$((16 * (_i + 1)))
		echo -device; echo "pxb,id=pxb$_i,bus_nr=$_bus,numa_node=${_d#*:},bus=pci.0"
		case ${_d%%:*} in
		net)
			echo -netdev; echo "hubport,id=net$_i,hubid=$_i"
			echo -device; echo "virtio-net-pci,netdev=net$_i,bus=pxb$_i,addr=3" ;;
		nvme)
			echo -blockdev; echo "driver=null-co,node-name=nvm$_i,size=67108864"
			echo -device; echo "nvme,drive=nvm$_i,serial=cpm$_i,bus=pxb$_i,addr=3" ;;
		esac
		_i=$((_i + 1))
	done
	printf '%s\n' "$HMAT_LB" | tr ',' '\n' | awk 'NF == 4 {
		h = "hmat-lb,initiator=" $1 ",target=" $2 ",hierarchy=memory"
		print "-numa"; print h ",data-type=access-latency,latency=" $3
		print "-numa"; print h ",data-type=access-bandwidth,bandwidth=" $4 "M" }'
	printf '%s\n' "$HMAT_CACHE" | tr ',' '\n' | awk 'NF == 3 {
		print "-numa"
		print "hmat-cache,node-id=" $1 ",size=" $2 ",level=1,associativity=direct,policy=write-back,line=" $3 }'
}

# hmat_initiator NODE: the initiator of NODE's first HMAT_LB entry.
hmat_initiator() {
	printf '%s\n' "$HMAT_LB" | tr ',' '\n' | awk -v n="$1" 'NF == 4 && $2 == n { print $1; exit }'
}

# hmat_lb NODE: "LAT BW INITIATORS" the firmware gives for NODE: the
# lowest latency and highest bandwidth of its entries, and the initiators
# that have both (the kernel's "best" initiators).
hmat_lb() {
	printf '%s\n' "$HMAT_LB" | tr ',' '\n' | awk -v n="$1" '
		NF == 4 && $2 == n { i[$1] = $3 " " $4
			if (lat == "" || $3 < lat) lat = $3
			if (bw == "" || $4 > bw) bw = $4 }
		END { for (k in i) if (i[k] == lat " " bw) init = init (init == "" ? "" : ",") k
			if (lat != "") print lat, bw, init }'
}

# hmat_cache NODE: "SIZE LINE" of NODE's memory-side cache, or nothing.
hmat_cache() {
	printf '%s\n' "$HMAT_CACHE" | tr ',' '\n' | awk -v n="$1" 'NF == 3 && $1 == n { print $2, $3; exit }'
}

# exp_memory_rows: cpm-topo memory -o
# node,cpus,read_bw,write_bw,read_lat,write_lat,initiators,cache --raw
# --noheadings as the QEMU command line makes it, one line per node: the
# HMAT_LB values (QEMU gives one latency and one bandwidth, for reads and
# writes alike) and HMAT_CACHE sizes, "-" where the machine has none.
exp_memory_rows() {
	_n=0
	while [ "$_n" -lt "$T_NODES" ]; do
		set -- $(hmat_lb $_n)
		_cpus=$(exp_node_cpus $_n)
		_mc=$(hmat_cache $_n)
		if [ -n "$_mc" ]; then
			_mc=$(echo "$_mc" | awk '{ s = $1; u = ""; split("K M G T", U, " ")
				for (k = 1; s % 1024 == 0 && k <= 4; k++) { s /= 1024; u = U[k] }
				print "L1:" s u }')
		fi
		echo "$_n ${_cpus:--} ${2:--} ${2:--} ${1:--} ${1:--} ${3:--} ${_mc:--}"
		_n=$((_n + 1))
	done
}

# pci_dev_addr I: the PCI address of device I of PCI_DEVS.
pci_dev_addr() { printf '0000:%02x:03.0\n' $((16 * ($1 + 1) + 1)); }

# topo_expect: everything above as KEY=VALUE lines (for scripts in other
# languages and for reading by a human).
topo_expect() {
	echo "name=$TOPO_NAME"
	echo "possible=$(exp_possible)"
	echo "present=$(exp_present)"
	echo "online=$(exp_online)"
	echo "offline=$(exp_offline)"
	echo "threads_per_core=$THREADS"
	echo "node_mb=$NODE_MB"
	echo "nodes=$T_NODES"
	echo "sockets=$SOCKETS"
	_c=0
	while [ "$_c" -lt "$T_MAXCPUS" ]; do
		if cpu_online "$_c"; then
			echo "cpu$_c=online node=$(cpu_node $_c) socket=$(cpu_socket $_c) die=$(cpu_die_id $_c) core=$(exp_siblings $_c | sed 's/[-,].*//') l3=$(cpu_l3 $_c) siblings=$(exp_siblings $_c)"
		elif cpu_present "$_c"; then
			echo "cpu$_c=offline node=$(cpu_node $_c)"
		else
			echo "cpu$_c=absent"
		fi
		_c=$((_c + 1))
	done
	_n=0
	while [ "$_n" -lt "$T_NODES" ]; do
		echo "node$_n=$(exp_node_cpus $_n) distances=$(exp_distance_row $_n | tr ' ' ',')"
		_n=$((_n + 1))
	done
	_s=0
	while [ "$_s" -lt "$SOCKETS" ]; do
		echo "socket$_s=$(exp_socket_cpus $_s)"
		_s=$((_s + 1))
	done
	for _i in $(exp_l3_ids); do
		echo "l3_$_i=$(exp_l3_cpus $_i)"
	done
}

# topo_shvars: the per-CPU, per-node and per-cache answers as shell
# assignments (E_sib_3=2-3 ...), so that a slow machine (busybox under
# TCG) looks them up instead of computing them; topo_use_shvars FILE
# then makes the exp_* functions above read them.
topo_shvars() {
	echo "E_online='$(exp_online)' E_offline='$(exp_offline)'"
	_c=0
	while [ "$_c" -lt "$T_MAXCPUS" ]; do
		cpu_online "$_c" && echo "E_sib_$_c='$(exp_siblings $_c)'"
		_c=$((_c + 1))
	done
	_n=0
	while [ "$_n" -lt "$T_NODES" ]; do
		echo "E_node_$_n='$(exp_node_cpus $_n)' E_dist_$_n='$(exp_distance_row $_n)'"
		_n=$((_n + 1))
	done
	_s=0
	while [ "$_s" -lt "$SOCKETS" ]; do
		echo "E_socket_$_s='$(exp_socket_cpus $_s)'"
		_d=0
		while [ "$_d" -lt "$DIES" ]; do
			echo "E_die_${_s}_$_d='$(exp_die_cpus $_s $_d)'"
			_d=$((_d + 1))
		done
		_s=$((_s + 1))
	done
	_k=0
	while [ "$_k" -lt "$THREADS" ]; do
		echo "E_thread_$_k='$(exp_thread $_k)'"
		_k=$((_k + 1))
	done
	for _i in $(exp_l3_ids); do
		echo "E_l3_$_i='$(exp_l3_cpus $_i)'"
	done
	echo "E_l3ids='$(exp_l3_ids)'"
}
topo_use_shvars() {
	. "$1" || return 1
	exp_online() { echo "$E_online"; }
	exp_offline() { echo "$E_offline"; }
	exp_siblings() { eval "echo \"\$E_sib_$1\""; }
	exp_node_cpus() { eval "echo \"\$E_node_$1\""; }
	exp_distance_row() { eval "echo \"\$E_dist_$1\""; }
	exp_socket_cpus() { eval "echo \"\$E_socket_$1\""; }
	exp_die_cpus() { eval "echo \"\$E_die_${1}_$2\""; }
	exp_thread() { eval "echo \"\$E_thread_$1\""; }
	exp_l3_cpus() { eval "echo \"\$E_l3_$1\""; }
	exp_l3_ids() { echo "$E_l3ids"; }
	T_OFFLINE_SET=" $(list_expand "$E_offline") "
}
