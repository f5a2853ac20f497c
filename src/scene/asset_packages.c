/*
 * asset_packages.c - which Debian package provides an asset file: a table
 * of the /usr/share folders of the packages the shipped workloads use
 * (tsr_asset_package, pure), and the loader's check that turns a missing
 * package folder into one error naming the package to install.
 */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "scene/scene.h"
#include "scene/scene_priv.h"

/* Debian packages that provide the assets of the shipped workloads. */
static const struct {
	const char *dir;       /* with a trailing '/' */
	const char *package;
} asset_packages[] = {
	{"/usr/share/glmark2/", "glmark2-data"},
	{"/usr/share/assimp/models/", "assimp-testmodels"},
	{"/usr/share/games/etr/", "extremetuxracer-data"},
	{"/usr/share/games/frozen-bubble/", "frozen-bubble-data"},
	{"/usr/share/games/pingus/", "pingus-data"},
	{"/usr/share/games/neverball/", "neverball-data"},
};

const char *tsr_asset_package(const char *path)
{
	for (size_t i = 0; i < sizeof(asset_packages) / sizeof(asset_packages[0]); i++)
		if (strncmp(path, asset_packages[i].dir, strlen(asset_packages[i].dir)) == 0)
			return asset_packages[i].package;
	return NULL;
}

static int path_exists(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0;
}

/*
 * An asset under /usr/share whose package folder does not exist: one error
 * that names the Debian package to install (from asset_packages, else the
 * folder /usr/share/<dir> or /usr/share/games/<dir>). Other paths, and
 * missing files in a folder that exists, are left to the loaders' own
 * "cannot open" messages.
 */
enum tsr_status scene_check_asset_package(const char *full, const char *key_path,
					  const char *file, struct tsr_error *err)
{
	static const char share[] = "/usr/share/";
	if (strncmp(full, share, sizeof(share) - 1) != 0 || path_exists(full))
		return TSR_OK;
	/* the package folder: the table's, else the first one or two levels */
	char dir[256];
	const char *pkg = tsr_asset_package(full);
	const char *rest = full + sizeof(share) - 1;
	if (strncmp(rest, "games/", 6) == 0)
		rest += 6;
	const char *slash = strchr(rest, '/');
	size_t n = slash ? (size_t)(slash - full) : strlen(full);
	for (size_t i = 0; pkg && i < sizeof(asset_packages) / sizeof(asset_packages[0]); i++)
		if (strcmp(asset_packages[i].package, pkg) == 0)
			n = strlen(asset_packages[i].dir) - 1;
	if (n >= sizeof(dir))
		n = sizeof(dir) - 1;
	memcpy(dir, full, n);
	dir[n] = '\0';
	if (path_exists(dir))
		return TSR_OK;
	if (pkg)
		return tsr_error_set(err, TSR_ERR_IO,
				     "cannot open asset '%s' (key '%s' in '%s'): install the Debian package '%s' (scripts/setup.sh)",
				     full, key_path, file, pkg);
	return tsr_error_set(err, TSR_ERR_IO,
			     "cannot open asset '%s' (key '%s' in '%s'): folder '%s' is missing, install the Debian package that provides it (scripts/setup.sh)",
			     full, key_path, file, dir);
}
