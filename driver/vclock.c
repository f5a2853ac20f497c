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
 * SDL timers the main thread adds run on the virtual clock, on the main
 * thread (below, "SDL timers"); after a frame step the main thread makes
 * a round trip to the X server, so that the script's input is in its
 * queue before it goes on (below, "the X display").
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

/* ---- SDL timers ----
 *
 * SDL runs a timer's callback on a thread of its own, by the real clock:
 * how many times it has fired when the main thread next looks for events
 * depends on the machine. A timer the main thread adds is kept here
 * instead, on the virtual clock: its callback runs on the main thread,
 * at the main thread's next SDL_PollEvent, SDL_WaitEvent or
 * SDL_WaitEventTimeout once the clock has reached its time; a wait that
 * finds no event moves the clock on to the next timer's time (or to the
 * end of its timeout, if that comes first) and fires it. A callback's
 * answer is its next interval, counted from its time (SDL's timer thread,
 * on time, would have run it then); 0 ends it. A timer faster than the
 * frame rate fires more than once a frame, as SDL's would. SDL is not
 * linked: its functions are the next ones (RTLD_NEXT), and an SDL type is
 * only the size of its integers. Timers added by other threads, and more
 * than MAX_TIMERS, are SDL's own.
 */
typedef uint32_t (*sdl_timer_fn)(uint32_t interval, void *param);
#define MAX_TIMERS 64
#define TIMER_ID_BASE 0x40000000  /* above the ids SDL gives (1, 2, ...) */

struct vtimer {
	int id;
	uint64_t due;         /* virtual ns */
	uint32_t interval;    /* ms */
	sdl_timer_fn fn;
	void *param;
};
static struct vtimer timers[MAX_TIMERS];
static size_t ntimers;
static int timer_ids;

int SDL_AddTimer(uint32_t interval, sdl_timer_fn fn, void *param);
int SDL_AddTimer(uint32_t interval, sdl_timer_fn fn, void *param)
{
	if (main_thread() && fn && ntimers < MAX_TIMERS) {
		const int id = TIMER_ID_BASE + ++timer_ids;
		timers[ntimers++] = (struct vtimer){id, v_ns + (uint64_t)interval * 1000000u,
						    interval, fn, param};
		return id;
	}
	int (*real)(uint32_t, sdl_timer_fn, void *) =
		(int (*)(uint32_t, sdl_timer_fn, void *))dlsym(RTLD_NEXT, "SDL_AddTimer");
	return real ? real(interval, fn, param) : 0;
}

/* The index of timer id, or ntimers. */
static size_t timer_index(int id)
{
	size_t i = 0;
	while (i < ntimers && timers[i].id != id)
		i++;
	return i;
}

int SDL_RemoveTimer(int id);  /* SDL_bool */
int SDL_RemoveTimer(int id)
{
	if (id > TIMER_ID_BASE) {
		if (!main_thread())
			return 0;  /* only the main thread's own are here */
		const size_t i = timer_index(id);
		if (i == ntimers)
			return 0;
		timers[i] = timers[--ntimers];
		return 1;
	}
	int (*real)(int) = (int (*)(int))dlsym(RTLD_NEXT, "SDL_RemoveTimer");
	return real ? real(id) : 0;
}

/* The timer due first (by time, then by id), or ntimers. */
static size_t timer_first(void)
{
	size_t f = ntimers;
	for (size_t i = 0; i < ntimers; i++)
		if (f == ntimers || timers[i].due < timers[f].due ||
		    (timers[i].due == timers[f].due && timers[i].id < timers[f].id))
			f = i;
	return f;
}

/* Runs the callbacks of the timers due by the main thread's clock (not
 * again from inside one: a callback that polls for events). */
static void timers_fire(void)
{
	static int firing;
	if (firing)
		return;
	firing = 1;
	for (;;) {
		size_t i = timer_first();
		if (i == ntimers || timers[i].due > v_ns)
			break;
		const struct vtimer t = timers[i];
		const uint32_t next = t.fn(t.interval, t.param);
		i = timer_index(t.id);  /* the callback may add or remove timers */
		if (i == ntimers)
			continue;
		if (next == 0) {
			timers[i] = timers[--ntimers];
		} else {
			timers[i].interval = next;
			timers[i].due = t.due + (uint64_t)next * 1000000u;
		}
	}
	firing = 0;
}

int SDL_PollEvent(void *event);
int SDL_PollEvent(void *event)
{
	static int (*real)(void *);
	if (!real)
		real = (int (*)(void *))dlsym(RTLD_NEXT, "SDL_PollEvent");
	if (main_thread())
		timers_fire();
	return real ? real(event) : 0;
}

/* SDL_WaitEventTimeout() of the main thread with timers of its own:
 * timeout_ms < 0 waits as long as it takes. The queue is filled with
 * SDL_PumpEvents() and read with SDL_PeepEvents(): SDL_PollEvent() pumps
 * only once a poll has reached the end of what the last pump brought (its
 * sentinel), which timer events pushed meanwhile would put off. */
static int wait_virtual(void *event, int timeout_ms)
{
	static void (*pump)(void);
	static int (*peep)(void *, int, int, uint32_t, uint32_t);
	if (!pump || !peep) {
		pump = (void (*)(void))dlsym(RTLD_NEXT, "SDL_PumpEvents");
		peep = (int (*)(void *, int, int, uint32_t, uint32_t))dlsym(RTLD_NEXT,
									     "SDL_PeepEvents");
		if (!pump || !peep)
			return -1;
	}
	const uint64_t end = timeout_ms < 0 ? UINT64_MAX
					    : v_ns + (uint64_t)timeout_ms * 1000000u;
	for (;;) {
		timers_fire();
		pump();
		/* SDL_GETEVENT (2) or, without an event to fill, SDL_PEEKEVENT
		 * (1); every type (SDL_FIRSTEVENT .. SDL_LASTEVENT) */
		if (peep(event, 1, event ? 2 : 1, 0, 0xFFFF) > 0)
			return 1;
		const size_t i = timer_first();
		if (i == ntimers)
			return -1;  /* none left: the caller waits for real */
		if (timers[i].due > end) {
			v_ns = end;
			return 0;
		}
		if (timers[i].due > v_ns)
			v_ns = timers[i].due;
		reads = 0;
	}
}

int SDL_WaitEventTimeout(void *event, int timeout_ms);
int SDL_WaitEventTimeout(void *event, int timeout_ms)
{
	if (main_thread() && ntimers) {
		const int r = wait_virtual(event, timeout_ms);
		if (r >= 0)
			return r;
	}
	static int (*real)(void *, int);
	if (!real)
		real = (int (*)(void *, int))dlsym(RTLD_NEXT, "SDL_WaitEventTimeout");
	return real ? real(event, timeout_ms) : 0;
}

int SDL_WaitEvent(void *event);
int SDL_WaitEvent(void *event)
{
	if (main_thread() && ntimers) {
		const int r = wait_virtual(event, -1);
		if (r >= 0)
			return r;
	}
	static int (*real)(void *);
	if (!real)
		real = (int (*)(void *))dlsym(RTLD_NEXT, "SDL_WaitEvent");
	return real ? real(event) : 0;
}

/* ---- the X display ----
 *
 * Input an input script sends at a frame step (xdotool, another X client)
 * reaches the program as events the X server writes to the program's
 * connection when it next flushes its output: whether they are there when
 * the program next reads its events is a race. So after a frame step the
 * main thread makes a round trip on its display (XSync): xdotool waited
 * until the server had made its events, and they come before the round
 * trip's reply, into the program's queue. The display is the first one
 * the main thread opened and has not closed (SDL opens one and closes it
 * at once to see whether X is there); Xlib's functions are found where the
 * program found XOpenDisplay (SDL opens libX11 itself).
 */
typedef void *(*xopen_fn)(const char *name);
typedef int (*xsync_fn)(void *dpy, int discard);
typedef int (*xclose_fn)(void *dpy);
static void *x_display;
static xsync_fn x_sync;
/* XOpenDisplay and XCloseDisplay as dlsym() first found them, and the
 * library handle XOpenDisplay came from (first_found()) */
static void *found_xopen, *found_xclose, *xlib;

static void *opened(void *dpy, xsync_fn sync)
{
	if (dpy && !x_display && main_thread() && sync) {
		x_display = dpy;
		x_sync = sync;
	}
	return dpy;
}

void *XOpenDisplay(const char *name);
void *XOpenDisplay(const char *name)
{
	xopen_fn real = (xopen_fn)dlsym(RTLD_NEXT, "XOpenDisplay");
	return opened(real ? real(name) : NULL, (xsync_fn)dlsym(RTLD_NEXT, "XSync"));
}

/* A display closed: the next one opened is the program's (SDL opens one
 * and closes it at once to see whether X is there). */
static void closing(void *dpy)
{
	if (dpy == x_display && main_thread())
		x_display = NULL;
}

int XCloseDisplay(void *dpy);
int XCloseDisplay(void *dpy)
{
	closing(dpy);
	xclose_fn real = (xclose_fn)dlsym(RTLD_NEXT, "XCloseDisplay");
	return real ? real(dpy) : 0;
}

static int close_found(void *dpy)
{
	closing(dpy);
	return ((xclose_fn)found_xclose)(dpy);
}

/* XOpenDisplay as dlsym() found it, with the XSync of its library. */
static void *open_found(const char *name)
{
	return opened(((xopen_fn)found_xopen)(name), (xsync_fn)real_dlsym(xlib, "XSync"));
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
		if (x_display)  /* the script's input in the queue (above) */
			x_sync(x_display, 0);
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

/* Keeps f in *kept (and the handle it came from in *from, when not NULL)
 * if no function of its name was kept yet; whether f is the one kept. */
static int first_found(void **kept, void **from, void *f, void *handle)
{
	pthread_mutex_lock(&dlsym_lock);
	if (!*kept) {
		*kept = f;
		if (from)
			*from = handle;
	}
	const int first = *kept == f;
	pthread_mutex_unlock(&dlsym_lock);
	return first;
}

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
	if (f && !strcmp(name, "XCloseDisplay") && f != (void *)XCloseDisplay)
		return first_found(&found_xclose, NULL, f, handle) ? (void *)close_found : f;
	if (f && !strcmp(name, "XOpenDisplay") && f != (void *)XOpenDisplay)
		return first_found(&found_xopen, &xlib, f, handle) ? (void *)open_found : f;
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
