<?php
// The Clocks: moves 1-3 are tried in all 64 ways; each later move is then
// forced by a dial only it can still turn; the fewest moves win.
$cover = ["110110000", "111000000", "011011000", "100100100", "010111010",
    "001001001", "000110110", "000000111", "000011011"];
$forced = [[3, 0], [4, 1], [5, 2], [6, 3], [8, 5], [7, 6]];
$dial = array_map('intval', array_slice(preg_split('/\s+/', trim(stream_get_contents(STDIN))), 0, 9));
$best = null;
for ($k = 0; $k < 64; $k++) {
    $cnt = [$k % 4, intdiv($k, 4) % 4, intdiv($k, 16), 0, 0, 0, 0, 0, 0];
    foreach ($forced as [$mv, $d]) {
        $t = $dial[$d];
        for ($m = 0; $m < 9; $m++) if ($m != $mv && $cover[$m][$d] == '1') $t += $cnt[$m];
        $cnt[$mv] = (4 - $t % 4) % 4;
    }
    $ok = true;
    for ($d = 0; $d < 9; $d++) {
        $t = $dial[$d];
        for ($m = 0; $m < 9; $m++) if ($cover[$m][$d] == '1') $t += $cnt[$m];
        $ok = $ok && $t % 4 == 0;
    }
    if ($ok && ($best === null || array_sum($cnt) < array_sum($best))) $best = $cnt;
}
$out = [];
for ($m = 0; $m < 9; $m++) for ($r = 0; $r < $best[$m]; $r++) $out[] = $m + 1;
echo implode(' ', $out), "\n";
