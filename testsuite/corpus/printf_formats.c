/* Every printf conversion (d i o u x X f F e E g G a A c s p n %) with flags, widths,
 * precisions and length modifiers (hh h l ll j z t L), via printf, snprintf and sprintf. */
#include <stdio.h>
#include <stdint.h>
#include <stddef.h>
#include <string.h>
#include <wchar.h>

int main(void)
{
    int n1 = 0, n2 = 0;
    signed char sc = -100;
    short sh = -32000;
    long l = -1234567890L;
    long long ll = 9000000000000000000LL;
    intmax_t im = INTMAX_MIN;
    size_t sz = 4096;
    ptrdiff_t pd = -77;
    unsigned char uc = 250;
    printf("[%d] [%i] [%+d] [% d] [%5d] [%-5d|] [%05d] [%.3d]\n", 42, -42, 42, 42, 42, 42, 42, 7);
    printf("[%hhd] [%hd] [%ld] [%lld] [%jd] [%zu] [%td] [%hhu]\n", sc, sh, l, ll, im, sz, pd, uc);
    printf("[%o] [%#o] [%x] [%#x] [%X] [%#X] [%#.8x] [%u]\n", 511, 511, 48879, 48879, 48879, 48879, 255, 4000000000u);
    printf("[%lx] [%llX] [%zx] [%jx]\n", 0xdeadbeefUL, 0xCAFEBABEULL, (size_t)1 << 40, (uintmax_t)UINTMAX_MAX);
    double d = 1234.5678;
    printf("[%f] [%.2f] [%10.3f] [%-10.1f|] [%+.0f] [%#.0f] [%F]\n", d, d, d, d, d, d, d);
    printf("[%e] [%.3E] [%12.4e] [%g] [%G] [%.3g] [%#g]\n", d, d, d, d, 1e-10, d, 2.0);
    printf("[%g] [%g] [%g] [%g]\n", 100000.0, 1000000.0, 0.0001, 0.00001);
    printf("[%a] [%A] [%.2a] [%a]\n", 1.0, 0.5, 3.14159, -0.1);
    printf("[%f] [%F] [%e] [%g]\n", 1.0 / 0.0, -1.0 / 0.0, 0.0 / 0.0 > 0 ? 1.0 : -0.0, -0.0);
    long double ld = 2.5L;
    printf("[%Lf] [%.3Le] [%Lg]\n", ld, ld * 1000, ld / 3);
    printf("[%c] [%3c] [%-3c|] [%s] [%.3s] [%8s] [%-8s|] [%%]\n", 'A', 'B', 'C', "hello", "hello", "hi", "hi");
    printf("[%*d] [%-*d|] [%.*f] [%*.*s]\n", 6, 42, 6, 42, 3, 3.14159, 6, 2, "abcdef");
    printf("[%p] [%s]\n", (void *)0, (const char *)"(not a pointer)");
    printf("[%lc] [%ls]\n", (wint_t)L'Z', L"wide");
    printf("count%n test%n\n", &n1, &n2);
    printf("n1=%d n2=%d\n", n1, n2);
    char buf[16];
    /* truncation is the point here; volatile keeps gcc's -Wformat-truncation from seeing it */
    volatile size_t cap = sizeof buf;
    int want = snprintf(buf, cap, "%s-%d-%.2f-%x", "truncated", 123456, 2.5, 255u);
    printf("snprintf wanted %d, got \"%s\" (len %zu)\n", want, buf, strlen(buf));
    char big[64];
    int wrote = sprintf(big, "%08.3f|%-+6d|%#o", -3.14159, 17, 8);
    printf("sprintf wrote %d: %s\n", wrote, big);
    printf("%3$s %1$s %2$s\n", "world", "again", "hello");
    return 0;
}
