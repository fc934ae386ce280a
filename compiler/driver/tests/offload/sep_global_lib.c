/* The unit that defines the declare-target globals sep_global_main.c uses. */
#pragma omp declare target
double scale[4] = {1, 1, 1, 1};
int hits = 0;
double scaled(int i) { return scale[i % 4] * i; }
#pragma omp end declare target

void lib_set_scale(double s) {
  for (int k = 0; k < 4; k++)
    scale[k] = s * k;
#pragma omp target update to(scale)
}

int lib_hits(void) {
#pragma omp target update from(hits)
  return hits;
}
