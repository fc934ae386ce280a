/* qsort and bsearch with several comparators: integers, doubles (descending), strings,
 * structs by multiple keys, and a stable sort built by sorting indices. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct { const char *name; int age; double score; } person;

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

static int cmp_double_desc(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x < y) - (x > y);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int cmp_person(const void *a, const void *b)
{
    const person *p = a, *q = b;
    if (p->age != q->age)
        return p->age - q->age;
    if (p->score != q->score)
        return p->score < q->score ? 1 : -1;
    return strcmp(p->name, q->name);
}

static const person *people_for_index;

static int cmp_index_by_age(const void *a, const void *b)
{
    int i = *(const int *)a, j = *(const int *)b;
    int d = people_for_index[i].age - people_for_index[j].age;
    return d ? d : i - j; /* ties keep the original order: a stable sort */
}

int main(void)
{
    int nums[] = {42, -7, 19, 0, 88, 19, -100, 3, 56, 21};
    size_t nn = sizeof nums / sizeof nums[0];
    qsort(nums, nn, sizeof nums[0], cmp_int);
    printf("ints:");
    for (size_t i = 0; i < nn; i++)
        printf(" %d", nums[i]);
    int keys[] = {19, 4, -100, 88};
    for (size_t k = 0; k < 4; k++) {
        int *hit = bsearch(&keys[k], nums, nn, sizeof nums[0], cmp_int);
        printf("%s%d:%s", k ? ", " : "\nbsearch ", keys[k], hit ? "found" : "missing");
        if (hit && *hit != 19)
            printf("@%td", hit - nums);
    }
    double ds[] = {2.5, -1.25, 3.75, 0.0, 1e-3, 2.5};
    qsort(ds, 6, sizeof ds[0], cmp_double_desc);
    printf("\ndoubles desc:");
    for (int i = 0; i < 6; i++)
        printf(" %.6g", ds[i]);
    const char *words[] = {"pear", "apple", "fig", "banana", "cherry", "date", "apricot"};
    size_t nw = sizeof words / sizeof words[0];
    qsort(words, nw, sizeof words[0], cmp_str);
    printf("\nwords:");
    for (size_t i = 0; i < nw; i++)
        printf(" %s", words[i]);
    const char *want = "date";
    const char **found = bsearch(&want, words, nw, sizeof words[0], cmp_str);
    printf("\n'date' at index %td\n", found ? found - words : -1);
    person people[] = {{"ann", 31, 88.5}, {"bob", 25, 92.0}, {"cy", 31, 95.25}, {"dee", 25, 92.0},
                       {"eve", 40, 70.0}, {"fay", 31, 88.5}};
    size_t np = sizeof people / sizeof people[0];
    int idx[6];
    for (int i = 0; i < 6; i++)
        idx[i] = i;
    people_for_index = people;
    qsort(idx, np, sizeof idx[0], cmp_index_by_age);
    printf("stable by age:");
    for (size_t i = 0; i < np; i++)
        printf(" %s", people[idx[i]].name);
    qsort(people, np, sizeof people[0], cmp_person);
    printf("\nby age, score desc, name:\n");
    for (size_t i = 0; i < np; i++)
        printf("  %-4s %d %.2f\n", people[i].name, people[i].age, people[i].score);
    return 0;
}
