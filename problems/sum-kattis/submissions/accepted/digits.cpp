// Every digit 4 of N becomes 1 in A and 3 in B; every other digit goes to B.
#include <cstdio>

int main() {
    int t;
    if (std::scanf("%d", &t) != 1) return 1;
    while (t--) {
        char s[32];
        std::scanf("%31s", s);
        unsigned long long a = 0, b = 0;
        for (char *p = s; *p; p++) {
            int d = *p - '0';
            a = a * 10 + (d == 4 ? 1 : 0);
            b = b * 10 + (d == 4 ? 3 : d);
        }
        std::printf("%llu %llu\n", a, b);
    }
}
