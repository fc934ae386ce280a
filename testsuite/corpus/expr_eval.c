/* A recursive-descent evaluator for arithmetic expressions with variables, unary minus,
 * exponentiation (right associative), function calls and error reporting via setjmp/longjmp. */
#include <stdio.h>
#include <string.h>
#include <ctype.h>
#include <math.h>
#include <setjmp.h>
#include <stdlib.h>

typedef struct {
    const char *p;
    jmp_buf fail;
    const char *error;
    double vars[26];
} parser;

static double expr(parser *ps);

static _Noreturn void fail(parser *ps, const char *msg)
{
    ps->error = msg;
    longjmp(ps->fail, 1);
}

static void skip(parser *ps)
{
    while (isspace((unsigned char)*ps->p))
        ps->p++;
}

static int accept(parser *ps, char c)
{
    skip(ps);
    if (*ps->p == c) {
        ps->p++;
        return 1;
    }
    return 0;
}

/* primary = number | name "(" expr ")" | var | "(" expr ")" */
static double primary(parser *ps)
{
    skip(ps);
    if (isdigit((unsigned char)*ps->p) || *ps->p == '.') {
        char *end;
        double v = strtod(ps->p, &end);
        ps->p = end;
        return v;
    }
    if (isalpha((unsigned char)*ps->p)) {
        const char *start = ps->p;
        while (isalpha((unsigned char)*ps->p))
            ps->p++;
        size_t n = (size_t)(ps->p - start);
        if (n == 1 && !accept(ps, '('))
            return ps->vars[tolower((unsigned char)*start) - 'a'];
        static const struct { const char *name; double (*fn)(double); } fns[] = {
            {"sqrt", sqrt}, {"sin", sin}, {"cos", cos}, {"exp", exp}, {"log", log}, {"abs", fabs}};
        for (size_t i = 0; i < sizeof fns / sizeof fns[0]; i++)
            if (strlen(fns[i].name) == n && strncmp(fns[i].name, start, n) == 0) {
                if (!accept(ps, '('))
                    fail(ps, "expected '(' after function name");
                double v = expr(ps);
                if (!accept(ps, ')'))
                    fail(ps, "expected ')'");
                return fns[i].fn(v);
            }
        fail(ps, "unknown function");
    }
    if (accept(ps, '(')) {
        double v = expr(ps);
        if (!accept(ps, ')'))
            fail(ps, "expected ')'");
        return v;
    }
    fail(ps, *ps->p ? "unexpected character" : "unexpected end of input");
}

/* unary = "-" unary | primary ("^" unary)? */
static double unary(parser *ps)
{
    if (accept(ps, '-'))
        return -unary(ps);
    double base = primary(ps);
    if (accept(ps, '^'))
        return pow(base, unary(ps));
    return base;
}

/* term = unary (("*" | "/" | "%") unary)* */
static double term(parser *ps)
{
    double v = unary(ps);
    for (;;) {
        if (accept(ps, '*')) v *= unary(ps);
        else if (accept(ps, '/')) {
            double d = unary(ps);
            if (d == 0.0)
                fail(ps, "division by zero");
            v /= d;
        } else if (accept(ps, '%')) v = fmod(v, unary(ps));
        else return v;
    }
}

/* expr = term (("+" | "-") term)* */
static double expr(parser *ps)
{
    double v = term(ps);
    for (;;) {
        if (accept(ps, '+')) v += term(ps);
        else if (accept(ps, '-')) v -= term(ps);
        else return v;
    }
}

static void eval(parser *ps, const char *src)
{
    ps->p = src;
    ps->error = NULL;
    if (setjmp(ps->fail) == 0) {
        double v = expr(ps);
        skip(ps);
        if (*ps->p)
            fail(ps, "trailing input");
        printf("%-28s = %.6g\n", src, v);
    } else {
        printf("%-28s : error at column %td: %s\n", src, ps->p - src + 1, ps->error);
    }
}

int main(void)
{
    parser ps = {0};
    ps.vars['x' - 'a'] = 2.0;
    ps.vars['y' - 'a'] = -0.5;
    const char *tests[] = {"1 + 2 * 3", "(1 + 2) * 3", "2 ^ 3 ^ 2", "-2 ^ 2", "x * y + 10 % 4",
                           "sqrt(16) + abs(-3)", "exp(log(5))", "sin(0) + cos(0)", "1 / (x - 2)",
                           "3 + ", "foo(1)", "(1 + 2", "4 $ 4", "1.5e1 / 3"};
    for (size_t i = 0; i < sizeof tests / sizeof *tests; i++)
        eval(&ps, tests[i]);
    return 0;
}
