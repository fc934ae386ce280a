/* POSIX and time APIs used deterministically: calendar conversion of fixed timestamps with
 * gmtime/mktime/strftime/difftime, gettimeofday and clock only checked for sanity (never
 * printed), getpid/getppid types from <sys/types.h>, sysconf, and pipe/read/write. */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/types.h>
#include <sys/time.h>
#include <assert.h>

int main(void)
{
    time_t fixed = 1700000000; /* 2023-11-14 22:13:20 UTC */
    struct tm tm;
    gmtime_r(&fixed, &tm);
    char buf[64];
    strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S %a %j", &tm);
    printf("gmtime: %s (wday=%d yday=%d)\n", buf, tm.tm_wday, tm.tm_yday);
    struct tm later = tm;
    later.tm_mday += 30; /* timegm normalizes the overflowed day */
    time_t t2 = timegm(&later);
    strftime(buf, sizeof buf, "%Y-%m-%d", &later);
    printf("30 days later: %s, difftime=%.6g s\n", buf, difftime(t2, fixed));

    struct tm y2k = {.tm_year = 100, .tm_mon = 0, .tm_mday = 1, .tm_hour = 12};
    time_t y2k_t = timegm(&y2k);
    printf("2000-01-01 12:00 UTC = %lld\n", (long long)y2k_t);
    strftime(buf, sizeof buf, "%A %d %B %Y", &y2k);
    printf("formatted: %s\n", buf);
    printf("asctime: %s", asctime(&y2k));

    struct timeval tv;
    int rc = gettimeofday(&tv, NULL);
    printf("gettimeofday ok: %d, usec in range: %d\n", rc == 0, tv.tv_usec >= 0 && tv.tv_usec < 1000000);
    struct timespec ts;
    printf("clock_gettime ok: %d\n", clock_gettime(CLOCK_MONOTONIC, &ts) == 0);
    clock_t c = clock();
    printf("clock() available: %d\n", c != (clock_t)-1);
    time_t now = time(NULL);
    printf("now is after the fixed time: %d\n", now > fixed);

    pid_t pid = getpid(), ppid = getppid();
    printf("pid positive: %d, ppid positive: %d, sizeof(pid_t)=%zu\n", pid > 0, ppid > 0, sizeof(pid_t));
    uid_t uid = getuid();
    (void)uid;
    off_t off = 0;
    ssize_t ss = -1;
    printf("sizeof off_t=%zu ssize_t=%zu, ssize_t signed: %d\n", sizeof off, sizeof ss, ss < 0);
    long page = sysconf(_SC_PAGESIZE);
    printf("page size is a power of two: %d\n", page > 0 && (page & (page - 1)) == 0);

    int fds[2];
    if (pipe(fds) != 0)
        return 1;
    const char *msg = "through a pipe";
    ssize_t w = write(fds[1], msg, strlen(msg));
    close(fds[1]);
    char in[32] = {0};
    ssize_t r = read(fds[0], in, sizeof in - 1);
    close(fds[0]);
    printf("pipe: wrote %zd read %zd \"%s\"\n", w, r, in);
    assert(w == r);
    printf("access(\"/\", F_OK)=%d isatty(-1)=%d\n", access("/", F_OK), isatty(-1));
    return 0;
}
