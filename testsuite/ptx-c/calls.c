/* Calls between device functions with the .param convention: arguments of every scalar
   type, results in registers, a void function, and a call whose result is unused. */
// run: -fopenmp --device-only --emit=ptx -O0
static double mix(char c, short s, int i, long l, float f, double d) {
    return c + s + i + l + f + d;
}
static void touch(int *p) { *p = 1; }
double caller(int *p) {
    touch(p);
    mix(1, 2, 3, 4, 5.0f, 6.0);
    return mix(*p, 2, 3, 4, 5.0f, 6.0);
}
// check: .func (.param .b64 mix_retval0) mix(.param .b32 mix_param_0, .param .b32 mix_param_1, .param .b32 mix_param_2, .param .b64 mix_param_3, .param .b32 mix_param_4, .param .b64 mix_param_5)
// check: ld.param.b16 %rs1, [mix_param_0];
// check: ld.param.f32 %f1, [mix_param_4];
// nextln: ld.param.f64 %fd1, [mix_param_5];
// check: st.param.f64 [mix_retval0],
// check: touch(
// check: caller(
// check: call touch, (param0);
// check: .param .b32 param0;
// check: .param .b64 param5;
// check: call (retval0), mix, (param0, param1, param2, param3, param4, param5);
