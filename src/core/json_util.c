#include "core/json_util.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

enum tsr_status tsr_json_load_file(const char *file, json_t **out,
				   struct tsr_error *err)
{
	json_error_t je;
	*out = NULL;
	struct stat sb;
	if (stat(file, &sb) == 0 && S_ISDIR(sb.st_mode))
		return tsr_error_set(err, TSR_ERR_IO, "cannot read '%s': it is a folder, not a JSON file",
				     file);
	FILE *f = fopen(file, "rb");
	if (!f)
		return tsr_error_set(err, TSR_ERR_IO, "cannot open '%s'", file);
	json_t *root = json_loadf(f, JSON_REJECT_DUPLICATES, &je);
	fclose(f);
	if (!root)
		return tsr_error_set(err, TSR_ERR_PARSE,
				     "malformed JSON in '%s' at line %d, column %d: %s",
				     file, je.line, je.column, je.text);
	if (!json_is_object(root)) {
		json_decref(root);
		return tsr_error_set(err, TSR_ERR_PARSE,
				     "'%s' must hold a JSON object at its top level",
				     file);
	}
	*out = root;
	return TSR_OK;
}

size_t tsr_utf8_seq_len(const unsigned char *s)
{
	unsigned c = s[0];
	if (c < 0x80)
		return 1;
	size_t n;
	unsigned lo = 0x80, hi = 0xbf;  /* the second byte's range (RFC 3629 table) */
	if (c >= 0xc2 && c <= 0xdf)
		n = 2;
	else if (c >= 0xe0 && c <= 0xef) {
		n = 3;
		if (c == 0xe0)
			lo = 0xa0;
		else if (c == 0xed)
			hi = 0x9f;  /* no surrogates */
	} else if (c >= 0xf0 && c <= 0xf4) {
		n = 4;
		if (c == 0xf0)
			lo = 0x90;
		else if (c == 0xf4)
			hi = 0x8f;  /* at most U+10FFFF */
	} else
		return 0;
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < n; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return n;
}

json_t *tsr_json_string(const char *s)
{
	if (!s)
		return json_string("");
	const unsigned char *u = (const unsigned char *)s;
	size_t len = strlen(s), bad = 0;
	for (size_t i = 0; i < len;) {
		size_t n = tsr_utf8_seq_len(u + i);
		bad += !n;
		i += n ? n : 1;
	}
	if (!bad)
		return json_stringn(s, len);
	char *buf = malloc(len + 2 * bad + 1);  /* U+FFFD is 3 bytes for 1 */
	if (!buf)
		return NULL;
	size_t o = 0;
	for (size_t i = 0; i < len;) {
		size_t n = tsr_utf8_seq_len(u + i);
		if (n) {
			memcpy(buf + o, s + i, n);
			o += n;
			i += n;
		} else {
			memcpy(buf + o, "\xef\xbf\xbd", 3);
			o += 3;
			i++;
		}
	}
	json_t *j = json_stringn(buf, o);
	free(buf);
	return j;
}

void tsr_json_path(char *buf, size_t n, const char *parent, const char *key)
{
	if (!parent || !parent[0])
		snprintf(buf, n, "%s", key);
	else
		snprintf(buf, n, "%s.%s", parent, key);
}

void tsr_names_join(char *buf, size_t n, const char *const *names)
{
	size_t used = 0;
	buf[0] = '\0';
	for (int i = 0; names[i]; i++) {
		int w = snprintf(buf + used, n - used, "%s%s", i ? ", " : "", names[i]);
		if (w < 0 || (size_t)w >= n - used)
			break;
		used += (size_t)w;
	}
}

enum tsr_status tsr_json_check_keys(const json_t *obj, const char *file,
				    const char *path,
				    const char *const *allowed,
				    struct tsr_error *err)
{
	const char *key;
	json_t *v;
	if (!json_is_object(obj))
		return tsr_error_set(err, TSR_ERR_CONFIG,
				     "'%s' in '%s' must be an object",
				     path && path[0] ? path : "(top level)", file);
	json_object_foreach((json_t *)obj, key, v) {
		int ok = 0;
		for (const char *const *a = allowed; *a; a++)
			if (strcmp(*a, key) == 0) {
				ok = 1;
				break;
			}
		if (!ok) {
			char full[256], list[256];
			tsr_json_path(full, sizeof(full), path, key);
			tsr_names_join(list, sizeof(list), allowed);
			return tsr_error_set(err, TSR_ERR_CONFIG,
					     "unknown key '%s' in '%s' (valid keys: %s)",
					     full, file, list);
		}
	}
	return TSR_OK;
}

static enum tsr_status type_error(const char *file, const char *path,
				  const char *key, const char *want,
				  struct tsr_error *err)
{
	char full[256];
	tsr_json_path(full, sizeof(full), path, key);
	return tsr_error_set(err, TSR_ERR_CONFIG, "key '%s' in '%s' must be %s",
			     full, file, want);
}

enum tsr_status tsr_json_get_u32(const json_t *obj, const char *file,
				 const char *path, const char *key,
				 uint32_t min, uint32_t max, uint32_t *out,
				 struct tsr_error *err)
{
	json_t *v = json_object_get(obj, key);
	if (!v)
		return TSR_OK;
	if (!json_is_integer(v) || json_integer_value(v) < (json_int_t)min ||
	    json_integer_value(v) > (json_int_t)max) {
		char want[96];
		snprintf(want, sizeof(want), "an integer from %u to %u", min, max);
		return type_error(file, path, key, want, err);
	}
	*out = (uint32_t)json_integer_value(v);
	return TSR_OK;
}

enum tsr_status tsr_json_get_float(const json_t *obj, const char *file,
				   const char *path, const char *key,
				   float min, float max, float *out,
				   struct tsr_error *err)
{
	json_t *v = json_object_get(obj, key);
	if (!v)
		return TSR_OK;
	double d = json_number_value(v);
	if (!json_is_number(v) || !isfinite(d) || d < min || d > max) {
		char want[96];
		snprintf(want, sizeof(want), "a number from %g to %g", min, max);
		return type_error(file, path, key, want, err);
	}
	*out = (float)d;
	return TSR_OK;
}

enum tsr_status tsr_json_get_bool(const json_t *obj, const char *file,
				  const char *path, const char *key, int *out,
				  struct tsr_error *err)
{
	json_t *v = json_object_get(obj, key);
	if (!v)
		return TSR_OK;
	if (!json_is_boolean(v))
		return type_error(file, path, key, "true or false", err);
	*out = json_is_true(v);
	return TSR_OK;
}

enum tsr_status tsr_json_get_string(const json_t *obj, const char *file,
				    const char *path, const char *key,
				    const char **out, struct tsr_error *err)
{
	json_t *v = json_object_get(obj, key);
	if (!v)
		return TSR_OK;
	if (!json_is_string(v))
		return type_error(file, path, key, "a string", err);
	*out = json_string_value(v);
	return TSR_OK;
}

enum tsr_status tsr_json_get_floats(const json_t *obj, const char *file,
				    const char *path, const char *key,
				    unsigned n, float *out,
				    struct tsr_error *err)
{
	json_t *v = json_object_get(obj, key);
	if (!v)
		return TSR_OK;
	char want[64];
	snprintf(want, sizeof(want), "an array of %u numbers", n);
	if (!json_is_array(v) || json_array_size(v) != n)
		return type_error(file, path, key, want, err);
	for (unsigned i = 0; i < n; i++) {
		json_t *e = json_array_get(v, i);
		if (!json_is_number(e) || !isfinite(json_number_value(e)))
			return type_error(file, path, key, want, err);
		if (!isfinite((float)json_number_value(e))) {
			/* 1e39 is finite as a double but infinite as a float */
			snprintf(want, sizeof(want), "an array of %u numbers within +-%g",
				 n, (double)FLT_MAX);
			return type_error(file, path, key, want, err);
		}
		out[i] = (float)json_number_value(e);
	}
	return TSR_OK;
}

enum tsr_status tsr_json_get_vec3(const json_t *obj, const char *file,
				  const char *path, const char *key,
				  struct tsr_vec3 *out, struct tsr_error *err)
{
	float f[3] = {out->x, out->y, out->z};
	enum tsr_status s = tsr_json_get_floats(obj, file, path, key, 3, f, err);
	if (s == TSR_OK)
		*out = tsr_v3(f[0], f[1], f[2]);
	return s;
}

enum tsr_status tsr_json_get_enum(const json_t *obj, const char *file,
				  const char *path, const char *key,
				  const char *const *names, int *out,
				  struct tsr_error *err)
{
	const char *s = NULL;
	enum tsr_status st = tsr_json_get_string(obj, file, path, key, &s, err);
	if (st != TSR_OK || !s)
		return st;
	for (int i = 0; names[i]; i++)
		if (strcmp(names[i], s) == 0) {
			*out = i;
			return TSR_OK;
		}
	char full[256], list[256];
	tsr_json_path(full, sizeof(full), path, key);
	tsr_names_join(list, sizeof(list), names);
	return tsr_error_set(err, TSR_ERR_CONFIG,
			     "key '%s' in '%s' has unknown value '%s' (valid: %s)",
			     full, file, s, list);
}
