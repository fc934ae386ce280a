int f(int x, double d) {
    switch (x) {
    case 1: return 1;
    case 1: return 2;
    default: break;
    default: break;
    }
    switch (d) { case 0: break; }
    continue;
    return 0;
}
// ERROR 4:10: duplicate case value [E0504]
// ERROR 6:5: multiple default labels in one switch [E0504]
// ERROR 8:13: switch quantity not an integer (type 'double') [E0505]
// ERROR 9:5: continue statement not within a loop [E0507]
