void f(int n) {
#pragma omp parallel default(everything)
    { n++; }
#pragma omp target defaultmap(tofrom: things)
    { n++; }
}
// ERROR 2:22: malformed 'default' clause: expected shared, none, private or firstprivate [E0124]
// ERROR 4:20: malformed 'defaultmap' clause: unknown variable category [E0124]
