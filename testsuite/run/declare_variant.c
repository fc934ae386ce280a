#include <stdio.h>
#include <omp.h>

/* variants: the GPU one, an nvptx-specific one (a higher score), one for code inside
   `parallel` in a target region, and the host's (never chosen for the device) */
int scale_gpu(int x) { return 10 * x; }
int scale_nvptx(int x) { return 100 * x; }
int scale_par(int x) { return 1000 * x; }
int scale_host(int x) { return -x; }

#pragma omp declare variant(scale_gpu) match(device={kind(gpu)})
#pragma omp declare variant(scale_host) match(device={kind(host)})
int scale(int x) { return x; }

#pragma omp declare variant(scale_nvptx) match(device={kind(gpu), arch(nvptx64)})
#pragma omp declare variant(scale_gpu) match(device={kind(gpu)})
int scale2(int x);
int scale2(int x) { return x; }

#pragma omp declare variant(scale_par) match(construct={target, parallel})
int scale3(int x) { return x; }

#pragma omp declare target
static int helper(int x) { return scale(x); }
#pragma omp end declare target

int main(void) {
  int a = 0, b = 0, c = 0, d = 0, e = 0, dev = -1;
#pragma omp target map(tofrom: a, b, c, d, e, dev)
  {
    dev = omp_is_initial_device();
    a = scale(2);
    b = scale2(3);
    c = scale3(4);
    d = helper(5);
#pragma omp parallel num_threads(1)
    e = scale3(6);
  }
  /* on a GPU the variants run; on the host (the fallback, gcc) the base or host variants */
  int ok = dev ? (a == -2 && b == 3 && c == 4 && d == -5 && e == 6000)
               : (a == 20 && b == 300 && c == 4 && d == 50 && e == 6000);
  printf("%s; host calls: %d %d %d\n", ok ? "variants as specified" : "wrong variants", scale(7),
         scale2(8), scale3(9));
  return 0;
}
