/*
 * sdl-timer - an SDL2 program paced by an SDL timer, for test 098's case
 * of the virtual clock's timers (driver/vclock.c, "SDL timers").
 *
 * It adds a 40 ms timer whose callback pushes a user event, waits 10 ms
 * with SDL_WaitEventTimeout (no event comes), then waits with
 * SDL_WaitEvent for 5 of the timer's events, and prints SDL_GetTicks()
 * (ms) after the first wait and at each event. Under the virtual clock
 * that is "10 40 80 120 160 200" every time, at once; on the real clock,
 * about that after 200 ms. SDL2 is opened at run time (no headers or
 * link: libSDL2-2.0.so.0 of libsdl2-2.0-0, which setup installs with
 * libsdl2-tests), so that it is found through the preloaded clock's
 * symbols as a program linked to SDL finds them. Exit status 77: no SDL2.
 */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define SDL_INIT_TIMER 0x00000001u
#define SDL_INIT_EVENTS 0x00004000u
#define SDL_USEREVENT 0x8000u

/* SDL_Event: a union of 56 bytes, its type first */
union event {
	uint32_t type;
	struct {
		uint32_t type, timestamp, window;
		int32_t code;
		void *data1, *data2;
	} user;
	uint8_t padding[64];
};

typedef uint32_t (*timer_fn)(uint32_t interval, void *param);

static int (*push)(union event *);

static uint32_t tick(uint32_t interval, void *param)
{
	(void)param;
	union event e;
	memset(&e, 0, sizeof(e));
	e.user.type = SDL_USEREVENT;
	push(&e);
	return interval;
}

int main(void)
{
	if (!dlopen("libSDL2-2.0.so.0", RTLD_NOW | RTLD_GLOBAL)) {
		fprintf(stderr, "sdl-timer: no SDL2: %s\n", dlerror());
		return 77;
	}
	int (*init)(uint32_t) = (int (*)(uint32_t))dlsym(RTLD_DEFAULT, "SDL_Init");
	int (*add)(uint32_t, timer_fn, void *) =
		(int (*)(uint32_t, timer_fn, void *))dlsym(RTLD_DEFAULT, "SDL_AddTimer");
	int (*wait)(union event *) = (int (*)(union event *))dlsym(RTLD_DEFAULT, "SDL_WaitEvent");
	int (*wait_for)(union event *, int) =
		(int (*)(union event *, int))dlsym(RTLD_DEFAULT, "SDL_WaitEventTimeout");
	uint32_t (*ticks)(void) = (uint32_t (*)(void))dlsym(RTLD_DEFAULT, "SDL_GetTicks");
	void (*quit)(void) = (void (*)(void))dlsym(RTLD_DEFAULT, "SDL_Quit");
	push = (int (*)(union event *))dlsym(RTLD_DEFAULT, "SDL_PushEvent");
	if (!init || !add || !wait || !wait_for || !ticks || !quit || !push ||
	    init(SDL_INIT_TIMER | SDL_INIT_EVENTS) != 0) {
		fprintf(stderr, "sdl-timer: SDL2 does not start\n");
		return 1;
	}
	if (add(40, tick, NULL) == 0)
		return 1;
	union event e;
	if (wait_for(&e, 10) != 0)
		return 1;  /* the timer's first event is 40 ms away */
	printf("%u", ticks());
	for (int n = 0; n < 5;) {
		if (!wait(&e))
			return 1;
		if (e.type == SDL_USEREVENT) {
			printf(" %u", ticks());
			n++;
		}
	}
	printf("\n");
	quit();
	return 0;
}
