/* Non-local control flow: setjmp/longjmp through nested calls (with volatile locals),
 * noreturn functions from <stdnoreturn.h> and _Noreturn, goto-based cleanup and loops.
 * Exits with status 3 on purpose. */
// expect-exit: 3
#include <stdio.h>
#include <stdlib.h>
#include <setjmp.h>
#include <stdnoreturn.h>

static jmp_buf env;
static int depth_reached;

noreturn static void bail(int code)
{
    longjmp(env, code);
}

static _Noreturn void finish(int code)
{
    printf("finish(%d)\n", code);
    fflush(stdout);
    exit(code);
}

static int recurse(int depth, int limit)
{
    depth_reached = depth;
    if (depth == limit)
        bail(depth * 10);
    if (depth > 1000)
        return 0; /* never reached with the limits used here */
    return recurse(depth + 1, limit) + 1;
}

static int find_pair(const int *v, int n, int target, int *ia, int *ib)
{
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++)
            if (v[i] + v[j] == target) {
                *ia = i;
                *ib = j;
                goto found; /* leave both loops at once */
            }
    return 0;
found:
    return 1;
}

static int gcd_goto(int a, int b)
{
loop:
    if (b == 0)
        return a;
    int t = a % b;
    a = b;
    b = t;
    goto loop;
}

int main(void)
{
    volatile int attempts = 0; /* volatile: modified between setjmp and longjmp */
    int rc = setjmp(env);
    attempts++;
    if (rc == 0) {
        printf("first pass\n");
        recurse(1, 5);
        printf("not reached\n");
    } else if (rc < 100) {
        printf("longjmp returned %d after depth %d (attempt %d)\n", rc, depth_reached, attempts);
        if (attempts < 3)
            recurse(1, 5 + attempts);
    }
    printf("attempts=%d\n", attempts);

    jmp_buf *saved = malloc(sizeof *saved);
    if (!saved)
        return 1;
    if (setjmp(*saved) == 0) {
        printf("jumping through a heap jmp_buf\n");
        longjmp(*saved, 0); /* 0 turns into 1 */
    } else {
        printf("landed: longjmp(0) makes setjmp return nonzero\n");
    }
    free(saved);

    int v[] = {8, 3, 11, 7, 2, 9};
    int a = -1, b = -1;
    if (find_pair(v, 6, 13, &a, &b))
        printf("pair for 13: v[%d]+v[%d]\n", a, b);
    printf("pair for 100 found: %d\n", find_pair(v, 6, 100, &a, &b));
    printf("gcd(1071, 462)=%d\n", gcd_goto(1071, 462));
    finish(3); /* a fixed nonzero status, checked by the harness */
}
