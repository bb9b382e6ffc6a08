#include <cstdio>
int main() { printf("%d\n", missing); }
