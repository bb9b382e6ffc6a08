/* The Clocks: moves 1-3 are tried in all 64 ways; each later move is then
 * forced by a dial only it can still turn; the fewest moves win. */
#include <stdio.h>

static const char *cover[9] = {"110110000", "111000000", "011011000", "100100100", "010111010",
                               "001001001", "000110110", "000000111", "000011011"};
static const int forced[6][2] = {{3, 0}, {4, 1}, {5, 2}, {6, 3}, {8, 5}, {7, 6}};

int main(void) {
	int dial[9], best[9], bestn = -1;
	for (int i = 0; i < 9; i++)
		if (scanf("%d", &dial[i]) != 1)
			return 1;
	for (int k = 0; k < 64; k++) {
		int cnt[9] = {k % 4, k / 4 % 4, k / 16};
		for (int f = 0; f < 6; f++) {
			int mv = forced[f][0], d = forced[f][1], t = dial[d];
			for (int m = 0; m < 9; m++)
				if (m != mv && cover[m][d] == '1')
					t += cnt[m];
			cnt[mv] = (4 - t % 4) % 4;
		}
		int ok = 1, n = 0;
		for (int d = 0; d < 9; d++) {
			int t = dial[d];
			for (int m = 0; m < 9; m++)
				if (cover[m][d] == '1')
					t += cnt[m];
			ok &= t % 4 == 0;
		}
		for (int m = 0; m < 9; m++)
			n += cnt[m];
		if (ok && (bestn < 0 || n < bestn)) {
			bestn = n;
			for (int m = 0; m < 9; m++)
				best[m] = cnt[m];
		}
	}
	const char *sep = "";
	for (int m = 0; m < 9; m++)
		for (int r = 0; r < best[m]; r++, sep = " ")
			printf("%s%d", sep, m + 1);
	printf("\n");
	return 0;
}
