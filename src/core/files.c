/*
 * files.c - file-system helpers (files.h).
 */
#include "core/files.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int tsr_remove_tree(const char *path)
{
	struct stat sb;
	if (lstat(path, &sb))
		return errno == ENOENT ? 0 : -1;
	if (!S_ISDIR(sb.st_mode))
		return unlink(path);
	DIR *d = opendir(path);
	if (!d)
		return -1;
	int rc = 0;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		char child[PATH_MAX];
		snprintf(child, sizeof(child), "%s/%s", path, e->d_name);
		rc |= tsr_remove_tree(child);
	}
	closedir(d);
	return rc ? -1 : rmdir(path);
}
