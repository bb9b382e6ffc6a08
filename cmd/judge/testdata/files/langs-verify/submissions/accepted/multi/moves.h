#include <string>

// moves is the shortest plan for the dials, its moves in ascending order.
std::string moves(const int dial[9]);
