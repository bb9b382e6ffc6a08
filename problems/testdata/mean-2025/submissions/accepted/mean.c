#include <stdio.h>

int main(void) {
    int n;
    long long sum = 0, x;
    if (scanf("%d", &n) != 1) return 1;
    for (int i = 0; i < n; i++) {
        if (scanf("%lld", &x) != 1) return 1;
        sum += x;
    }
    printf("%.10f\n", (double)sum / n);
    return 0;
}
