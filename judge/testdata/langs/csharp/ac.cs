// The Clocks: moves 1-3 are tried in all 64 ways; each later move is then
// forced by a dial only it can still turn; the fewest moves win.
using System;
using System.Collections.Generic;
using System.Linq;

class Clocks {
    static readonly string[] Cover = {"110110000", "111000000", "011011000", "100100100", "010111010",
        "001001001", "000110110", "000000111", "000011011"};
    static readonly int[,] Forced = {{3, 0}, {4, 1}, {5, 2}, {6, 3}, {8, 5}, {7, 6}};

    static void Main() {
        int[] dial = Console.In.ReadToEnd().Split((char[])null, StringSplitOptions.RemoveEmptyEntries).Take(9).Select(int.Parse).ToArray();
        int[] best = null;
        for (int k = 0; k < 64; k++) {
            int[] cnt = {k % 4, k / 4 % 4, k / 16, 0, 0, 0, 0, 0, 0};
            for (int f = 0; f < 6; f++) {
                int mv = Forced[f, 0], d = Forced[f, 1], t = dial[d];
                for (int m = 0; m < 9; m++) if (m != mv && Cover[m][d] == '1') t += cnt[m];
                cnt[mv] = (4 - t % 4) % 4;
            }
            bool ok = true;
            for (int d = 0; d < 9; d++) {
                int t = dial[d];
                for (int m = 0; m < 9; m++) if (Cover[m][d] == '1') t += cnt[m];
                ok = ok && t % 4 == 0;
            }
            if (ok && (best == null || cnt.Sum() < best.Sum())) best = cnt;
        }
        var outs = new List<string>();
        for (int m = 0; m < 9; m++) for (int r = 0; r < best[m]; r++) outs.Add((m + 1).ToString());
        Console.WriteLine(string.Join(" ", outs));
    }
}
