typedef struct { int a; int b; } T;
T mk(int p0, int p1, int p2, int p3, int p4, int p5, int p6, int p7, int p8) { T o; o.a = p0; o.b = p1; return o; }
