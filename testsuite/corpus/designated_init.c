/* Designated initializers (fields, array indices, GNU ranges, nested, out of order)
 * and compound literals (as arguments, lvalues, static storage, arrays of structs). */
#include <stdio.h>
#include <string.h>

struct point { int x, y; };
struct rect { struct point min, max; const char *label; };
struct config {
    int version;
    struct { int w, h; } size;
    double weights[4];
    char name[8];
    unsigned flags;
};

static int area(struct rect r) { return (r.max.x - r.min.x) * (r.max.y - r.min.y); }
static int sum(const int *v, int n)
{
    int s = 0;
    for (int i = 0; i < n; i++)
        s += v[i];
    return s;
}

/* a compound literal at file scope has static storage, so the pointer stays valid */
static struct point *origin_ptr = &(struct point){0, 0};
static struct point *origin(void) { return origin_ptr; }

int main(void)
{
    struct config c = {
        .name = "cfg",
        .size.h = 480,
        .weights = {[2] = 0.5, [0] = 1.0},
        .version = 3,
        .size.w = 800, /* back into an aggregate already started */
        .flags = 1u << 4,
    };
    printf("version=%d size=%dx%d name=%s flags=%#x\n", c.version, c.size.w, c.size.h, c.name, c.flags);
    printf("weights: %.6g %.6g %.6g %.6g\n", c.weights[0], c.weights[1], c.weights[2], c.weights[3]);

    int squares[10] = {[1] = 1, [2] = 4, [3] = 9, [9] = 81, [5] = 25};
    int ranged[8] = {[0 ... 3] = 7, [6] = 1}; /* GNU range designator */
    printf("squares:");
    for (int i = 0; i < 10; i++)
        printf(" %d", squares[i]);
    printf("\nranged:");
    for (int i = 0; i < 8; i++)
        printf(" %d", ranged[i]);
    printf("\n");

    const char *days[] = {[6] = "sun", [0] = "mon", [2] = "wed"};
    printf("days has %zu entries; [1] is %s\n", sizeof days / sizeof days[0], days[1] ? days[1] : "(null)");

    printf("area of compound literal: %d\n",
           area((struct rect){.min = {1, 2}, .max = {.y = 10, .x = 5}, .label = "r"}));
    printf("sum of literal array: %d\n", sum((int[]){1, 2, 3, 4, 5}, 5));
    printf("sum of sized literal: %d\n", sum((int[6]){[4] = 10, 20}, 6));

    struct point *p = &(struct point){.y = 3};
    p->x += 4;
    printf("lvalue literal: (%d,%d)\n", p->x, p->y);
    (struct point){9, 9}.x = 0; /* assigning into a temporary is allowed */

    struct rect rs[] = {
        [1] = {.label = "second", .max = {2, 2}},
        {.label = "third", .min = {1, 1}, .max = {4, 5}},
        [0].label = "first",
    };
    for (size_t i = 0; i < sizeof rs / sizeof rs[0]; i++)
        printf("rect %s area=%d\n", rs[i].label, area(rs[i]));

    origin()->x = 5;
    printf("static literal persists: %d\n", origin()->x);
    char msg[16] = {[0] = 'o', [1] = 'k'};
    printf("msg=%s len=%zu\n", msg, strlen(msg));
    union { int i; float f; unsigned char bytes[4]; } u = {.bytes = {0, 0, 0x80, 0x3f}};
    printf("union via bytes: %.6g\n", u.f);
    return 0;
}
