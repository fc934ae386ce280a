/* Arena (bump) allocator with alignment handling via <stdalign.h>, max_align_t and offsetof;
 * allocates a linked structure, resets, and checks every pointer is aligned as requested. */
#include <stdio.h>
#include <stdlib.h>
#include <stddef.h>
#include <stdint.h>
#include <stdalign.h>
#include <string.h>

typedef struct arena {
    alignas(max_align_t) unsigned char *base;
    size_t cap, used, peak, allocations;
} arena;

static int arena_init(arena *a, size_t cap)
{
    a->base = aligned_alloc(alignof(max_align_t), cap);
    a->cap = cap;
    a->used = a->peak = a->allocations = 0;
    return a->base != NULL;
}

static void *arena_alloc(arena *a, size_t size, size_t align)
{
    size_t start = (a->used + align - 1) & ~(align - 1);
    if (start > a->cap || size > a->cap - start)
        return NULL;
    a->used = start + size;
    if (a->used > a->peak)
        a->peak = a->used;
    a->allocations++;
    return a->base + start;
}

#define ARENA_NEW(a, type, n) ((type *)arena_alloc((a), sizeof(type) * (n), alignof(type)))

typedef struct point { double x, y; } point;
typedef struct poly {
    char name[12];
    int npoints;
    point *pts;
    struct poly *next;
} poly;

struct oddly { char c; alignas(32) float v[3]; short s; };

int main(void)
{
    arena a;
    if (!arena_init(&a, 4096))
        return 1;
    printf("alignof: char=%zu double=%zu max_align_t=%zu oddly=%zu\n", alignof(char),
           alignof(double), alignof(max_align_t), alignof(struct oddly));
    printf("offsetof(oddly, v)=%zu offsetof(oddly, s)=%zu sizeof=%zu\n", offsetof(struct oddly, v),
           offsetof(struct oddly, s), sizeof(struct oddly));
    poly *head = NULL;
    int misaligned = 0;
    for (int k = 3; k <= 7; k++) {
        char *tag = ARENA_NEW(&a, char, 1 + k % 3); /* shifts the bump pointer off alignment */
        memset(tag, 'x', 1 + k % 3);
        poly *p = ARENA_NEW(&a, poly, 1);
        p->npoints = k;
        snprintf(p->name, sizeof p->name, "%d-gon", k);
        p->pts = ARENA_NEW(&a, point, k);
        for (int i = 0; i < k; i++)
            p->pts[i] = (point){(double)i, (double)(i * i % k)};
        p->next = head;
        head = p;
        struct oddly *o = ARENA_NEW(&a, struct oddly, 1);
        misaligned += ((uintptr_t)p % alignof(poly)) != 0;
        misaligned += ((uintptr_t)p->pts % alignof(point)) != 0;
        misaligned += ((uintptr_t)o % 32) != 0;
    }
    for (poly *p = head; p; p = p->next) {
        double area = 0;
        for (int i = 0; i < p->npoints; i++) {
            point u = p->pts[i], v = p->pts[(i + 1) % p->npoints];
            area += u.x * v.y - v.x * u.y;
        }
        printf("%-6s points=%d shoelace=%.6g\n", p->name, p->npoints, area / 2);
    }
    printf("allocations=%zu used=%zu misaligned=%d\n", a.allocations, a.used, misaligned);
    void *too_big = arena_alloc(&a, 8192, 8);
    printf("oversized request refused: %s\n", too_big ? "no" : "yes");
    a.used = 0; /* reset: everything is released at once */
    point *again = ARENA_NEW(&a, point, 2);
    printf("after reset first allocation at offset %td, peak was %zu\n",
           (unsigned char *)again - a.base, a.peak);
    free(a.base);
    return 0;
}
