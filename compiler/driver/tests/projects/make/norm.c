#include <math.h>

#include "vec.h"

double vec_norm(const double *v, int n) { return sqrt(vec_dot(v, v, n)); }
