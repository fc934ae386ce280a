void f(int n) {
    if (n) goto done;
again:
    n--;
again:
    return;
}
// ERROR 5:1: duplicate label 'again' [E0502]
// ERROR 2:17: label 'done' used but not defined [E0508]
