/*
 * config_json.h - the configuration as JSON (jansson), internal: for the
 * writer of stats.json (report/report.c) and config's own tests. Kept out
 * of config/config.h so that no public header exposes jansson.
 */
#ifndef TSR_CONFIG_CONFIG_JSON_H
#define TSR_CONFIG_CONFIG_JSON_H

#include <jansson.h>

#include "config/config.h"

/*
 * The effective configuration as a JSON object in the file format (every
 * key, the cache instances and the routes); a new reference, NULL when out
 * of memory.
 */
json_t *tsr_config_to_json(const struct tsr_gpu_config *cfg);

#endif
