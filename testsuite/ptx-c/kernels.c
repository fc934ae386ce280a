/* Device functions of several shapes: integer and float arithmetic, a struct by pointer,
   a switch, a nested loop, recursion and a call between device functions. */
// run: -fopenmp --emit=ptx -O2
#pragma omp begin declare target
struct particle {
    double x, y, vx, vy;
    int alive;
};

static double clamp(double v, double lo, double hi) {
    return v < lo ? lo : (v > hi ? hi : v);
}

void step(struct particle *p, int n, double dt) {
    for (int i = 0; i < n; i++) {
        if (!p[i].alive)
            continue;
        p[i].x = clamp(p[i].x + dt * p[i].vx, 0.0, 1.0);
        p[i].y = clamp(p[i].y + dt * p[i].vy, 0.0, 1.0);
    }
}

long histogram_bin(unsigned v, int bins) {
    switch (v % 4u) {
    case 0:
        return (long)(v / (unsigned)bins);
    case 1:
        return -(long)v;
    case 2:
        return (long)v << 3;
    default:
        return 7;
    }
}

int gcd(int a, int b) { return b == 0 ? a : gcd(b, a % b); }

void matvec(int n, int m, const float *a, const float *x, float *y) {
    for (int i = 0; i < n; i++) {
        float s = 0.0f;
        for (int j = 0; j < m; j++)
            s += a[i * m + j] * x[j];
        y[i] = s;
    }
}
#pragma omp end declare target

int main(void) { return 0; }
// The static clamp is inlined into step and removed: x + dt * vx contracts to fma.rn.f64
// and the two conditionals become setp + selp.
// not: clamp
// check: .visible .func step(
// check: ld.u32 $(=%r\d+), [$(p=%rd\d+)+32];
// check: ld.f64 $(x=%fd\d+), [$p];
// check: ld.f64 $(vx=%fd\d+), [$p+16];
// nextln: fma.rn.f64 $(v=%fd\d+), $(=%fd\d+), $vx, $x;
// nextln: setp.lt.f64 $(lt=%p\d+), $v, $(lo=%fd\d+);
// nextln: setp.gt.f64 $(gt=%p\d+), $v, $(hi=%fd\d+);
// nextln: selp.f64 $(c=%fd\d+), $hi, $v, $gt;
// nextln: selp.f64 $(r=%fd\d+), $lo, $c, $lt;
// nextln: st.f64 [$p], $r;
// not: call
// check: histogram_bin(
// check: gcd(
// check: call (retval0), gcd, (param0, param1);
// check: matvec(
