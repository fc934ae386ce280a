/* The unit that defines the declare-target functions sep_fnptr_main.c points at. */
#pragma omp declare target
double square(double x) { return x * x; }
double twice(double x) { return 2 * x; }
#pragma omp end declare target
