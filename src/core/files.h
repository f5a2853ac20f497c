/*
 * files.h - file-system helpers the library and the command line share.
 */
#ifndef TSR_CORE_FILES_H
#define TSR_CORE_FILES_H

/*
 * Removes path and, if it is a folder, everything in it, depth first;
 * symbolic links are removed, never followed. A path that does not exist
 * is no error. Returns 0, or -1 with errno set (what could be removed is
 * removed).
 */
int tsr_remove_tree(const char *path);

#endif
