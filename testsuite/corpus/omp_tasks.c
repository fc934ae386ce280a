/* Host OpenMP tasks: recursive Fibonacci with taskwait and a cutoff, a task per linked-list
 * node, taskgroup, task dependences forming a pipeline, and taskloop with a reduction. */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

static long fib_task(int n)
{
    if (n < 15) {
        long a = 0, b = 1;
        for (int i = 0; i < n; i++) {
            long t = a + b;
            a = b;
            b = t;
        }
        return a;
    }
    long x, y;
#pragma omp task shared(x) firstprivate(n)
    x = fib_task(n - 1);
#pragma omp task shared(y) firstprivate(n)
    y = fib_task(n - 2);
#pragma omp taskwait
    return x + y;
}

struct node { int value; long result; struct node *next; };

static long collatz_steps(long n)
{
    long steps = 0;
    while (n != 1) {
        n = n % 2 ? 3 * n + 1 : n / 2;
        steps++;
    }
    return steps;
}

int main(void)
{
    long f = 0;
#pragma omp parallel
#pragma omp single
    f = fib_task(30);
    printf("fib(30)=%ld\n", f);

    struct node *head = NULL;
    for (int i = 1; i <= 200; i++) {
        struct node *n = malloc(sizeof *n);
        n->value = i * 37;
        n->result = 0;
        n->next = head;
        head = n;
    }
#pragma omp parallel
#pragma omp single
    {
        for (struct node *n = head; n; n = n->next)
#pragma omp task firstprivate(n)
            n->result = collatz_steps(n->value);
#pragma omp taskwait
    }
    long total = 0, best = 0;
    int best_value = 0;
    for (struct node *n = head; n; n = n->next) {
        total += n->result;
        if (n->result > best || (n->result == best && n->value < best_value)) {
            best = n->result;
            best_value = n->value;
        }
    }
    printf("collatz total steps=%ld, longest: %d (%ld steps)\n", total, best_value, best);

    int stage[3] = {0};
    int trace[6], tpos = 0;
#pragma omp parallel
#pragma omp single
    {
#pragma omp taskgroup
        {
#pragma omp task depend(out : stage[0])
            { stage[0] = 5; }
#pragma omp task depend(in : stage[0]) depend(out : stage[1])
            { stage[1] = stage[0] * 10; }
#pragma omp task depend(in : stage[1]) depend(out : stage[2])
            { stage[2] = stage[1] + 7; }
        }
        trace[tpos++] = stage[2];
    }
    printf("pipeline: %d %d %d (trace %d)\n", stage[0], stage[1], stage[2], trace[0]);

    long sum = 0;
#pragma omp parallel
#pragma omp single
#pragma omp taskloop grainsize(64) reduction(+ : sum)
    for (int i = 0; i < 10000; i++)
        sum += i % 13 == 0 ? i : 0;
    printf("taskloop sum=%ld\n", sum);

    while (head) {
        struct node *n = head;
        head = head->next;
        free(n);
    }
    return 0;
}
