const char *s = "abc;
int x;
// ERROR 1:17: missing terminating " character [E0103]
// ERROR 2:1: expected ';', found 'int' [E0101]
