/* Storage duration and linkage: static locals that persist, block-scope extern declarations,
 * tentative definitions, internal vs external linkage, _Thread_local with pthreads, inline
 * functions with an external definition, const globals, and static arrays initialized once. */
#include <stdio.h>
#include <string.h>
#include <pthread.h>

int counter;          /* tentative definition ... */
int counter;          /* ... repeated: still one object, zero-initialized */
static int hidden = 5; /* internal linkage */
const double scale = 2.5;
static const char *const greetings[] = {"hello", "bonjour", "hola"};
_Thread_local int per_thread = 10;

inline int square(int x) { return x * x; }
extern inline int square(int x); /* makes this translation unit provide the external definition */

static int next_id(void)
{
    static int id = 100; /* initialized once, persists across calls */
    return id++;
}

static const char *memo_name(int i)
{
    static char cache[3][16];
    static int filled[3];
    if (!filled[i]) {
        snprintf(cache[i], sizeof cache[i], "%s-%d", greetings[i], i);
        filled[i] = 1;
    }
    return cache[i];
}

static void bump(void)
{
    extern int counter; /* refers to the file-scope object */
    counter += 3;
}

static void *thread_body(void *arg)
{
    int add = *(int *)arg;
    per_thread += add; /* each thread has its own copy starting at 10 */
    *(int *)arg = per_thread;
    return NULL;
}

static int shadowing(void)
{
    int hidden = 1; /* shadows the file-scope variable */
    {
        extern int counter;
        int total = hidden + counter;
        {
            int hidden = 50;
            total += hidden;
        }
        return total;
    }
}

int main(void)
{
    printf("counter starts at %d, hidden=%d, scale=%.6g\n", counter, hidden, scale);
    for (int i = 0; i < 3; i++)
        printf("id %d\n", next_id());
    bump();
    bump();
    printf("counter after two bumps: %d\n", counter);
    printf("memo: %s %s %s (same pointer again: %d)\n", memo_name(0), memo_name(1), memo_name(2),
           memo_name(1) == memo_name(1));
    printf("square(12)=%d\n", square(12));
    printf("shadowing total=%d\n", shadowing());

    int args[3] = {1, 2, 3};
    pthread_t t[3];
    for (int i = 0; i < 3; i++)
        pthread_create(&t[i], NULL, thread_body, &args[i]);
    for (int i = 0; i < 3; i++)
        pthread_join(t[i], NULL);
    printf("thread-local results: %d %d %d, main's copy still %d\n", args[0], args[1], args[2], per_thread);

    static int zeroed[100];
    int nonzero = 0;
    for (int i = 0; i < 100; i++)
        nonzero += zeroed[i] != 0;
    printf("static array zero-initialized: %d nonzero\n", nonzero);
    char local[8] = "abc";
    printf("partially initialized local: len=%zu tail zero=%d\n", strlen(local), local[7] == 0);
    return 0;
}
