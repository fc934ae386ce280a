// what is provably distinct, and what may alias
#include <stdlib.h>
double g1[64], g2[64];
void alias(int n, double *p, double *q, double *restrict r) {
  double loc[64];
  double *m1 = malloc(64 * sizeof(double));
  double *m2 = malloc(64 * sizeof(double));
  for (int i = 0; i < 64; i++) {
    g1[i] = g2[i];
    p[i] = q[i];
    r[i] = loc[i];
    m1[i] = m2[i] + p[i];
    loc[i] = 0;
  }
  free(m1);
  free(m2);
}
