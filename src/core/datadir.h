/*
 * datadir.h - where tessera's shipped data lives: the configurations
 * (configs/) and workloads (workloads/) that experiments and short names
 * refer to. Searched in order: the folder in the environment variable
 * TSR_DATA_DIR; the installed data folder (<prefix>/share/tessera, from
 * `cmake --install`); the source tree tessera was built from. A folder's
 * shipped files can also be listed (every shipped workload, for the
 * experiments that run them all).
 */
#ifndef TSR_CORE_DATADIR_H
#define TSR_CORE_DATADIR_H

#include <stddef.h>

#include "core/status.h"

/*
 * Writes the path of shipped file `rel` ("configs/tcor-table1.json") into
 * buf (n bytes): the first of the places above that holds it. Errors:
 * TSR_ERR_IO naming the file and the places searched.
 */
enum tsr_status tsr_data_path(const char *rel, char *buf, size_t n, struct tsr_error *err);

/*
 * Resolves a name the user gave for a file of folder `kind` ("configs",
 * "workloads"): the name itself when it is a file, else (a relative name)
 * the shipped file of that relative path ("workloads/ui-2d.json"), else the
 * shipped <kind>/<name> or <kind>/<name>.json ("ui-2d"). Errors:
 * TSR_ERR_IO naming it.
 */
enum tsr_status tsr_data_resolve(const char *kind, const char *name, char *buf, size_t n,
				 struct tsr_error *err);

/*
 * Lists the shipped files of folder `kind` ("workloads") whose names end
 * in `suffix` (".json"), from the first of the places above that has that
 * folder, as relative paths ("workloads/camera-pan.json") sorted by name
 * (strcmp), so that tsr_data_path() finds each. *out receives a
 * NULL-terminated array of *count paths, to free with tsr_data_list_free()
 * (NULL on error). Errors: TSR_ERR_IO when no place has
 * the folder or it holds no such file, TSR_ERR_NOMEM.
 */
enum tsr_status tsr_data_list(const char *kind, const char *suffix, char ***out,
			      size_t *count, struct tsr_error *err);

/* Frees a list of tsr_data_list() (NULL is fine). */
void tsr_data_list_free(char **list);

#endif
