#include <cstdio>
#include "add.h"

int main() {
    long a, b;
    if (std::scanf("%ld %ld", &a, &b) != 2) return 1;
    std::printf("%ld\n", {{base}} + add(a, b));
}
