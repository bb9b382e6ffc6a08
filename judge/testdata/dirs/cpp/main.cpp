// A submission of several files: main reads the dials, moves.cpp solves.
#include <iostream>
#include "moves.h"

int main() {
	int dial[9];
	for (int &d : dial)
		std::cin >> d;
	std::cout << moves(dial) << "\n";
}
