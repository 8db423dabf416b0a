#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""cpm_apply: cpm-alloc apply as an Ansible module.

Runs 'cpm-alloc apply PLAN --json' ('--dry-run' too in check mode):
exit 0 is ok (nothing to change), 4 changed, anything else a failure
with cpm-alloc's message.  With --diff, the allocations before and after
are shown, one "NAME CPUS" line each.
"""
import json

from ansible.module_utils.basic import AnsibleModule

DOCUMENTATION = r"""
module: cpm_apply
short_description: make cpm-alloc's allocations match a plan
options:
  plan:
    description: the plan file (cpm(7), Plans)
    required: true
    type: path
  cpm_alloc:
    description: the cpm-alloc program
    default: cpm-alloc
    type: str
"""


def lines(instances, key):
    out = []
    for i in instances:
        cpus = i.get(key)
        if key == "before" and i["action"] == "taken":
            continue
        if key == "cpus" and i["action"] == "released":
            continue
        out.append("%s %s\n" % (i["name"], cpus if cpus else "-"))
    return "".join(out)


def main():
    module = AnsibleModule(
        argument_spec=dict(plan=dict(type="path", required=True),
                           cpm_alloc=dict(type="str", default="cpm-alloc")),
        supports_check_mode=True)
    argv = [module.params["cpm_alloc"], "apply", module.params["plan"],
            "--json"]
    if module.check_mode:
        argv.append("--dry-run")
    rc, out, err = module.run_command(argv)
    if rc not in (0, 4):
        module.fail_json(msg=err.strip() or "cpm-alloc apply exited %d" % rc,
                         rc=rc, stdout=out, stderr=err)
    try:
        res = json.loads(out)
    except ValueError:
        module.fail_json(msg="cpm-alloc apply printed no JSON", rc=rc,
                         stdout=out, stderr=err)
    result = dict(changed=rc == 4, exit_status=rc, dry_run=res.get("dry_run", False),
                  instances=res.get("instances", []))
    if module._diff:
        result["diff"] = dict(
            before_header="allocations",
            after_header=module.params["plan"],
            before=lines(result["instances"], "before"),
            after=lines(result["instances"], "cpus"))
    module.exit_json(**result)


if __name__ == "__main__":
    main()
