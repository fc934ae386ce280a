#include <stdio.h>
#include <omp.h>

int main(void) {
    double sum = 0.0;
#pragma omp parallel for reduction(+ : sum)
    for (int i = 1; i <= 1000; i++)
        sum += 1.0 / ((double)i * i);
    printf("sum of 1/i^2 for i=1..1000 = %.9f\n", sum);
    return 0;
}
