int add(a, b)
    int a;
    int c;
{
    return a + b;
}
// ERROR 1:9: K&R-style function definitions (parameter names without types) are not supported: declare each parameter's type in the parentheses [E0101]
