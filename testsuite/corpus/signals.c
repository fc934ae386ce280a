/* Signals: handlers installed with signal() and sigaction(), raise() delivering synchronously,
 * volatile sig_atomic_t flags, SIG_IGN, restoring SIG_DFL, and a handler that longjmps out. */
#include <stdio.h>
#include <signal.h>
#include <setjmp.h>
#include <string.h>

static volatile sig_atomic_t usr1_count;
static volatile sig_atomic_t last_signal;
static sigjmp_buf escape;

static void on_usr1(int sig)
{
    signal(sig, on_usr1); /* re-arm: System V signal() semantics reset the handler */
    usr1_count++;
    last_signal = sig;
}

static void on_usr2(int sig, siginfo_t *info, void *ctx)
{
    (void)ctx;
    last_signal = sig;
    /* raise() fills si_code with SI_TKILL on Linux; only check that it is set */
    usr1_count += info != NULL ? 100 : 0;
}

static void on_fpe_like(int sig)
{
    siglongjmp(escape, sig);
}

int main(void)
{
    if (signal(SIGUSR1, on_usr1) == SIG_ERR)
        return 1;
    for (int i = 0; i < 3; i++)
        raise(SIGUSR1);
    printf("SIGUSR1 handled %d times, last=%s\n", (int)usr1_count, last_signal == SIGUSR1 ? "SIGUSR1" : "?");

    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_usr2;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGUSR2, &sa, NULL);
    raise(SIGUSR2);
    printf("after SIGUSR2: count=%d last=%s\n", (int)usr1_count, last_signal == SIGUSR2 ? "SIGUSR2" : "?");

    signal(SIGUSR1, SIG_IGN);
    raise(SIGUSR1);
    printf("ignored SIGUSR1: count still %d\n", (int)usr1_count);

    struct sigaction old;
    sigaction(SIGUSR2, NULL, &old);
    printf("SIGUSR2 handler is ours: %d\n", (old.sa_flags & SA_SIGINFO) && old.sa_sigaction == on_usr2);

    signal(SIGTERM, on_fpe_like);
    int sig = sigsetjmp(escape, 1);
    if (sig == 0) {
        printf("raising SIGTERM\n");
        raise(SIGTERM);
        printf("not reached\n");
    } else {
        printf("escaped from handler of signal %s\n", sig == SIGTERM ? "SIGTERM" : "?");
    }

    /* blocked signals stay pending until unblocked */
    sigset_t set, pending;
    sigemptyset(&set);
    sigaddset(&set, SIGUSR1);
    signal(SIGUSR1, on_usr1);
    sigprocmask(SIG_BLOCK, &set, NULL);
    raise(SIGUSR1);
    sigpending(&pending);
    printf("pending while blocked: %d, count=%d\n", sigismember(&pending, SIGUSR1), (int)usr1_count);
    sigprocmask(SIG_UNBLOCK, &set, NULL);
    printf("after unblock: count=%d\n", (int)usr1_count);

    signal(SIGUSR1, SIG_DFL);
    printf("names: SIGINT=%d SIGSEGV=%d SIGABRT=%d\n", SIGINT == 2, SIGSEGV == 11, SIGABRT == 6);
    return 0;
}
