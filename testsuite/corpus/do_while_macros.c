/* Statement-like macros: do { } while (0) wrappers that behave as single statements inside
 * if/else, error-checking macros with goto cleanup, once-evaluated arguments, and assert. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <assert.h>

#define SWAP(a, b)                \
    do {                          \
        __typeof__(a) tmp_ = (a); \
        (a) = (b);                \
        (b) = tmp_;               \
    } while (0)

#define CHECK(cond, code)                                              \
    do {                                                               \
        if (!(cond)) {                                                 \
            printf("  check failed: %s -> code %d\n", #cond, (code)); \
            rc = (code);                                               \
            goto cleanup;                                              \
        }                                                              \
    } while (0)

#define APPEND(buf, ...)                                                  \
    do {                                                                  \
        size_t used_ = strlen(buf);                                       \
        snprintf((buf) + used_, sizeof(buf) - used_, __VA_ARGS__);       \
    } while (0)

#define INCR_TWICE(x) do { (x)++; (x)++; } while (0)

static int calls;
static int next_value(void) { return ++calls; }

/* evaluates its argument once, even though it is used twice */
#define SQUARE_ONCE(x) ({ __typeof__(x) v_ = (x); v_ * v_; })

static int process(int n, char *log, size_t cap)
{
    int rc = 0;
    int *data = NULL;
    char *copy = NULL;
    printf("process(%d)\n", n);
    CHECK(n > 0, 1);
    data = malloc((size_t)n * sizeof *data);
    CHECK(data != NULL, 2);
    for (int i = 0; i < n; i++)
        data[i] = n - i;
    CHECK(n < 100, 3);
    copy = malloc(16);
    CHECK(copy != NULL, 4);
    snprintf(copy, 16, "first=%d", data[0]);
    snprintf(log, cap, "%s", copy);
cleanup:
    free(copy);
    free(data);
    return rc;
}

int main(void)
{
    int a = 1, b = 2;
    if (a < b)
        SWAP(a, b);
    else
        SWAP(a, b); /* without do/while(0) this else would not parse */
    printf("after swap: a=%d b=%d\n", a, b);
    double x = 1.5, y = -0.5;
    SWAP(x, y);
    printf("doubles: x=%.6g y=%.6g\n", x, y);

    char buf[64] = "";
    for (int i = 0; i < 4; i++)
        APPEND(buf, "%s%d", i ? "," : "", i * i);
    printf("built: %s\n", buf);

    int k = 0;
    for (int i = 0; i < 3; i++)
        if (i != 1)
            INCR_TWICE(k);
    printf("k=%d\n", k);

    int sq = SQUARE_ONCE(next_value() + 2);
    printf("square=%d calls=%d\n", sq, calls);

    char log[32] = "";
    int rcs[3] = {process(5, log, sizeof log), process(0, log, sizeof log), process(500, log, sizeof log)};
    printf("codes: %d %d %d, log: %s\n", rcs[0], rcs[1], rcs[2], log);
    assert(rcs[0] == 0 && "a valid size succeeds");
    assert(strcmp(log, "first=5") == 0);
    static_assert(sizeof(int) >= 2, "int is at least 16 bits");
    printf("asserts passed\n");
    return 0;
}
