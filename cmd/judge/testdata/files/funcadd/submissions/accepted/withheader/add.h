// the package's add.h replaces this one: it would not compile
int add(int a, int b, int c);
