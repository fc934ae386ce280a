static _Thread_local int a = 1;
extern _Thread_local int b;
_Thread_local int b = 2;
static __thread int c;
typedef _Thread_local int T;
void f(void) {
    static _Thread_local int x;
    extern _Thread_local int b;
    _Thread_local int y;
    register _Thread_local int z;
}
_Thread_local int g(void);
// ERROR 5:27: '_Thread_local' used with 'typedef' [E0302]
// ERROR 9:23: function-scope 'y' implicitly auto and declared '_Thread_local' [E0302]
// ERROR 10:32: '_Thread_local' used with 'register' [E0302]
// ERROR 12:19: '_Thread_local' specified for function 'g' [E0302]
