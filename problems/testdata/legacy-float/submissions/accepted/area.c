#include <stdio.h>

int main(void) {
    int r;
    if (scanf("%d", &r) != 1) return 1;
    printf("%.12e\n", 3.14159265358979323846 * r * r);
    return 0;
}
