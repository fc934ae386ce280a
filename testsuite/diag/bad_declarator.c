int 3x;
int (*fp)(int;
// ERROR 1:5: expected identifier or '(', found integer constant [E0101]
// ERROR 2:14: expected ')', found ';' [E0101]
