int total(int);
long total(int);
int value = 1;
int value = 2;
void g(void) { int k; int k; }
// ERROR 2:6: conflicting types for 'total'; have 'long (int)' [E0314]
// ERROR 4:5: redefinition of 'value' [E0317]
// ERROR 5:27: redeclaration of 'k' with no linkage [E0315]
