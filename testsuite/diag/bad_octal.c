int x = 0128;
int y = 0x;
// ERROR 1:9: invalid digit '8' in octal constant [E0102]
// ERROR 2:9: invalid integer constant '0x' [E0102]
