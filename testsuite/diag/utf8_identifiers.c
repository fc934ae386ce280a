int été = 1;
int f(void) { return été + \u00e9t\u00e9 + \U000000e9té; }
int g(void) { return été_non_déclaré; }
// ERROR 3:22: 'été_non_déclaré' undeclared [E0410]
