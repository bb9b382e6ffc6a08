#include <stdio.h>
#include <string.h>

int main(void) {
    int lo = 1, hi = 1000;
    char answer[16];
    for (;;) {
        int g = (lo + hi) / 2;
        printf("? %d\n", g);
        fflush(stdout);
        if (scanf("%15s", answer) != 1 || strcmp(answer, "found") == 0) return 0;
        if (strcmp(answer, "less") == 0) hi = g - 1;
        else lo = g + 1;
    }
}
