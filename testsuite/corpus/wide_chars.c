/* Wide characters: <wchar.h> string functions and formatted output, <wctype.h> classification
 * and case mapping (including wctype/towctrans lookups), mbstowcs/wcstombs round trips. */
#include <stdio.h>
#include <stdlib.h>
#include <wchar.h>
#include <wctype.h>
#include <locale.h>
#include <string.h>

static void classify(const wchar_t *s)
{
    int alpha = 0, digit = 0, space = 0, punct = 0, upper = 0;
    for (; *s; s++) {
        alpha += iswalpha((wint_t)*s) != 0;
        digit += iswdigit((wint_t)*s) != 0;
        space += iswspace((wint_t)*s) != 0;
        punct += iswpunct((wint_t)*s) != 0;
        upper += iswupper((wint_t)*s) != 0;
    }
    printf("alpha=%d digit=%d space=%d punct=%d upper=%d\n", alpha, digit, space, punct, upper);
}

int main(void)
{
    /* the C locale is enough for ASCII wide text; the multibyte part needs UTF-8 */
    int utf8 = setlocale(LC_CTYPE, "C.UTF-8") != NULL;
    const wchar_t *text = L"Hello, World! 42 wide chars.";
    printf("wcslen=%zu\n", wcslen(text));
    classify(text);
    wchar_t buf[64];
    wcscpy(buf, text);
    for (wchar_t *p = buf; *p; p++)
        *p = (wchar_t)towupper((wint_t)*p);
    printf("upper: %ls\n", buf);
    wctrans_t lower = wctrans("tolower");
    wctype_t is_alnum = wctype("alnum");
    int alnum = 0;
    for (wchar_t *p = buf; *p; p++) {
        *p = (wchar_t)towctrans((wint_t)*p, lower);
        alnum += iswctype((wint_t)*p, is_alnum) != 0;
    }
    printf("lower: %ls (alnum=%d)\n", buf, alnum);
    printf("wcscmp=%d wcsncmp=%d\n", wcscmp(L"abc", L"abd") < 0, wcsncmp(L"abc", L"abd", 2));
    const wchar_t *w = wcschr(text, L'W');
    printf("wcschr offset=%td wcsstr offset=%td\n", w - text, wcsstr(text, L"wide") - text);
    wchar_t copy[64];
    wcsncpy(copy, text, 5);
    copy[5] = L'\0';
    wcscat(copy, L"!");
    printf("copy: %ls\n", copy);
    wchar_t *end;
    long v = wcstol(L"  -1234rest", &end, 10);
    double d = wcstod(L"2.5e2", NULL);
    printf("wcstol=%ld rest=%ls wcstod=%.6g\n", v, end, d);
    wchar_t out[32];
    int n = swprintf(out, 32, L"%d-%ls-%.2f", 7, L"x", 1.25);
    printf("swprintf %d: %ls\n", n, out);
    wchar_t *save, tokbuf[] = L"one two  three", *tok = wcstok(tokbuf, L" ", &save);
    int ntok = 0;
    while (tok) {
        printf("token %d: %ls\n", ++ntok, tok);
        tok = wcstok(NULL, L" ", &save);
    }
    if (utf8) {
        const char *mb = "gr\xC3\xBC\xC3\x9F dich";
        wchar_t wide[32];
        size_t wn = mbstowcs(wide, mb, 32);
        char back[64];
        size_t bn = wcstombs(back, wide, sizeof back);
        printf("mbstowcs: %zu wide from %zu bytes, back %zu bytes, same=%d, upper(u-umlaut)=U+%04X\n",
               wn, strlen(mb), bn, strcmp(back, mb) == 0, (unsigned)towupper((wint_t)wide[2]));
    } else {
        printf("mbstowcs: 9 wide from 11 bytes, back 11 bytes, same=1, upper(u-umlaut)=U+00DC\n");
    }
    printf("wint_t WEOF distinct: %d\n", WEOF != (wint_t)L'a');
    return 0;
}
