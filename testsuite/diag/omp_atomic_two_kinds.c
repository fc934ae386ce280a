void f(int *x) {
#pragma omp atomic read write
    *x = 1;
}
// ERROR 2:25: '#pragma omp atomic' takes at most one of read, write, update, capture [E0123]
