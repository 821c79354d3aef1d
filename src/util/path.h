/* path: file names taken apart without touching the file system. */
#ifndef TGPROF_PATH_H
#define TGPROF_PATH_H

/* The part of PATH after its last '/' (all of PATH if it has none); points into PATH. */
const char *path_base(const char *path);

#endif
