#include <stdio.h>
#include <stdlib.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <wchar.h>
#include <complex.h>
#include <stdatomic.h>
#include <inttypes.h>
#include <unistd.h>
#include <sys/time.h>
#include <fenv.h>
#include <locale.h>
#include <uchar.h>
#include <tgmath.h>
#include <stdalign.h>
#include <stdnoreturn.h>
#include <wctype.h>
#include <float.h>
#include <assert.h>

static jmp_buf env;
static atomic_int counter = ATOMIC_VAR_INIT(0);
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
struct align_test { char c; alignas(32) double d; };
static_assert(alignof(struct align_test) == 32, "alignas");
static_assert(sizeof(struct align_test) == 64, "size");

static void *worker(void *arg) {
    int id = *(int *)arg;
    pthread_mutex_lock(&mu);
    atomic_fetch_add(&counter, id);
    pthread_mutex_unlock(&mu);
    return NULL;
}
noreturn static void die(int code) { longjmp(env, code); }
static void on_sig(int s) { (void)s; }

int main(void) {
    setlocale(LC_ALL, "");
    signal(SIGINT, on_sig);
    pthread_t th[4]; int ids[4];
    for (int i = 0; i < 4; i++) { ids[i] = i; pthread_create(&th[i], NULL, worker, &ids[i]); }
    for (int i = 0; i < 4; i++) pthread_join(th[i], NULL);
    double complex z = 1.0 + 2.0 * I;
    double complex w = cexp(z) * conj(z);
    float f = sqrt(2.0f);
    long double ld = fabs(-1.0L);
    int64_t big = INT64_C(1) << 40;
    printf("%" PRId64 " %f %f %Lf %d\n", big, creal(w), (double)f, ld, atomic_load(&counter));
    wchar_t ws[] = L"wide";
    char16_t u16[] = u"utf16";
    printf("%zu %zu %d\n", wcslen(ws), sizeof u16, iswalpha(L'a'));
    struct timeval tv; gettimeofday(&tv, NULL);
    feclearexcept(FE_ALL_EXCEPT);
    if (setjmp(env) == 0) die(3);
    printf("%d %g %ld\n", (int)getpid() > 0, DBL_EPSILON, (long)tv.tv_sec > 0);
    return 0;
}
