/* Sums in a 32-bit int: right on the small group, wrong where the sum
   leaves the range of int (unsigned arithmetic keeps the wrap defined). */
#include <stdio.h>

int main(void) {
    int n, x;
    unsigned sum = 0;
    if (scanf("%d", &n) != 1) return 1;
    for (int i = 0; i < n; i++) {
        if (scanf("%d", &x) != 1) return 1;
        sum += (unsigned)x;
    }
    printf("%.10f\n", (double)(int)sum / n);
    return 0;
}
