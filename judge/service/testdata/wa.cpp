// Prints one wrong move for every input -> WA on the first test.
#include <cstdio>
int main() { std::puts("1"); }
