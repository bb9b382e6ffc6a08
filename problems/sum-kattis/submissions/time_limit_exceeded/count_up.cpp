// Tries A = 0, 1, 2, ... until neither A nor N - A has a digit 4: right, but
// for N = 444444444444444444 the first such A is above 10^17.
#include <cstdio>

static bool no_four(unsigned long long x) {
    for (; x > 0; x /= 10)
        if (x % 10 == 4) return false;
    return true;
}

int main() {
    int t;
    if (std::scanf("%d", &t) != 1) return 1;
    while (t--) {
        unsigned long long n;
        std::scanf("%llu", &n);
        unsigned long long a = 0;
        while (!(no_four(a) && no_four(n - a))) a++;
        std::printf("%llu %llu\n", a, n - a);
    }
}
