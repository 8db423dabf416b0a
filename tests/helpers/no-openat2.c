// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * no-openat2 [-e ERRNO] COMMAND [ARG...]: run COMMAND with openat2(2)
 * answering ENOSYS (or the errno given by number), as on a kernel before
 * 5.6 or under a container's seccomp profile, so that a test can compare
 * what cpm reads through its own walk with what it reads through the
 * kernel's RESOLVE_IN_ROOT.  A test helper, not a tool.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

int
main(int argc, char **argv)
{
	unsigned int e = ENOSYS;
	int i = 1;

	if (argc > 2 && strcmp(argv[1], "-e") == 0) {
		e = (unsigned int)atoi(argv[2]);
		i = 3;
	}
	if (i >= argc || e == 0 || e > 4095) {
		fprintf(stderr, "usage: no-openat2 [-e ERRNO] COMMAND [ARG...]\n");
		return 2;
	}
	{
		struct sock_filter f[] = {
			BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
				 offsetof(struct seccomp_data, arch)),
			BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64,
				 1, 0),
			BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
			BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
				 offsetof(struct seccomp_data, nr)),
			BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_openat2, 0, 1),
			BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | e),
			BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		};
		struct sock_fprog prog = { sizeof(f) / sizeof(f[0]), f };

		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
		    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) < 0) {
			perror("no-openat2: seccomp");
			return 2;
		}
	}
	execvp(argv[i], argv + i);
	perror(argv[i]);
	return 127;
}
