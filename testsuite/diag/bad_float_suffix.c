double d = 1.5q2;
double e = 0x1.8;
// ERROR 1:12: invalid suffix 'q2' on floating constant [E0102]
// ERROR 2:12: invalid floating constant '0x1.8' [E0102]
