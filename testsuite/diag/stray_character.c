int f(int a) {
    return a @ 2;
}
// ERROR 2:14: stray '@' in program [E0100]
// ERROR 2:16: expected ';', found integer constant [E0101]
