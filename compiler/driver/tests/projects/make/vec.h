/* Vector helpers of the make example. */
#ifndef VEC_H
#define VEC_H
void vec_fill(double *v, int n, double start);
double vec_dot(const double *a, const double *b, int n);
double vec_norm(const double *v, int n);
#endif
