// The Clocks: moves 1-3 are tried in all 64 ways; each later move is then
// forced by a dial only it can still turn; the fewest moves win.
#include <array>
#include <string>
#include "moves.h"

std::string moves(const int dial[9]) {
	const std::array<std::string, 9> cover{"110110000", "111000000", "011011000", "100100100", "010111010",
	                                       "001001001", "000110110", "000000111", "000011011"};
	const int forced[6][2] = {{3, 0}, {4, 1}, {5, 2}, {6, 3}, {8, 5}, {7, 6}};
	std::array<int, 9> best{};
	int bestn = -1;
	for (int k = 0; k < 64; k++) {
		std::array<int, 9> cnt{k % 4, k / 4 % 4, k / 16};
		for (auto &f : forced) {
			int t = dial[f[1]];
			for (int m = 0; m < 9; m++)
				if (m != f[0] && cover[m][f[1]] == '1')
					t += cnt[m];
			cnt[f[0]] = (4 - t % 4) % 4;
		}
		bool ok = true;
		int n = 0;
		for (int d = 0; d < 9; d++) {
			int t = dial[d];
			for (int m = 0; m < 9; m++)
				if (cover[m][d] == '1')
					t += cnt[m];
			ok = ok && t % 4 == 0;
			n += cnt[d];
		}
		if (ok && (bestn < 0 || n < bestn))
			bestn = n, best = cnt;
	}
	std::string out;
	for (int m = 0; m < 9; m++)
		for (int r = 0; r < best[m]; r++)
			out += (out.empty() ? "" : " ") + std::to_string(m + 1);
	return out;
}
