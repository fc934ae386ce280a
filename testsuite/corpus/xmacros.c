/* X-macros: one list of opcodes/colors/errors expands into enums, name tables, handlers,
 * a struct definition with a printer, and a switch; all stay consistent by construction. */
#include <stdio.h>
#include <string.h>

#define COLORS(X) X(RED, 0xFF0000) X(GREEN, 0x00FF00) X(BLUE, 0x0000FF) X(GOLD, 0xFFD700)

enum color {
#define X(name, rgb) COLOR_##name,
    COLORS(X)
#undef X
    COLOR_COUNT
};

static const char *color_names[] = {
#define X(name, rgb) [COLOR_##name] = #name,
    COLORS(X)
#undef X
};

static const unsigned color_rgb[] = {
#define X(name, rgb) rgb,
    COLORS(X)
#undef X
};

#define CONFIG_FIELDS(F)                 \
    F(int, width, 640, "%d")             \
    F(int, height, 480, "%d")            \
    F(double, scale, 1.5, "%.6g")        \
    F(const char *, title, "demo", "%s") \
    F(unsigned, flags, 0x11u, "%#x")

struct config {
#define F(type, name, def, fmt) type name;
    CONFIG_FIELDS(F)
#undef F
};

static struct config config_default(void)
{
    return (struct config){
#define F(type, name, def, fmt) .name = def,
        CONFIG_FIELDS(F)
#undef F
    };
}

static void config_print(const struct config *c)
{
#define F(type, name, def, fmt) printf("  %-6s = " fmt "\n", #name, c->name);
    CONFIG_FIELDS(F)
#undef F
}

#define ERRORS(E) E(OK, "success") E(NOENT, "no such entry") E(PERM, "not permitted") E(BUSY, "resource busy")

typedef enum {
#define E(code, msg) ERR_##code,
    ERRORS(E)
#undef E
} err;

static const char *err_message(err e)
{
    switch (e) {
#define E(code, msg) case ERR_##code: return "ERR_" #code ": " msg;
        ERRORS(E)
#undef E
    }
    return "unknown";
}

static int count_fields(void)
{
    int n = 0;
#define F(type, name, def, fmt) n++;
    CONFIG_FIELDS(F)
#undef F
    return n;
}

int main(void)
{
    printf("%d colors\n", COLOR_COUNT);
    for (int c = 0; c < COLOR_COUNT; c++)
        printf("  %d %-5s #%06X\n", c, color_names[c], color_rgb[c]);
    struct config cfg = config_default();
    cfg.height *= 2;
    printf("config (%d fields):\n", count_fields());
    config_print(&cfg);
    for (err e = ERR_OK; e <= ERR_BUSY; e++)
        printf("%s\n", err_message(e));
    int found = -1;
    for (int c = 0; c < COLOR_COUNT; c++)
        if (strcmp(color_names[c], "BLUE") == 0)
            found = c;
    printf("lookup BLUE -> %d\n", found);
    return 0;
}
