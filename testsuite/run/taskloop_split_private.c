/* Device taskloops split into tasks as libgomp does, with the rest of the data environment:
 * lastprivate from the task that runs the last iteration (alone and with firstprivate on the
 * same variable), collapse(2) and collapse(3) split over the collapsed iteration space, a
 * firstprivate array and struct restarted per task, a reduction next to a per-task counter,
 * and the clauses that do not change the split: nogroup (with a taskwait), untied, final,
 * mergeable, priority, if(0) and the simd form. */
#include <stdio.h>

#define N 20

struct acc {
  int n;
  long sum;
};

static void show(const char *what, const int *v, int n) {
  printf("%-9s", what);
  for (int i = 0; i < n; i++) printf(" %d", v[i]);
  printf("\n");
}

int main(void) {
  int c2[24], c3[30], arr_out[N], st_out[N], red_cnt[N];
  int ng[N], un[N], fi[N], me[N], pr[N], if0[N], sm[N];
  int last = -1, both = 0, lastc = -1, li = -1;
  long red = 0;
  int c = 0;
#pragma omp target map(from: c2, c3, arr_out, st_out, red_cnt) \
    map(tofrom: last, both, lastc, li, red)
  {
    int fa[3] = {1, 2, 3};
    struct acc s = {0, 5};
    /* the last of the 4 tasks (5 iterations each) writes the lastprivate value */
#pragma omp taskloop firstprivate(c) lastprivate(last) num_tasks(4)
    for (int i = 0; i < N; i++) last = c++ * 100 + i;
    both = 7;
    int lv = -1;
#pragma omp taskloop firstprivate(both) lastprivate(both, lv) grainsize(6)
    for (lv = 0; lv < N; lv++) both += lv;
    li = lv;
    /* 4 x 6 = 24 iterations, grainsize 5: 4 tasks of 6 */
#pragma omp taskloop shared(c2) firstprivate(c) lastprivate(lastc) collapse(2) grainsize(5)
    for (int i = 0; i < 4; i++)
      for (int j = 0; j < 6; j++) {
        c2[i * 6 + j] = c++;
        lastc = c;
      }
    /* 2 x 3 x 5 = 30 iterations in 4 tasks: 8 8 7 7 */
#pragma omp taskloop shared(c3) firstprivate(c) collapse(3) num_tasks(4)
    for (int i = 0; i < 2; i++)
      for (int j = 0; j < 3; j++)
        for (int k = 4; k > -1; k--) c3[(i * 3 + j) * 5 + (4 - k)] = c++;
#pragma omp taskloop shared(arr_out, st_out) firstprivate(fa, s) grainsize(strict: 7)
    for (int i = 0; i < N; i++) {
      fa[i % 3] += i;
      s.n++;
      s.sum += i;
      arr_out[i] = fa[0] + fa[1] + fa[2];
      st_out[i] = s.n * 1000 + (int)s.sum;
    }
#pragma omp taskloop shared(red_cnt) firstprivate(c) reduction(+: red) num_tasks(3)
    for (int i = 0; i < N; i++) {
      red += i * c;
      red_cnt[i] = c++;
    }
  }
  show("collapse2", c2, 24);
  show("collapse3", c3, 30);
  show("array", arr_out, N);
  show("struct", st_out, N);
  show("reduction", red_cnt, N);
  printf("last %d both %d li %d lastc %d red %ld\n", last, both, li, lastc, red);

#pragma omp target map(from: ng, un, fi, me, pr, if0, sm)
  {
#pragma omp taskloop shared(ng) firstprivate(c) grainsize(3) nogroup
    for (int i = 0; i < N; i++) ng[i] = c++;
#pragma omp taskwait
#pragma omp taskloop shared(un) firstprivate(c) num_tasks(3) untied
    for (int i = 0; i < N; i++) un[i] = c++;
#pragma omp taskloop shared(fi) firstprivate(c) grainsize(strict: 3) final(1)
    for (int i = 0; i < N; i++) fi[i] = c++;
#pragma omp taskloop shared(me) firstprivate(c) num_tasks(7) mergeable
    for (int i = 0; i < N; i++) me[i] = c++;
#pragma omp taskloop shared(pr) firstprivate(c) grainsize(4) priority(3)
    for (int i = 0; i < N; i++) pr[i] = c++;
#pragma omp taskloop shared(if0) firstprivate(c) num_tasks(6) if(0)
    for (int i = 0; i < N; i++) if0[i] = c++;
#pragma omp taskloop simd shared(sm) firstprivate(c) grainsize(9)
    for (int i = 0; i < N; i++) sm[i] = i * 10 + c;
  }
  show("nogroup", ng, N);
  show("untied", un, N);
  show("final", fi, N);
  show("mergeable", me, N);
  show("priority", pr, N);
  show("if0", if0, N);
  show("simd", sm, N);
  return 0;
}
