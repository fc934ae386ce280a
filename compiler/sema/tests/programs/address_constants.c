/* Address constants gcc accepts in static initializers. */
struct S { int a; int arr[4]; struct { char c[3]; } in; } s;
int x, arr[10], mat[3][4];
void fn(void);
int *p1 = &s.arr[2];
int *p2 = s.arr + 1;
char *p3 = s.in.c;
int *p4 = &mat[1][2];
int *p5 = mat[2];
int (*p6)[4] = mat + 1;
void (*p7)(void) = fn;
void (*p8)(void) = &fn;
long p9 = (long)&x;
int *p10 = &arr[3] - 1;
const char *p11 = "abc" + 1;
int *p12 = (int *)&s;
char *p13 = (char *)&s + 4;
int *p14 = &*&x;
int **p15 = (int *[]){ &x, 0 };
void *p16 = (void *)(long)4096;
int p17 = (int)sizeof(struct S);
void fn(void) {}
int main(void) { return *p1 + *p2 + p3[0] + *p4 + *p5 + (int)p9 + *p10 + p11[0] + *p12 + p13[0] + *p14 + **p15 + (p16 != 0) + p17 + (p7 == p8) + (**p6); }
