#include <stdio.h>

#include "vec.h"

int main(void) {
    double v[4];
    vec_fill(v, 4, 0.0); /* 0 1 2 3 */
    printf("dot = %.1f, norm^2 = %.1f\n", vec_dot(v, v, 4), vec_norm(v, 4) * vec_norm(v, 4));
    return 0;
}
