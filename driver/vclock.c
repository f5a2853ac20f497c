/*
 * vclock.c - libtsr_vclock.so, a virtual clock for recording captures
 * that are the same every time (docs/captures.md, "Recordings that repeat").
 * `tessera capture --vclock` puts it in the recorded program's LD_PRELOAD.
 *
 * A program that animates by the wall clock draws different frames in
 * every recording, as the machine's speed decides how much time passes
 * between two frames. With this library the program's main thread sees a
 * clock of its own:
 *   - each eglSwapBuffers() (a frame presented) moves it on to the next
 *     multiple of 1/TSR_VCLOCK_FPS seconds (default 60);
 *   - a sleep (nanosleep, clock_nanosleep, usleep, sleep) moves it on by
 *     the time asked and returns at once, but before the first frame (the
 *     first 10000 sleeps): a program that waits for its window, polling
 *     with 1 ms sleeps, sleeps a number of times that varies with the X
 *     server (SuperTux: 62 to 135), and its first frame's time with them;
 *   - readings do not move it, but past 100000 readings in a row (no sleep
 *     or swap between them) each moves it on by 1 microsecond, so that a
 *     loop that waits for the clock without sleeping ends. (A program reads
 *     the clock a number of times that may vary with the X server's
 *     answers, as a loop polls for an event: were every reading to move
 *     the clock, the time of its first frame would vary by microseconds.)
 * CLOCK_MONOTONIC, _RAW, _COARSE and CLOCK_BOOTTIME read it from 1000 s
 * on; CLOCK_REALTIME, gettimeofday() and time() from 2026-01-01 00:00:00
 * UTC (so a game that seeds its random numbers with the time gets the same
 * seed every time). Other threads (Mesa's, SDL's) see the real clocks:
 * their waits on timeouts keep working, and their reads of the clock never
 * move the main thread's.
 *
 * Lockstep with an input script: with TSR_VCLOCK_STOPS=N1,N2,... (ascending)
 * and TSR_VCLOCK_FD=R,W (a pipe's ends the program inherits), the main
 * thread, after presenting frame Nk (its Nk-th swap), writes Nk (8 bytes,
 * host order) to W and waits for a byte on R: the input driver
 * (cli/cmd_corpus.c) sends its key presses and pointer moves meanwhile,
 * so that the program reads them in the same frame every time. End of file
 * on R lets it run on freely. With TSR_VCLOCK_LAST=N the main thread
 * stops the program after presenting frame N, with the SIGINT that
 * `tessera capture --seconds` sends (apitrace writes the trace out).
 *
 * SDL2 and glmark2 find eglSwapBuffers with dlsym() on the libEGL they
 * dlopen (and apitrace's tracer hands them its own): dlsym is wrapped, and
 * returns this library's eglSwapBuffers, which calls the one dlsym found.
 * A program linked to libEGL directly calls this library's eglSwapBuffers,
 * which calls the next one (RTLD_NEXT). Errors: none reported; a missing
 * next function makes the wrapped call fail as the real one would (-1,
 * EGL_FALSE).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

/* dlsym() below passes RTLD_NEXT on as a tail call, which only an
 * optimizing build makes: without it glibc would take this library for the
 * caller, and a tracer asking for its next dlopen would get its own. */
#ifndef __OPTIMIZE__
#error "vclock.c must be built with optimization (driver/CMakeLists.txt: -O2)"
#endif

typedef unsigned int vc_egl_bool;  /* EGLBoolean */
typedef vc_egl_bool (*swap_fn)(void *dpy, void *surface);

#define NS 1000000000ull
#define MONO_BASE (1000ull * NS)            /* the monotonic clocks' start */
#define REAL_BASE (1767225600ull * NS)      /* 2026-01-01 00:00:00 UTC */
#define READ_STEP 1000ull                   /* ns a reading moves the clock on... */
#define READS_FREE 100000u                  /* ...past this many in a row */
#define SLEEPS_FREE 10000u                  /* sleeps before the first frame that
					       leave the clock as it is */
#define MAX_STOPS 4096
#define MAX_SWAP_FNS 8

static pthread_once_t once = PTHREAD_ONCE_INIT;
static uint64_t v_ns;                        /* virtual time since MONO_BASE */
static uint32_t reads;                       /* readings since the last sleep or swap */
static uint32_t early_sleeps;                /* sleeps before the first frame */
static uint64_t frame_ns;
static uint64_t swaps;
static uint64_t stops[MAX_STOPS];
static size_t nstops, next_stop;
static int fd_r = -1, fd_w = -1;
static uint64_t last_frame;                  /* TSR_VCLOCK_LAST; 0: none */

static int (*real_clock_gettime)(clockid_t, struct timespec *);
static void *(*real_dlsym)(void *, const char *);
static swap_fn next_swap;                    /* RTLD_NEXT's eglSwapBuffers */
/* eglSwapBuffers that dlsym() found, each with a wrapper of its own */
static swap_fn found_swap[MAX_SWAP_FNS];
static size_t nfound;

static void init(void)
{
	real_clock_gettime = (int (*)(clockid_t, struct timespec *))dlsym(RTLD_NEXT,
									    "clock_gettime");
	const char *fps = getenv("TSR_VCLOCK_FPS");
	const double f = fps ? strtod(fps, NULL) : 60.0;
	frame_ns = (uint64_t)((double)NS / (f >= 1.0 && f <= 1000.0 ? f : 60.0));
	const char *s = getenv("TSR_VCLOCK_STOPS");
	while (s && *s && nstops < MAX_STOPS) {
		char *end;
		const unsigned long long n = strtoull(s, &end, 10);
		if (end == s)
			break;
		stops[nstops++] = n;
		s = *end == ',' ? end + 1 : end;
	}
	const char *last = getenv("TSR_VCLOCK_LAST");
	if (last)
		last_frame = strtoull(last, NULL, 10);
	const char *fds = getenv("TSR_VCLOCK_FD");
	if (fds) {
		char *end;
		fd_r = (int)strtol(fds, &end, 10);
		fd_w = *end == ',' ? (int)strtol(end + 1, NULL, 10) : -1;
	}
}

static int main_thread(void)
{
	pthread_once(&once, init);
	return syscall(SYS_gettid) == getpid();
}

/* The main thread's clock at a reading. */
static uint64_t read_virtual(void)
{
	if (reads >= READS_FREE)
		v_ns += READ_STEP;
	else
		reads++;
	return v_ns;
}

static struct timespec ts_of(uint64_t ns)
{
	return (struct timespec){(time_t)(ns / NS), (long)(ns % NS)};
}

int clock_gettime(clockid_t id, struct timespec *tp)
{
	if (main_thread()) {
		switch (id) {
		case CLOCK_MONOTONIC:
		case CLOCK_MONOTONIC_RAW:
		case CLOCK_MONOTONIC_COARSE:
		case CLOCK_BOOTTIME:
			*tp = ts_of(MONO_BASE + read_virtual());
			return 0;
		case CLOCK_REALTIME:
		case CLOCK_REALTIME_COARSE:
			*tp = ts_of(REAL_BASE + read_virtual());
			return 0;
		default:
			break;
		}
	}
	if (!real_clock_gettime) {
		errno = ENOSYS;
		return -1;
	}
	return real_clock_gettime(id, tp);
}

int gettimeofday(struct timeval *restrict tv, void *restrict tz)
{
	(void)tz;
	struct timespec t;
	clock_gettime(CLOCK_REALTIME, &t);
	*tv = (struct timeval){t.tv_sec, t.tv_nsec / 1000};
	return 0;
}

time_t time(time_t *out)
{
	struct timespec t;
	clock_gettime(CLOCK_REALTIME, &t);
	if (out)
		*out = t.tv_sec;
	return t.tv_sec;
}

/* A sleep of the main thread: the clock moves on, the thread only yields. */
static int sleep_virtual(uint64_t ns)
{
	if (swaps || ++early_sleeps > SLEEPS_FREE)
		v_ns += ns;
	reads = 0;
	sched_yield();
	return 0;
}

static uint64_t ns_of(const struct timespec *t)
{
	return (uint64_t)t->tv_sec * NS + (uint64_t)t->tv_nsec;
}

int nanosleep(const struct timespec *req, struct timespec *rem)
{
	if (main_thread() && req) {
		if (rem)
			*rem = (struct timespec){0, 0};
		return sleep_virtual(ns_of(req));
	}
	static int (*real)(const struct timespec *, struct timespec *);
	if (!real)
		real = (int (*)(const struct timespec *, struct timespec *))dlsym(RTLD_NEXT,
										  "nanosleep");
	return real ? real(req, rem) : -1;
}

int clock_nanosleep(clockid_t id, int flags, const struct timespec *req, struct timespec *rem)
{
	if (main_thread() && req && id != CLOCK_PROCESS_CPUTIME_ID &&
	    id != CLOCK_THREAD_CPUTIME_ID) {
		if (rem)
			*rem = (struct timespec){0, 0};
		uint64_t ns = ns_of(req);
		if (flags & TIMER_ABSTIME) {  /* until that time of the virtual clock */
			const uint64_t base = id == CLOCK_REALTIME ? REAL_BASE : MONO_BASE;
			const uint64_t now = base + v_ns;
			ns = ns > now ? ns - now : 0;
		}
		return sleep_virtual(ns);
	}
	static int (*real)(clockid_t, int, const struct timespec *, struct timespec *);
	if (!real)
		real = (int (*)(clockid_t, int, const struct timespec *,
				struct timespec *))dlsym(RTLD_NEXT, "clock_nanosleep");
	return real ? real(id, flags, req, rem) : ENOSYS;
}

int usleep(useconds_t us)
{
	struct timespec t = {(time_t)(us / 1000000), (long)(us % 1000000) * 1000};
	return nanosleep(&t, NULL);
}

unsigned int sleep(unsigned int s)
{
	struct timespec t = {(time_t)s, 0};
	nanosleep(&t, NULL);
	return 0;
}

/* After a swap of the main thread: the next frame's time, and the lockstep. */
static void frame_presented(void)
{
	if (!main_thread())
		return;
	v_ns = (v_ns / frame_ns + 1) * frame_ns;
	reads = 0;
	swaps++;
	while (next_stop < nstops && stops[next_stop] < swaps)
		next_stop++;
	if (next_stop < nstops && stops[next_stop] == swaps && fd_r >= 0 && fd_w >= 0) {
		next_stop++;
		const uint64_t n = swaps;
		ssize_t w;
		do
			w = write(fd_w, &n, sizeof(n));
		while (w < 0 && errno == EINTR);
		char b;
		ssize_t r;
		do
			r = read(fd_r, &b, 1);
		while (r < 0 && errno == EINTR);
		if (r <= 0) {  /* the driver is gone: run on freely */
			fd_r = fd_w = -1;
		}
	}
	if (last_frame && swaps == last_frame)
		kill(getpid(), SIGINT);
}

vc_egl_bool eglSwapBuffers(void *dpy, void *surface);
vc_egl_bool eglSwapBuffers(void *dpy, void *surface)
{
	pthread_once(&once, init);
	if (!next_swap)
		next_swap = (swap_fn)dlsym(RTLD_NEXT, "eglSwapBuffers");
	const vc_egl_bool ok = next_swap ? next_swap(dpy, surface) : 0;
	frame_presented();
	return ok;
}

/* One wrapper per eglSwapBuffers dlsym() found (a program may open more
 * than one libEGL): wrapper i calls found_swap[i]. */
#define SWAP_WRAPPER(i)                                                        \
	static vc_egl_bool swap_wrapper_##i(void *dpy, void *surface)          \
	{                                                                      \
		const vc_egl_bool ok = found_swap[i](dpy, surface);            \
		frame_presented();                                             \
		return ok;                                                     \
	}
SWAP_WRAPPER(0)
SWAP_WRAPPER(1)
SWAP_WRAPPER(2)
SWAP_WRAPPER(3)
SWAP_WRAPPER(4)
SWAP_WRAPPER(5)
SWAP_WRAPPER(6)
SWAP_WRAPPER(7)
static const swap_fn wrappers[MAX_SWAP_FNS] = {
	swap_wrapper_0, swap_wrapper_1, swap_wrapper_2, swap_wrapper_3,
	swap_wrapper_4, swap_wrapper_5, swap_wrapper_6, swap_wrapper_7,
};

static pthread_mutex_t dlsym_lock = PTHREAD_MUTEX_INITIALIZER;

void *dlsym(void *restrict handle, const char *restrict name)
{
	if (!real_dlsym) {
		/* glibc 2.34 moved dlsym into libc, with a version of its own */
		real_dlsym = (void *(*)(void *, const char *))dlvsym(RTLD_NEXT, "dlsym",
								       "GLIBC_2.34");
		if (!real_dlsym)
			real_dlsym = (void *(*)(void *, const char *))dlvsym(RTLD_NEXT, "dlsym",
									       "GLIBC_2.2.5");
		if (!real_dlsym)
			return NULL;
	}
	/* glibc's dlsym finds RTLD_NEXT (and RTLD_DEFAULT's namespace) from
	 * its caller's address: those go on as a tail call, which leaves the
	 * caller's return address in place (checked in tests/157) */
	if (handle == RTLD_NEXT || handle == RTLD_DEFAULT)
		return real_dlsym(handle, name);
	void *f = real_dlsym(handle, name);
	if (!f || strcmp(name, "eglSwapBuffers") != 0 || f == (void *)eglSwapBuffers)
		return f;
	pthread_mutex_lock(&dlsym_lock);
	size_t i = 0;
	while (i < nfound && found_swap[i] != (swap_fn)f)
		i++;
	if (i == nfound && nfound < MAX_SWAP_FNS)
		found_swap[nfound++] = (swap_fn)f;
	pthread_mutex_unlock(&dlsym_lock);
	return i < MAX_SWAP_FNS ? (void *)wrappers[i] : f;
}
