/* Device taskloops split their iterations into tasks as libgomp does: each task starts with
 * its own copy of the firstprivate counter, so the values written per iteration show where
 * the tasks begin. grainsize (plain and strict), num_tasks (plain and strict), neither clause
 * in a target region without a parallel region (one task, as libgomp's team of one makes),
 * more tasks asked than iterations, a grain past the end, steps other than 1, descending and
 * unsigned long long loops, implicitly firstprivate variables and the snapshot: a task starts
 * from the value the original had where the taskloop began, even if the body changes the
 * original through a pointer. */
#include <stdio.h>

#define N 23

static void show(const char *what, const int *v, int n) {
  printf("%-10s", what);
  for (int i = 0; i < n; i++) printf(" %d", v[i]);
  printf("\n");
}

int main(void) {
  int g[N], gs[N], gs2[N], nt[N], nts[N], def[N], big[N], many[N], one[N];
  int st[12], down[N], ull[N], imp[N], snap[N], orig = 0;
  int c = 100;
#pragma omp target map(from: g, gs, gs2, nt, nts, def, big, many, one) map(to: c)
  {
#pragma omp taskloop shared(g) firstprivate(c) grainsize(5)
    for (int i = 0; i < N; i++) g[i] = c++;
#pragma omp taskloop shared(gs) firstprivate(c) grainsize(strict: 5)
    for (int i = 0; i < N; i++) gs[i] = c++;
#pragma omp taskloop shared(gs2) firstprivate(c) grainsize(strict: 8)
    for (int i = 0; i < N - 7; i++) gs2[i] = c++;
#pragma omp taskloop shared(nt) firstprivate(c) num_tasks(4)
    for (int i = 0; i < N; i++) nt[i] = c++;
#pragma omp taskloop shared(nts) firstprivate(c) num_tasks(strict: 6)
    for (int i = 0; i < N; i++) nts[i] = c++;
#pragma omp taskloop shared(def) firstprivate(c)
    for (int i = 0; i < N; i++) def[i] = c++;
#pragma omp taskloop shared(big) firstprivate(c) grainsize(100)
    for (int i = 0; i < N; i++) big[i] = c++;
#pragma omp taskloop shared(many) firstprivate(c) num_tasks(50)
    for (int i = 0; i < N; i++) many[i] = c++;
#pragma omp taskloop shared(one) firstprivate(c) grainsize(1)
    for (int i = 0; i < 7; i++) one[i] = c++;
  }
  show("grain5", g, N);
  show("strict5", gs, N);
  show("strict8", gs2, N - 7);
  show("tasks4", nt, N);
  show("strict6", nts, N);
  show("default", def, N);
  show("grain100", big, N);
  show("tasks50", many, N);
  show("grain1", one, 7);

  long lo = -7, hi = 40;
#pragma omp target map(from: st, down, ull, imp, snap) map(tofrom: orig)
  {
    int k = 10;
    int *po = &orig;
    /* i = -7, -3, ..., 37: 12 iterations, 3 tasks of 4 */
#pragma omp taskloop shared(st) firstprivate(c) grainsize(4)
    for (long i = lo; i < hi; i += 4) st[(i - lo) / 4] = c++;
    /* descending: the first task runs the highest indices */
#pragma omp taskloop shared(down) firstprivate(c) num_tasks(5)
    for (int i = N - 1; i >= 0; i--) down[i] = c++;
#pragma omp taskloop shared(ull) firstprivate(c) grainsize(strict: 6)
    for (unsigned long long u = 3; u < N + 3ULL; u++) ull[u - 3] = c++;
    /* k is firstprivate without a clause: each task starts from 10 */
#pragma omp taskloop shared(imp) num_tasks(3)
    for (int i = 0; i < N; i++) imp[i] = k++;
#pragma omp taskloop shared(snap) firstprivate(orig) num_tasks(3)
    for (int i = 0; i < N; i++) {
      snap[i] = orig++;
      *po += 10;
    }
    k += 1000;
    imp[0] += k;
  }
  show("step4", st, 12);
  show("down5", down, N);
  show("ull6", ull, N);
  show("implicit", imp, N);
  show("snapshot", snap, N);
  printf("orig %d\n", orig);
  return 0;
}
