#!/usr/bin/env python3
"""Golden misses of test_fully_associative_brute_force (tests/065-cachesim-opt.c),
computed independently of tessera: the same xorshift64 trace, then LRU, FIFO and MRU
with ordered dicts and OPT/OPTPT with per-line position lists and a lazy max-heap.
Prints the five #define lines. Standard library only; about 10 s."""
import heapq
from collections import OrderedDict

N, LINES, WAYS = 200000, 20000, 1024
M64 = (1 << 64) - 1


def trace():
    x = 42
    def xs():
        nonlocal x
        x ^= (x << 13) & M64
        x ^= x >> 7
        x ^= (x << 17) & M64
        return x
    ids = []
    for _ in range(N):
        bound = 1 + xs() % LINES
        ids.append(xs() % bound)
    return ids


def recency(ids, hit_moves, evict_newest):
    d, misses = OrderedDict(), 0
    for l in ids:
        if l in d:
            if hit_moves:
                d.move_to_end(l)
            continue
        misses += 1
        if len(d) == WAYS:
            d.popitem(last=evict_newest)
        d[l] = True
    return misses


def opt(ids, bypass):
    nxt, last = [None] * N, {}
    for i in range(N - 1, -1, -1):
        nxt[i] = last.get(ids[i], float("inf"))
        last[ids[i]] = i
    res, heap, misses = {}, [], 0  # res: line -> next use; heap of (-next use, line)
    for i, l in enumerate(ids):
        if l in res:
            res[l] = nxt[i]
            heapq.heappush(heap, (-nxt[i], l))
            continue
        misses += 1
        if len(res) == WAYS:
            while True:  # drop stale heap entries
                n, v = heap[0]
                if v in res and res[v] == -n:
                    break
                heapq.heappop(heap)
            if bypass and nxt[i] >= -heap[0][0]:
                continue
            heapq.heappop(heap)
            del res[v]
        res[l] = nxt[i]
        heapq.heappush(heap, (-nxt[i], l))
    return misses


ids = trace()
for name, m in (("LRU", recency(ids, True, False)), ("FIFO", recency(ids, False, False)),
                ("MRU", recency(ids, True, True)), ("OPT", opt(ids, False)),
                ("OPTPT", opt(ids, True))):
    print("#define GOLDEN_%s %d" % (name, m))
