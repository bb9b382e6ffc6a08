// The Clocks: moves 1-3 are tried in all 64 ways; each later move is then
// forced by a dial only it can still turn; the fewest moves win.
const COVER = ["110110000", "111000000", "011011000", "100100100", "010111010",
  "001001001", "000110110", "000000111", "000011011"];
const FORCED = [[3, 0], [4, 1], [5, 2], [6, 3], [8, 5], [7, 6]];
const dial = require("fs").readFileSync(0, "utf8").trim().split(/\s+/).slice(0, 9).map(Number);
const sum = (a) => a.reduce((x, y) => x + y, 0);
let best = null;
for (let k = 0; k < 64; k++) {
  const cnt = [k % 4, Math.floor(k / 4) % 4, Math.floor(k / 16), 0, 0, 0, 0, 0, 0];
  for (const [mv, d] of FORCED) {
    let t = dial[d];
    for (let m = 0; m < 9; m++) if (m !== mv && COVER[m][d] === "1") t += cnt[m];
    cnt[mv] = (4 - t % 4) % 4;
  }
  let ok = true;
  for (let d = 0; d < 9; d++) {
    let t = dial[d];
    for (let m = 0; m < 9; m++) if (COVER[m][d] === "1") t += cnt[m];
    ok = ok && t % 4 === 0;
  }
  if (ok && (best === null || sum(cnt) < sum(best))) best = cnt;
}
const out = [];
best.forEach((c, m) => { for (let r = 0; r < c; r++) out.push(m + 1); });
console.log(out.join(" "));
