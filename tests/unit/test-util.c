// SPDX-License-Identifier: GPL-2.0-or-later
/* Strict numbers, durations, sizes, atomic writes. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "unit.h"
#include "util.h"

int
main(void)
{
	uint64_t v;
	int64_t i;
	char dir[] = "/tmp/cpm-unit.XXXXXX", path[128], *buf;
	size_t len;

	CHECK("u64 plain", parse_u64("42", 100, &v) == 0 && v == 42);
	CHECK("u64 zero", parse_u64("0", 100, &v) == 0 && v == 0);
	CHECK("u64 above max", parse_u64("101", 100, &v) == -ERANGE);
	CHECK("u64 overflow", parse_u64("18446744073709551616", UINT64_MAX, &v) == -ERANGE);
	CHECK("u64 max", parse_u64("18446744073709551615", UINT64_MAX, &v) == 0 &&
	      v == UINT64_MAX);
	CHECK("u64 leading zero", parse_u64("010", 100, &v) == -EINVAL);
	CHECK("u64 sign", parse_u64("+1", 100, &v) == -EINVAL);
	CHECK("u64 space", parse_u64(" 1", 100, &v) == -EINVAL);
	CHECK("u64 trailing junk", parse_u64("1x", 100, &v) == -EINVAL);
	CHECK("u64 empty", parse_u64("", 100, &v) == -EINVAL);
	CHECK("i64 negative", parse_i64("-1", -1, 10, &i) == 0 && i == -1);
	CHECK("i64 below min", parse_i64("-2", -1, 10, &i) == -ERANGE);
	CHECK("i64 minus zero", parse_i64("-0", -1, 10, &i) == -EINVAL);
	CHECK("i64 min", parse_i64("-9223372036854775808", INT64_MIN, 0, &i) == 0 &&
	      i == INT64_MIN);
	CHECK("duration ms", parse_duration_us("100ms", &v) == 0 && v == 100000);
	CHECK("duration s fraction", parse_duration_us("1.5s", &v) == 0 && v == 1500000);
	CHECK("duration us", parse_duration_us("250us", &v) == 0 && v == 250);
	CHECK("duration needs unit", parse_duration_us("100", &v) == -EINVAL);
	CHECK("duration finer than us", parse_duration_us("1.5us", &v) == -EINVAL);
	CHECK("duration junk", parse_duration_us("1.s", &v) == -EINVAL);
	CHECK("duration unknown unit", parse_duration_us("5m", &v) == -EINVAL);
	CHECK("size Gi", parse_size_bytes("2Gi", &v) == 0 && v == 2ULL << 30);
	CHECK("size M", parse_size_bytes("512M", &v) == 0 && v == 512ULL << 20);
	CHECK("size bytes", parse_size_bytes("4096", &v) == 0 && v == 4096);
	CHECK("size junk", parse_size_bytes("12X", &v) == -EINVAL);
	CHECK("size overflow", parse_size_bytes("99999999999999T", &v) == -ERANGE);

	{
		struct strbuf sb;
		char copy[64], err[16];

		strbuf_init(&sb);
		str_escape(&sb, "a b%c\td\xc3\xa9");
		CHECK_STR("escape spaces, percent, control and non-ASCII bytes",
			  sb.buf, "a%20b%25c%09d%C3%A9");
		snprintf(copy, sizeof(copy), "%s", sb.buf);
		CHECK("unescape round trip", str_unescape(copy) == 0 &&
		      strcmp(copy, "a b%c\td\xc3\xa9") == 0);
		strbuf_free(&sb);
		snprintf(copy, sizeof(copy), "x%%2");
		CHECK("unescape refuses a short escape", str_unescape(copy) == -EINVAL);
		snprintf(copy, sizeof(copy), "x%%00y");
		CHECK("unescape refuses an encoded NUL", str_unescape(copy) == -EINVAL);
		snprintf(copy, sizeof(copy), "%%7e%%7E");
		CHECK("unescape takes either case", str_unescape(copy) == 0 &&
		      strcmp(copy, "~~") == 0);
		err_set(err, sizeof(err), "%s %d", "truncated message", 42);
		CHECK_STR("err_set truncates to the buffer", err, "truncated messa");
		err_set(NULL, 0, "nothing %d", 1);	/* must not crash */
	}

	CHECK("mkdtemp", mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/state", dir);
	CHECK("atomic write", write_file_atomic(path, "one\n", 4, 0600) == 0);
	CHECK("atomic replace", write_file_atomic(path, "two\n", 4, 0600) == 0);
	CHECK("read back", read_file_at(AT_FDCWD, path, &buf, &len, true) == 0 &&
	      len == 4 && strcmp(buf, "two\n") == 0);
	free(buf);
	snprintf(path, sizeof(path), "%s/.state.tmp.%ld", dir, (long)getpid());
	CHECK("no temporary file left", access(path, F_OK) != 0);
	snprintf(path, sizeof(path), "%s/missing/state", dir);
	CHECK("atomic write into a missing dir fails", write_file_atomic(path, "x", 1, 0600) == -ENOENT);
	snprintf(path, sizeof(path), "%s/state", dir);
	unlink(path);
	rmdir(dir);
	return unit_failed;
}
