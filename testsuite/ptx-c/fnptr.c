/* Function pointers: a function's address, a dispatch table in a local array, and calls
   through pointers (call_indirect, a PTX call with a .callprototype). */
// run: -fopenmp --device-only --emit=ptx -O2
// local-memory: yes
static int add1(int x) { return x + 1; }
static int twice(int x) { return 2 * x; }
typedef int (*unop)(int);
int apply(unop f, int x) { return f(x) + (*f)(x); }
int dispatch(int which, int x) {
    unop table[2] = {add1, twice};
    return apply(table[which & 1], x);
}
// check: .visible .func (.param .b32 apply_retval0) apply(.param .b64 apply_param_0, .param .b32 apply_param_1)
// check: ld.param.b64 $(=%rd\d+), [apply_param_0];
// check: L__proto1: .callprototype (.param .b32 _) _ (.param .b32 _);
// nextln: call (retval0), $(=%rd\d+), (param0), L__proto1;
// check: L__proto2: .callprototype (.param .b32 _) _ (.param .b32 _);
// nextln: call (retval0), $(=%rd\d+), (param0), L__proto2;
// check: dispatch(
// check: mov.u64 $(=%rd\d+), add1;
// nextln: st.local.u64 [__stack_0], $(=%rd\d+);
// check: mov.u64 $(=%rd\d+), twice;
// nextln: st.local.u64 [__stack_0+8], $(=%rd\d+);
// apply is inlined into dispatch: the indirect calls go through the loaded table entry.
// check: ld.local.u64 $(fp=%rd\d+), [$(=%rd\d+)];
// check: call (retval0), $fp, (param0), L__proto1;
// check: call (retval0), $fp, (param0), L__proto2;
// not: call (retval0), apply,
