/* Function-pointer tables: a tiny stack-machine interpreter whose opcodes dispatch through an
 * array of handlers, plus a struct of function pointers used as a "vtable" for shapes. */
#include <stdio.h>
#include <math.h>

enum op { PUSH, ADD, SUB, MUL, DIV, DUP, SWAP, JNZ, DEC, PRINT, HALT, NOPS };

typedef struct vm {
    long stack[32];
    int sp, pc, running;
    const long *code;
} vm;

typedef void (*handler)(vm *);

static void op_push(vm *m) { m->stack[m->sp++] = m->code[m->pc++]; }
static void op_add(vm *m) { m->sp--; m->stack[m->sp - 1] += m->stack[m->sp]; }
static void op_sub(vm *m) { m->sp--; m->stack[m->sp - 1] -= m->stack[m->sp]; }
static void op_mul(vm *m) { m->sp--; m->stack[m->sp - 1] *= m->stack[m->sp]; }
static void op_div(vm *m) { m->sp--; m->stack[m->sp - 1] /= m->stack[m->sp]; }
static void op_dup(vm *m) { m->stack[m->sp] = m->stack[m->sp - 1]; m->sp++; }
static void op_swap(vm *m) { long t = m->stack[m->sp - 1]; m->stack[m->sp - 1] = m->stack[m->sp - 2]; m->stack[m->sp - 2] = t; }
static void op_jnz(vm *m) { long target = m->code[m->pc++]; if (m->stack[m->sp - 1]) m->pc = (int)target; }
static void op_dec(vm *m) { m->stack[m->sp - 1]--; }
static void op_print(vm *m) { printf("  top=%ld\n", m->stack[m->sp - 1]); }
static void op_halt(vm *m) { m->running = 0; }

static const handler table[NOPS] = {
    [PUSH] = op_push, [ADD] = op_add, [SUB] = op_sub, [MUL] = op_mul, [DIV] = op_div,
    [DUP] = op_dup, [SWAP] = op_swap, [JNZ] = op_jnz, [DEC] = op_dec, [PRINT] = op_print,
    [HALT] = op_halt,
};

static long run(const long *code)
{
    vm m = {.code = code, .running = 1};
    int steps = 0;
    while (m.running) {
        handler h = table[code[m.pc++]];
        h(&m);
        steps++;
    }
    printf("  steps=%d\n", steps);
    return m.stack[m.sp - 1];
}

typedef struct shape_ops {
    const char *name;
    double (*area)(const double *p);
    double (*perimeter)(const double *p);
} shape_ops;

static double circle_area(const double *p) { return 3.141592653589793 * p[0] * p[0]; }
static double circle_perim(const double *p) { return 2 * 3.141592653589793 * p[0]; }
static double rect_area(const double *p) { return p[0] * p[1]; }
static double rect_perim(const double *p) { return 2 * (p[0] + p[1]); }
static double tri_area(const double *p)
{
    double s = (p[0] + p[1] + p[2]) / 2;
    return sqrt(s * (s - p[0]) * (s - p[1]) * (s - p[2]));
}
static double tri_perim(const double *p) { return p[0] + p[1] + p[2]; }

static const shape_ops shapes[] = {
    {"circle", circle_area, circle_perim},
    {"rect", rect_area, rect_perim},
    {"triangle", tri_area, tri_perim},
};

int main(void)
{
    static const long arith[] = {PUSH, 6, PUSH, 7, MUL, PUSH, 2, SUB, PUSH, 4, DIV, PRINT, HALT};
    static const long countdown[] = {PUSH, 3, PRINT, DEC, JNZ, 2, PRINT, HALT};
    printf("arith:\n");
    printf("  result=%ld\n", run(arith));
    printf("countdown:\n");
    printf("  result=%ld\n", run(countdown));
    double params[][3] = {{1.5, 0, 0}, {2, 3.5, 0}, {3, 4, 5}};
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++)
        printf("%-8s area=%.6g perimeter=%.6g\n", shapes[i].name, shapes[i].area(params[i]),
               shapes[i].perimeter(params[i]));
    double (*pick)(double) = params[0][0] > 1 ? sqrt : fabs;
    printf("picked function of 2: %.6g\n", pick(2.0));
    return 0;
}
