#include <stdio.h>
void greet(void);
int main(void) { greet(); return 0; }
