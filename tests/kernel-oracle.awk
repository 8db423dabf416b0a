# An independent reader of a sysfs tree, for checking cpm against the
# kernel's own files.  Usage:
#   awk -v root=DIR -v cpus="0 1 2" -v nodes="0 1" -f kernel-oracle.awk
# prints, per CPU: "CPU CORE_KEY PACKAGE_KEY NODE" where the keys are
# the raw sibling lists (equal for all members of a core or package) and
# NODE is the lowest node whose cpulist (or cpumap) holds the CPU, or "-".
function readf(path,   line, ok) {
	ok = (getline line < path) > 0
	close(path)
	return ok ? line : ""
}
function expand(list, set,   n, parts, i, r, a) {
	n = split(list, parts, ",")
	for (i = 1; i <= n; i++) {
		if (parts[i] == "") continue
		if (split(parts[i], r, "-") == 2)
			for (a = r[1] + 0; a <= r[2] + 0; a++) set[a] = 1
		else set[parts[i] + 0] = 1
	}
}
function hexmask(mask, set,   s, i, d, bit, k, hex) {
	hex = "0123456789abcdef"
	gsub(/,/, "", mask); s = tolower(mask); bit = 0
	for (i = length(s); i >= 1; i--) {
		d = index(hex, substr(s, i, 1)) - 1
		for (k = 0; k < 4; k++) { if (int(d / 2 ^ k) % 2) set[bit + k] = 1 }
		bit += 4
	}
}
BEGIN {
	sys = root "/sys/devices/system"
	nn = split(nodes, nl, " ")
	for (i = 1; i <= nn; i++) {
		delete m
		l = readf(sys "/node/node" nl[i] "/cpulist")
		if (l != "") expand(l, m)
		else { l = readf(sys "/node/node" nl[i] "/cpumap"); if (l != "") hexmask(l, m) }
		for (c in m) if (!(c in node) || nl[i] + 0 < node[c] + 0) node[c] = nl[i]
	}
	nc = split(cpus, cl, " ")
	for (i = 1; i <= nc; i++) {
		c = cl[i]; t = sys "/cpu/cpu" c "/topology/"
		core = readf(t "thread_siblings_list")
		if (core == "") core = readf(t "thread_siblings")
		if (core == "") core = readf(t "core_cpus_list")
		if (core == "" && readf(t "physical_package_id") != "") core = "self" c
		# The package CPU list groups sockets (ids repeat on some
		# firmware); the id alone where no list exists.
		pkg = readf(t "package_cpus_list")
		if (pkg == "") pkg = readf(t "core_siblings_list")
		if (pkg == "") pkg = readf(t "core_siblings")
		if (pkg == "") pkg = readf(t "physical_package_id")
		print c, (core == "" ? "-" : core), (pkg == "" ? "-" : pkg), ((c in node) ? node[c] : "-")
	}
}
