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
// check: .visible .func add(.param .b64 add_param_0, .param .b64 add_param_1, .param .b64 add_param_2)
// check: .local .align 8 .b8 __stack_0[24];
// check: add.rn.f64 %fd3, %fd1, %fd2;
// check: st.u64 [%rd1+16], %rd17;
// check: dot(
// check: ld.f64 %fd9, [%rd2+16];
// check: norm2_sum(
// check: call add, (param0, param1, param2);
// check: call (retval0), dot, (param0, param1);
// check: pair_sum(
// check: ld.u32 %r1, [%rd1];
// check: ld.u64 %rd5, [%rd1+8];
// check: pair_swap(
// check: st.u32 [%rd1], %r1;
// check: st.u64 [%rd1+8], %rd9;
