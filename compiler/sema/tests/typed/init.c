struct in { short s; char c[3]; };
struct out { int a; struct in in[2]; unsigned b : 5, c : 7; union { float f; int i; }; };
struct out o = { 1, { { 2, "ab" }, 3, 4, 5 }, .c = 6, .i = 7 };
int grid[2][3] = { 1, 2, 3, [1][1] = 9 };
char word[] = "tree";
double ramp[6] = { [1 ... 3] = 1.5 };
int *cl = (int[]){ 10, 20 };
