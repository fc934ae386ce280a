/* Control flow: switch with fallthrough (explicit attributes), Duff's device, case ranges,
 * nested switches, goto-driven state machines, and labeled break/continue replacements. */
#include <stdio.h>
#include <string.h>

static int days_before_month(int month, int leap)
{
    int days = 0;
    switch (month) { /* intentional fallthrough accumulates the earlier months */
    case 12: days += 30; __attribute__((fallthrough));
    case 11: days += 31; __attribute__((fallthrough));
    case 10: days += 30; __attribute__((fallthrough));
    case 9: days += 31; __attribute__((fallthrough));
    case 8: days += 31; __attribute__((fallthrough));
    case 7: days += 30; __attribute__((fallthrough));
    case 6: days += 31; __attribute__((fallthrough));
    case 5: days += 30; __attribute__((fallthrough));
    case 4: days += 31; __attribute__((fallthrough));
    case 3: days += 28 + leap; __attribute__((fallthrough));
    case 2: days += 31; __attribute__((fallthrough));
    case 1: break;
    default: return -1;
    }
    return days;
}

static void duff_copy(char *to, const char *from, int count)
{
    int n = (count + 7) / 8;
    if (count <= 0)
        return;
    switch (count % 8) {
    case 0: do { *to++ = *from++; __attribute__((fallthrough));
    case 7:      *to++ = *from++; __attribute__((fallthrough));
    case 6:      *to++ = *from++; __attribute__((fallthrough));
    case 5:      *to++ = *from++; __attribute__((fallthrough));
    case 4:      *to++ = *from++; __attribute__((fallthrough));
    case 3:      *to++ = *from++; __attribute__((fallthrough));
    case 2:      *to++ = *from++; __attribute__((fallthrough));
    case 1:      *to++ = *from++;
            } while (--n > 0);
    }
}

static const char *classify(int c)
{
    switch (c) {
    case '0' ... '9': return "digit";
    case 'a' ... 'z':
    case 'A' ... 'Z': return "letter";
    case ' ': case '\t': case '\n': return "space";
    default: return "other";
    }
}

/* counts numbers in a string with a goto state machine: states are labels */
static int count_numbers(const char *s)
{
    int count = 0;
outside:
    if (!*s) goto done;
    if (*s >= '0' && *s <= '9') { count++; s++; goto inside; }
    s++;
    goto outside;
inside:
    if (!*s) goto done;
    if (*s >= '0' && *s <= '9') { s++; goto inside; }
    s++;
    goto outside;
done:
    return count;
}

int main(void)
{
    for (int m = 1; m <= 12; m += 3)
        printf("day of year of %d/1: %d (leap %d)\n", m, days_before_month(m, 0) + 1, days_before_month(m, 1) + 1);
    printf("month 13: %d\n", days_before_month(13, 0));
    for (int len = 0; len <= 17; len += 5) {
        char dst[32] = {0};
        duff_copy(dst, "abcdefghijklmnopqrstuvwxyz", len);
        printf("duff %2d: '%s'\n", len, dst);
    }
    const char *s = "a1 Z\t?";
    for (const char *p = s; *p; p++)
        printf("%s%s", p == s ? "classes:" : " ", classify(*p));
    printf("\nnumbers in \"12 apples, 7 pears and 300 plums\": %d\n", count_numbers("12 apples, 7 pears and 300 plums"));
    int grid[3][4] = {{1, 2, 3, 4}, {5, -6, 7, 8}, {9, 10, 11, 12}};
    int found_r = -1, found_c = -1;
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 4; c++)
            if (grid[r][c] < 0) {
                found_r = r;
                found_c = c;
                goto out;
            }
out:
    printf("first negative at (%d,%d)\n", found_r, found_c);
    int op = 2, kind = 1, result = 0;
    switch (op) {
    case 1: result = 10; break;
    case 2:
        switch (kind) {
        case 0: result = 20; break;
        case 1: result = 21; break;
        }
        result += 100;
        break;
    }
    printf("nested switch result=%d\n", result);
    return 0;
}
