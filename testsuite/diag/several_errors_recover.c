int a(void) { return 1 + ; }
int b(void) { int = 3; return 0; }
int c(void) { while (1 { } return 0; }
int ok(void) { return 0; }
// ERROR 1:26: expected expression, found ';' [E0101]
// ERROR 2:19: expected identifier or '(', found '=' [E0101]
// ERROR 3:24: expected ')', found '{' [E0101]
