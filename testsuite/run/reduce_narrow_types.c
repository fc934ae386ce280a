// Reductions on char, signed char, unsigned char, _Bool, short and unsigned short with every
// operator (+ - * min max & | ^ && ||) on every construct that takes a reduction clause:
// combined teams/parallel loops, distribute, simd, a parallel for nested in target, a
// generic teams region, `for` and `scope` in target parallel, taskloop. Narrow arithmetic
// wraps as C's conversions define it, so every schedule gives the same result. gcc 12
// combines the partial results of a _Bool `+`/`-` reduction in one bit (1 + 1 = 0), not as
// the specification's `omp_out += omp_in` (1), so the _Bool sums here only add zeros.
#include <stdio.h>

#define N 300
#define RED                                                                                  \
  reduction(+ : s) reduction(- : d) reduction(* : m) reduction(min : lo) reduction(max : hi) \
      reduction(& : an) reduction(| : o) reduction(^ : x) reduction(&& : la) reduction(|| : lor)
#define BODY(T)                                            \
  for (int i = 0; i < N; i++) {                            \
    T v = (T)a[i];                                         \
    s += (T)(sum ? v : 0);                                 \
    d -= (T)(sum ? v : 0);                                 \
    if (i % 16 == 0) m *= (T)(a[i] % 2 ? 3 : 5);            \
    lo = v < lo ? v : lo;                                  \
    hi = v > hi ? v : hi;                                  \
    if (a[i] % 9 != 0) an &= v;                            \
    if (a[i] % 5 == 0) o |= v;                             \
    x ^= v;                                                \
    la = la && (a[i] != 4);                                \
    lor = lor || (a[i] == 131);                            \
  }

#define MAPS map(to : a[0 : N])
#define DEF(T, NAME, SUM)                                                                    \
  static void NAME(const int *a, int which) {                                              \
    const int sum = SUM;                                                                   \
    T s = (T)5, d = (T)1, m = (T)1, lo = (T)a[1], hi = (T)a[2], an = (T)~0, o = (T)0;       \
    T x = (T)1, la = (T)1, lor = (T)0;                                                     \
    switch (which) {                                                                       \
    case 0:                                                                                \
      _Pragma("omp target teams distribute parallel for MAPS RED") BODY(T) break;          \
    case 1:                                                                                \
      _Pragma("omp target parallel for MAPS RED") BODY(T) break;                           \
    case 2:                                                                                \
      _Pragma("omp target teams distribute MAPS RED") BODY(T) break;                       \
    case 3:                                                                                \
      _Pragma("omp target teams distribute parallel for simd MAPS RED") BODY(T) break;     \
    case 4:                                                                                \
      _Pragma("omp target simd MAPS RED") BODY(T) break;                                   \
    case 5:                                                                                \
      _Pragma("omp target MAPS map(tofrom : s, d, m, lo, hi, an, o, x, la, lor)") {        \
        _Pragma("omp parallel for RED") BODY(T)                                            \
      }                                                                                    \
      break;                                                                               \
    case 6:                                                                                \
      _Pragma("omp target teams num_teams(1) MAPS RED") {                                  \
        int pad = 0;                                                                       \
        _Pragma("omp parallel for RED") BODY(T) pad++;                                     \
        (void)pad;                                                                         \
      }                                                                                    \
      break;                                                                               \
    case 7:                                                                                \
      _Pragma("omp target parallel MAPS map(tofrom : s, d, m, lo, hi, an, o, x, la, lor)") { \
        _Pragma("omp for RED") BODY(T)                                                     \
      }                                                                                    \
      break;                                                                               \
    case 8:                                                                                \
      _Pragma("omp target parallel MAPS map(tofrom : s, d, m, lo, hi, an, o, x, la, lor)") { \
        _Pragma("omp scope RED") {                                                         \
          _Pragma("omp for") BODY(T)                                                       \
        }                                                                                  \
      }                                                                                    \
      break;                                                                               \
    default:                                                                               \
      _Pragma("omp target MAPS map(tofrom : s, d, m, lo, hi, an, o, x, la, lor)")          \
          _Pragma("omp taskloop RED") BODY(T) break;                                       \
    }                                                                                      \
    printf("%-7s %d: %d %d %d %d %d %d %d %d %d %d\n", #T, which, (int)s, (int)d, (int)m,  \
           (int)lo, (int)hi, (int)an, (int)o, (int)x, (int)la, (int)lor);                  \
  }

DEF(char, red_char, 1)
DEF(signed char, red_schar, 1)
DEF(unsigned char, red_uchar, 1)
DEF(_Bool, red_bool, 0)
DEF(short, red_short, 1)
DEF(unsigned short, red_ushort, 1)

int main(void) {
  int a[N];
#pragma omp target map(from : a)
  for (int i = 0; i < N; i++) a[i] = (i * 37 + 11) % 251 - 60;
  a[100] = 131; // one || hit
  for (int w = 0; w < 10; w++) {
    red_char(a, w);
    red_schar(a, w);
    red_uchar(a, w);
    red_bool(a, w);
    red_short(a, w);
    red_ushort(a, w);
  }
  return 0;
}
