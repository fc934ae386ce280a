#pragma omp end declare target
#pragma omp declare target
int f(int x) { return x; }
#pragma omp end declare target
#pragma omp begin declare target
int g(int x) { return x; }
// ERROR 1:1: '#pragma omp end declare target' without a matching 'declare target' [E0126]
// ERROR 5:1: '#pragma omp declare target' is never ended [E0126]
