/* sysmem: how much memory the system will give this process before its out-of-memory killer acts. */
#include "sysmem.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The first number in FILE after the text KEY (KEY "" : at its start), times SCALE; 0 if none. */
static uint64_t
number_in(const char *file, const char *key, uint64_t scale)
{
	char line[4096];
	uint64_t v = 0;
	FILE *f = fopen(file, "r");

	if (f == NULL)
		return 0;
	while (fgets(line, sizeof line, f) != NULL)
		if (strncmp(line, key, strlen(key)) == 0) {
			v = strtoull(line + strlen(key), NULL, 10) * scale;
			break;
		}
	fclose(f);
	return v;
}

/*
 * The path of this process's cgroup for CONTROLLER ("": the v2 hierarchy)
 * from /proc/self/cgroup, whose lines are "ID:CONTROLLERS:PATH".
 */
static int
cgroup_path(const char *controller, char *path, size_t size)
{
	char line[4096], *ctl, *at;
	FILE *f = fopen("/proc/self/cgroup", "r");
	int found = 0;

	if (f == NULL)
		return 0;
	while (!found && fgets(line, sizeof line, f) != NULL) {
		line[strcspn(line, "\n")] = '\0';
		if ((ctl = strchr(line, ':')) == NULL || (at = strchr(++ctl, ':')) == NULL)
			continue;
		*at++ = '\0';
		if (*controller == '\0' ? *ctl == '\0' : strstr(ctl, controller) != NULL)
			found = snprintf(path, size, "%s", at) < (int)size;
	}
	fclose(f);
	return found;
}

/* LIMIT less USAGE, files of the cgroup directory DIR; UINT64_MAX if it has no limit. */
static uint64_t
cgroup_room(const char *dir, const char *limit, const char *usage)
{
	char file[4200];
	uint64_t max, used;

	snprintf(file, sizeof file, "%s/%s", dir, limit);
	if ((max = number_in(file, "", 1)) == 0)
		return UINT64_MAX;	/* "max", or no such file */
	snprintf(file, sizeof file, "%s/%s", dir, usage);
	used = number_in(file, "", 1);
	return used < max ? max - used : 0;
}

/* The room under the cgroup limits (v2, then v1's memory controller), UINT64_MAX if none. */
static uint64_t
cgroup_available(void)
{
	char path[2048], dir[2100];
	uint64_t room = UINT64_MAX, r;

	if (cgroup_path("", path, sizeof path)) {
		snprintf(dir, sizeof dir, "/sys/fs/cgroup%s", path);
		room = cgroup_room(dir, "memory.max", "memory.current");
	}
	if (cgroup_path("memory", path, sizeof path)) {
		snprintf(dir, sizeof dir, "/sys/fs/cgroup/memory%s", path);
		r = cgroup_room(dir, "memory.limit_in_bytes", "memory.usage_in_bytes");
		if (r == UINT64_MAX)	/* in a container, its cgroup is the root */
			r = cgroup_room("/sys/fs/cgroup/memory", "memory.limit_in_bytes",
			    "memory.usage_in_bytes");
		room = r < room ? r : room;
	}
	return room;
}

size_t
sysmem_available(void)
{
	uint64_t avail = number_in("/proc/meminfo", "MemAvailable:", 1024), room = cgroup_available();

	if (avail == 0 || room < avail)
		avail = room;
	if (avail == UINT64_MAX)
		return 0;
	return avail > SIZE_MAX ? SIZE_MAX : (size_t)avail;
}

int
sysmem_parse_size(const char *s, size_t *bytes)
{
	char *end;
	unsigned long long v;
	int shift = 0;

	errno = 0;
	if (*s < '0' || *s > '9' || (v = strtoull(s, &end, 10), errno != 0))
		return -1;
	if (*end != '\0' && end[1] == '\0' && strchr("KMG", *end) != NULL)
		shift = *end == 'K' ? 10 : *end == 'M' ? 20 : 30, end++;
	if (*end != '\0' || v > (SIZE_MAX >> shift))
		return -1;
	*bytes = (size_t)v << shift;
	return 0;
}
