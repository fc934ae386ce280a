/* A C-like tokenizer built on <ctype.h>: identifiers, keywords, integer/float/hex literals,
 * string and char literals with escapes, comments, and multi-character operators. */
#include <stdio.h>
#include <ctype.h>
#include <string.h>

typedef enum { TK_IDENT, TK_KEYWORD, TK_INT, TK_FLOAT, TK_STRING, TK_CHAR, TK_PUNCT, TK_EOF, TK_ERROR } kind;

static const char *kind_name[] = {"ident", "keyword", "int", "float", "string", "char", "punct", "eof", "error"};
static const char *keywords[] = {"int", "return", "if", "else", "while", "for", "double", "struct", "sizeof"};
static const char *puncts[] = {"<<=", ">>=", "...", "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=",
                               "&&", "||", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^="};

typedef struct { kind kind; const char *start; int len, line; } token;

static const char *skip_space(const char *p, int *line)
{
    for (;;) {
        if (*p == '\n') { (*line)++; p++; }
        else if (isspace((unsigned char)*p)) p++;
        else if (p[0] == '/' && p[1] == '/') { while (*p && *p != '\n') p++; }
        else if (p[0] == '/' && p[1] == '*') {
            p += 2;
            while (*p && !(p[0] == '*' && p[1] == '/')) { if (*p == '\n') (*line)++; p++; }
            if (*p) p += 2;
        } else return p;
    }
}

static token next(const char **src, int *line)
{
    const char *p = skip_space(*src, line);
    token t = {TK_EOF, p, 0, *line};
    if (!*p) return t;
    if (isalpha((unsigned char)*p) || *p == '_') {
        while (isalnum((unsigned char)*p) || *p == '_') p++;
        t.kind = TK_IDENT;
        for (size_t k = 0; k < sizeof keywords / sizeof *keywords; k++)
            if ((size_t)(p - t.start) == strlen(keywords[k]) && !strncmp(t.start, keywords[k], p - t.start))
                t.kind = TK_KEYWORD;
    } else if (isdigit((unsigned char)*p) || (*p == '.' && isdigit((unsigned char)p[1]))) {
        t.kind = TK_INT;
        if (p[0] == '0' && tolower((unsigned char)p[1]) == 'x') {
            p += 2;
            while (isxdigit((unsigned char)*p)) p++;
        } else {
            while (isdigit((unsigned char)*p)) p++;
            if (*p == '.') { t.kind = TK_FLOAT; p++; while (isdigit((unsigned char)*p)) p++; }
            if (tolower((unsigned char)*p) == 'e') {
                t.kind = TK_FLOAT;
                p++;
                if (*p == '+' || *p == '-') p++;
                while (isdigit((unsigned char)*p)) p++;
            }
        }
        while (strchr("uUlLfF", *p) && *p) p++;
    } else if (*p == '"' || *p == '\'') {
        char q = *p++;
        t.kind = q == '"' ? TK_STRING : TK_CHAR;
        while (*p && *p != q) { if (*p == '\\' && p[1]) p++; p++; }
        if (*p) p++; else t.kind = TK_ERROR;
    } else {
        t.kind = TK_PUNCT;
        size_t n = 1;
        for (size_t k = 0; k < sizeof puncts / sizeof *puncts; k++)
            if (!strncmp(p, puncts[k], strlen(puncts[k])) && strlen(puncts[k]) > n) n = strlen(puncts[k]);
        if (!ispunct((unsigned char)*p)) t.kind = TK_ERROR;
        p += n;
    }
    t.len = (int)(p - t.start);
    *src = p;
    return t;
}

int main(void)
{
    const char *src =
        "/* header */ int main(int argc, char **argv) {\n"
        "  double x = 3.25e-2, y = .5f; // comment\n"
        "  unsigned long m = 0xFFul >> 2;\n"
        "  if (argc >= 2 && x != y) x += y * 1e3;\n"
        "  s->len <<= 1; c = '\\''; puts(\"a \\\"quoted\\\" string\");\n"
        "  return sizeof(struct s) ... @\n"
        "}\n";
    int line = 1, counts[TK_ERROR + 1] = {0};
    const char *p = src;
    for (;;) {
        token t = next(&p, &line);
        counts[t.kind]++;
        if (t.kind == TK_EOF) break;
        if (t.kind != TK_PUNCT || t.len > 1)
            printf("%d:%-7s %.*s\n", t.line, kind_name[t.kind], t.len, t.start);
    }
    printf("lines=%d", line);
    for (int k = 0; k <= TK_ERROR; k++)
        printf(" %s=%d", kind_name[k], counts[k]);
    printf("\n");
    return 0;
}
