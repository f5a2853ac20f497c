/*
 * json_util.h - strict, typed reading of JSON objects (jansson) for the
 * configuration and workload loaders.
 *
 * Habit: defaults first, user values second. Each getter leaves *out
 * untouched when the key is absent, so callers fill a struct with defaults
 * and then read the file over it. Every error message names the key by its
 * dotted path ("caches.l2.ways") and says what is wrong; an unknown key is
 * an error that lists the valid keys.
 */
#ifndef TSR_CORE_JSON_UTIL_H
#define TSR_CORE_JSON_UTIL_H

#include <jansson.h>
#include <stdint.h>

#include "core/status.h"
#include "core/vecmath.h"

/*
 * Parses a JSON file whose top level must be an object. Errors: TSR_ERR_IO
 * (cannot open), TSR_ERR_PARSE (syntax error, with line and column).
 */
enum tsr_status tsr_json_load_file(const char *file, json_t **out,
				   struct tsr_error *err);

/*
 * A JSON string for any C string: bytes that are not valid UTF-8 (stray
 * continuation bytes, truncated or overlong sequences, surrogates, code
 * points past U+10FFFF) are each replaced by U+FFFD, so every string
 * tessera writes into JSON (paths, trace descriptions, names) is valid;
 * jansson's json_string() would return NULL for them. NULL s gives "".
 * Returns NULL only when out of memory.
 */
json_t *tsr_json_string(const char *s);

/* Length of the valid UTF-8 sequence at s (1 to 4), or 0 if s[0] starts none. */
size_t tsr_utf8_seq_len(const unsigned char *s);

/* Joins a parent path and a key ("caches" + "l2" -> "caches.l2"). */
/* "a, b, c" from a NULL-terminated list of names, truncated to fit n bytes. */
void tsr_names_join(char *buf, size_t n, const char *const *names);

void tsr_json_path(char *buf, size_t n, const char *parent, const char *key);

/*
 * Fails with TSR_ERR_CONFIG when obj (at path; "" for the top) is not an
 * object or has a key outside the NULL-terminated list `allowed`.
 */
enum tsr_status tsr_json_check_keys(const json_t *obj, const char *file,
				    const char *path,
				    const char *const *allowed,
				    struct tsr_error *err);

/* Typed getters: TSR_ERR_CONFIG on a wrong type or a value out of [min, max]. */
enum tsr_status tsr_json_get_u32(const json_t *obj, const char *file,
				 const char *path, const char *key,
				 uint32_t min, uint32_t max, uint32_t *out,
				 struct tsr_error *err);
enum tsr_status tsr_json_get_float(const json_t *obj, const char *file,
				   const char *path, const char *key,
				   float min, float max, float *out,
				   struct tsr_error *err);
enum tsr_status tsr_json_get_bool(const json_t *obj, const char *file,
				  const char *path, const char *key, int *out,
				  struct tsr_error *err);
/* *out points into obj; valid while obj lives. */
enum tsr_status tsr_json_get_string(const json_t *obj, const char *file,
				    const char *path, const char *key,
				    const char **out, struct tsr_error *err);
/* An array of n numbers (n <= 4). */
enum tsr_status tsr_json_get_floats(const json_t *obj, const char *file,
				    const char *path, const char *key,
				    unsigned n, float *out,
				    struct tsr_error *err);
enum tsr_status tsr_json_get_vec3(const json_t *obj, const char *file,
				  const char *path, const char *key,
				  struct tsr_vec3 *out, struct tsr_error *err);
/*
 * A string that must be one of the NULL-terminated `names`; *out is its
 * index. The error lists the valid names.
 */
enum tsr_status tsr_json_get_enum(const json_t *obj, const char *file,
				  const char *path, const char *key,
				  const char *const *names, int *out,
				  struct tsr_error *err);

#endif
