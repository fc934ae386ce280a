#include <stdio.h>
#include <omp.h>

#pragma omp declare target
/* the device version sees construct={target}; the host version does not */
static int where(void) {
  int r = -1;
#pragma omp metadirective when(construct={target}: parallel) default(nothing)
  {
    if (omp_get_thread_num() == 0) r = omp_get_level();
  }
  return r;
}
#pragma omp end declare target

int main(void) {
  int n = 0, m = 0, q = 0, p = 0, dev = -1, w = 0;
  double s = 0;
#pragma omp target map(tofrom: n, m, q, p, dev, w, s)
  {
    dev = omp_is_initial_device();
    /* device: a parallel region (level 1); host fallback: none (level 0) */
#pragma omp metadirective when(device={kind(gpu)}: parallel) default(nothing)
    {
      if (omp_get_thread_num() == 0) n = omp_get_level();
    }
    /* the higher score wins: arch (2^(l+1)) beats kind (2^l) */
#pragma omp metadirective when(device={kind(gpu)}: nothing) when(device={arch(nvptx64)}: parallel) \
    otherwise(nothing)
    {
      if (omp_get_thread_num() == 0) m = omp_get_level();
    }
    /* the device's ISA: ompcc's PTX runs on sm_70 and later; the host has no such ISA */
#pragma omp metadirective when(device={isa(sm_70)}: parallel) when(device={isa(sm_99)}: nothing) \
    default(nothing)
    {
      if (omp_get_thread_num() == 0) q = omp_get_level();
    }
    /* a device version with a clause the host version lacks: the host fallback copy must
       not get the clause's launch value */
#pragma omp metadirective when(device={kind(gpu)}: parallel num_threads(2)) default(nothing)
    {
      if (omp_get_thread_num() == 0) p = omp_get_level();
    }
    /* a loop directive chosen by the construct set */
#pragma omp metadirective when(construct={target}: parallel for reduction(+: s)) default(for)
    for (int i = 1; i <= 100; i++) s += i;
    w = where();
  }
  int expect_n = dev ? 0 : 1, expect_m = dev ? 0 : 1;
  printf("n %s m %s q %s p %s s %.0f w %s\n", n == expect_n ? "ok" : "wrong",
         m == expect_m ? "ok" : "wrong", q == expect_n ? "ok" : "wrong",
         p == expect_n ? "ok" : "wrong", s,
         w == (dev ? 0 : 1) ? "ok" : "wrong");
  /* host code: the host's traits */
  int k = 0;
#pragma omp metadirective when(device={kind(host)}: parallel num_threads(3)) default(single)
  {
#pragma omp atomic
    k++;
  }
  printf("k %d\n", k);
  return 0;
}
