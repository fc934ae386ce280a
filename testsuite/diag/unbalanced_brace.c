int f(int a) {
    return a;
}
}
// ERROR 4:1: expected declaration, found '}' [E0101]
