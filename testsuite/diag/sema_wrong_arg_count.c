double scale(double x, double k);
double f(void) {
    return scale(1.0) + scale(1.0, 2.0, 3.0);
}
// ERROR 3:12: too few arguments to function 'scale' (expected 2, have 1) [E0431]
// ERROR 3:25: too many arguments to function 'scale' (expected 2, have 3) [E0431]
