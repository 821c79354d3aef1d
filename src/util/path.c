/* path: file names taken apart without touching the file system. */
#include "path.h"

#include <string.h>

const char *
path_base(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}
