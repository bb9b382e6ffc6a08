#include <stdio.h>
void greet(void) { puts("Hello World!"); }
