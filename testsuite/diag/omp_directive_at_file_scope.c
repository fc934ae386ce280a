int g;
#pragma omp loop
int twice(int v) { return 2 * v; }
#pragma omp barrier
int h(void) { return g; }
// ERROR 2:1: '#pragma omp loop' may only be used inside a function body [E0127]
// ERROR 4:1: '#pragma omp barrier' may only be used inside a function body [E0127]
