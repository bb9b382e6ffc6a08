#include <vector>
int main() { std::vector<int> v; return v.at(3); }
