# Reads hwloc's "lstopo --of console -v" output and prints, for each PU,
# "OS_INDEX CORE_KEY PACKAGE_KEY" (logical indexes of its Core and
# Package objects, "-" when it has none).  An object's scope ends at the
# next line that is not indented deeper than it.
function indent(s) { match(s, /^ */); return RLENGTH }
/^ *[A-Za-z0-9]+ L#[0-9]+/ {
	ind = indent($0)
	if (core_ind >= 0 && ind <= core_ind) { core = "-"; core_ind = -1 }
	if (pkg_ind >= 0 && ind <= pkg_ind) { pkg = "-"; pkg_ind = -1 }
	if ($1 == "Package") { pkg = $2; pkg_ind = ind }
	else if ($1 == "Core") { core = $2; core_ind = ind }
	else if ($1 == "PU" && match($0, /P#[0-9]+/))
		print substr($0, RSTART + 2, RLENGTH - 2), core, pkg
}
BEGIN { core = pkg = "-"; core_ind = pkg_ind = -1 }
