/* Structs by value: parameters pass pointers to caller copies, results come back through a
   hidden pointer; member access by value and by pointer. */
// local-memory: yes
// run: -fopenmp --device-only --emit=ptx -O2
struct vec3 { double x, y, z; };
struct pair { int a; long b; };
static struct vec3 add(struct vec3 u, struct vec3 v) {
    struct vec3 r = {u.x + v.x, u.y + v.y, u.z + v.z};
    return r;
}
static double dot(struct vec3 u, struct vec3 v) { return u.x * v.x + u.y * v.y + u.z * v.z; }
double norm2_sum(const struct vec3 *a, const struct vec3 *b) {
    struct vec3 s = add(*a, *b);
    return dot(s, s);
}
long pair_sum(struct pair p) { return p.a + p.b; }
void pair_swap(struct pair *p) {
    struct pair t = *p;
    p->a = (int)t.b;
    p->b = t.a;
}
// At -O2 the static add and dot are inlined into norm2_sum and removed; the by-value copies
// of *a and *b stay caller copies in the local frame.
// not: add(
// not: dot(
// check: norm2_sum(
// check: .local .align 8 .b8 __stack_0[24];
// check: ld.param.b64 $(a=%rd\d+), [norm2_sum_param_0];
// check: ld.u64 $(a2=%rd\d+), [$a+16];
// nextln: st.local.u64 [__stack_0+16], $a2;
// check: ld.local.f64 $(ux=%fd\d+), [__stack_0];
// nextln: ld.local.f64 $(vx=%fd\d+), [__stack_1];
// nextln: add.rn.f64 $(=%fd\d+), $ux, $vx;
// check: mul.rn.f64 $(yy=%fd\d+), $(=%fd\d+), $(=%fd\d+);
// nextln: fma.rn.f64 $(xy=%fd\d+), $(=%fd\d+), $(=%fd\d+), $yy;
// check: fma.rn.f64 $(=%fd\d+), $(=%fd\d+), $(=%fd\d+), $xy;
// not: call
// check: pair_sum(
// check: ld.u32 $(=%r\d+), [$(=%rd\d+)];
// check: ld.u64 $(=%rd\d+), [$(=%rd\d+)+8];
// check: pair_swap(
// check: st.u32 [$(=%rd\d+)], $(=%r\d+);
// check: st.u64 [$(=%rd\d+)+8], $(=%rd\d+);
