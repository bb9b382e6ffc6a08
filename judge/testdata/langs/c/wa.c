#include <stdio.h>
int main(void) { printf("1 2 3\n"); return 0; }
