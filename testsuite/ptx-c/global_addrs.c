/* Global initializers holding addresses: of an object, into an array, of a string literal
   and of a function. */
// run: -fopenmp --device-only --emit=ptx -O2
int counter = 3;
int values[4] = {10, 20, 30, 40};
int *pc = &counter;
int *third = &values[2];
const char *greeting = "hi";
static int neg(int x) { return -x; }
int (*op)(int) = neg;
struct entry { const char *name; int *slot; } entries[2] = {{"a", &counter}, {"b", values + 1}};
int read_all(void) { return *pc + *third + greeting[0] + op(1) + *entries[1].slot; }
// check: .visible .global .align 4 .b8 counter[4] = {3};
// check: .global .align 1 .b8 __str[3] = {104, 105};
// check: .func (.param .b32 neg_retval0) neg(.param .b32 neg_param_0);
// check: .visible .global .align 8 .u64 pc[1] = {generic(counter)};
// nextln: .visible .global .align 8 .u64 third[1] = {generic(values)+8};
// nextln: .visible .global .align 8 .u64 greeting[1] = {generic(__str)};
// nextln: .visible .global .align 8 .u64 op[1] = {neg};
// nextln: .visible .global .align 8 .u64 entries[4] = {generic(__str_1), generic(counter), generic(__str_2), generic(values)+4};
// check: read_all()
// check: ld.global.u64 $(=%rd\d+), [pc];
