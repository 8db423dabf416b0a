#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# examples/ansible: the cpm role run by ansible-playbook against this
# host (connection local) on Kerf's machine replayed (a gen-sysfs tree:
# the plan needs 32 CPUs), cpm installed from this tree with make
# install into a temporary root, the state a temporary file.  Apply mode
# takes the plan (changed), a second run finds it done (ok); check mode
# with --diff shows a changed line's allocation as a diff and changes
# nothing; a plan the machine cannot hold fails the play.
. "$(dirname "$0")/lib.sh"

if ! command -v ansible-playbook >/dev/null; then
	skip "the Ansible role" "ansible-playbook not installed (ansible-core)"
	exit 0
fi
python3 "$CPM_TOP/tests/gen-sysfs" "$CPM_TOP/tests/plans/kerf.machine" "$T_TMP/kerf" >/dev/null ||
    { not_ok "generate Kerf's machine"; exit 0; }

# Ansible's own files stay in the test's directory.
export LC_ALL=C.UTF-8 ANSIBLE_HOME="$T_TMP/ansible" ANSIBLE_LOCAL_TEMP="$T_TMP/ansible/tmp" \
    ANSIBLE_REMOTE_TEMP="$T_TMP/ansible/rtmp" ANSIBLE_NOCOLOR=1 \
    ANSIBLE_RETRY_FILES_ENABLED=0 ANSIBLE_CONFIG="$T_TMP/ansible.cfg" \
    ANSIBLE_ROLES_PATH="$CPM_TOP/examples/ansible/roles" \
    ANSIBLE_PYTHON_INTERPRETER=/usr/bin/python3 ANSIBLE_DEPRECATION_WARNINGS=0 \
    ANSIBLE_PIPELINING=1
printf 'localhost ansible_connection=local\n' >"$T_TMP/hosts"
printf "[defaults]\n" >"$T_TMP/ansible.cfg"
# Kerf's host as examples/ansible has it, with this test's paths.
vars() {
	cat "$CPM_TOP/examples/ansible/host_vars/kerf.example.yml"
	cat <<EOV
cpm_install: source
cpm_source_dir: "$CPM_TOP"
cpm_destdir: "$T_TMP/root"
cpm_prefix: /usr
cpm_plan_path: "$T_TMP/etc/cpm/plan"
cpm_state: "$T_TMP/alloc.state"
cpm_environment: {CPM_SYSROOT: "$T_TMP/kerf"}
EOV
}
vars >"$T_TMP/vars.yml"
play() {
	run ansible-playbook -i "$T_TMP/hosts" -e "@$T_TMP/vars.yml" \
	    "$CPM_TOP/examples/ansible/site.yml" -e ansible_become=false "$@"
}
# recap: "changed=N failed=N" of the run's PLAY RECAP.
recap() {
	printf '%s\n' "$out" | sed -n 's/^localhost *: .*changed=\([0-9]*\).*failed=\([0-9]*\).*/changed=\1 failed=\2/p'
}
# task NAME: the status line of the run's task NAME ("ok", "changed", ...).
task() {
	printf '%s\n' "$out" | awk -v t="TASK [cpm : $1]" \
	    'index($0, t) == 1 { f = 1; next } f && /^(ok|changed|skipping|fatal|failed)/ { sub(/:.*/, ""); print; exit }'
}
export CPM_SYSROOT="$T_TMP/kerf" CPM_STATE="$T_TMP/alloc.state"
A=$T_TMP/root/usr/bin/cpm-alloc

play
assert "apply mode: the playbook runs" "$rc" 0
[ "$rc" = 0 ] || { printf '%s\n%s\n' "$out" "$err" | sed 's/^/# /'; exit 0; }
assert "... installs cpm from the tree (make install into a root)" \
    "$(task 'install cpm from a source tree on the host')" changed
[ -x "$A" ] && ok "... where cpm-alloc is" || not_ok "... where cpm-alloc is"
assert "... writes the plan Kerf's plan is" \
    "$(grep -v '^#' "$T_TMP/etc/cpm/plan" | tr -s ' ')" \
    "$(grep -v '^#' "$CPM_TOP/tests/plans/kerf.plan" | tr -s ' ')"
assert "... applies it: changed" "$(task 'the allocations made to match the plan')" changed
check "... the allocations are the plan's" 0 \
"web-server 4-11
database 20-27
compute 12-19,28-31" "$A" list --noheadings -o name,cpus --raw

play
assert "apply mode again: nothing changed" "$(recap)" "changed=0 failed=0"
assert "... the apply is ok (cpm-alloc apply exit 0)" \
    "$(task 'the allocations made to match the plan')" ok

cp "$CPM_STATE" "$T_TMP/before"
sed -i 's/cpus: "12-19,28-31"/cpus: "12-19,24-31"/; s/cpus: "20-27"/cpus: "20-23"/' "$T_TMP/vars.yml"
play --check --diff
assert "check mode: the plan and the allocations would change" "$(recap)" "changed=2 failed=0"
assert "... the apply is changed (apply --dry-run exit 4)" \
    "$(task 'the allocations made to match the plan')" changed
diff=$(printf '%s\n' "$out" | sed -n '/^--- before: allocations/,/^$/p' | grep '^[-+][a-z]')
assert "... shows the planned changes as a diff" "$diff" \
"-database 20-27
-compute 12-19,28-31
+database 20-23
+compute 12-19,24-31"
if cmp -s "$CPM_STATE" "$T_TMP/before" && grep -q 'cpus=20-27' "$T_TMP/etc/cpm/plan"; then
	ok "... and changes neither the state nor the plan"
else
	not_ok "... and changes neither the state nor the plan"
fi

sed -i 's/cpus: "20-23"/cpus: "20-47"/' "$T_TMP/vars.yml"
cp "$CPM_STATE" "$T_TMP/before"
play
assert "a plan the machine cannot hold: the play fails" "$rc" 2
if printf '%s\n' "$out" | grep -q 'fatal: .*CPUs 32-47 do not exist'; then
	ok "... with cpm-alloc's message"
else
	not_ok "... with cpm-alloc's message" "$out"
fi
if cmp -s "$CPM_STATE" "$T_TMP/before"; then
	ok "... and the allocations stay as they were"
else
	not_ok "... and the allocations stay as they were"
fi
