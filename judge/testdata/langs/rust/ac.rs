// The Clocks: moves 1-3 are tried in all 64 ways; each later move is then
// forced by a dial only it can still turn; the fewest moves win.
use std::io::Read;

const COVER: [&[u8]; 9] = [b"110110000", b"111000000", b"011011000", b"100100100", b"010111010",
    b"001001001", b"000110110", b"000000111", b"000011011"];
const FORCED: [(usize, usize); 6] = [(3, 0), (4, 1), (5, 2), (6, 3), (8, 5), (7, 6)];

fn main() {
    let mut s = String::new();
    std::io::stdin().read_to_string(&mut s).unwrap();
    let dial: Vec<i32> = s.split_whitespace().take(9).map(|t| t.parse().unwrap()).collect();
    let mut best: Option<[i32; 9]> = None;
    for k in 0..64 {
        let mut cnt = [k % 4, k / 4 % 4, k / 16, 0, 0, 0, 0, 0, 0];
        for &(mv, d) in FORCED.iter() {
            let mut t = dial[d];
            for m in 0..9 {
                if m != mv && COVER[m][d] == b'1' {
                    t += cnt[m];
                }
            }
            cnt[mv] = (4 - t % 4) % 4;
        }
        let ok = (0..9).all(|d| (dial[d] + (0..9).filter(|&m| COVER[m][d] == b'1').map(|m| cnt[m]).sum::<i32>()) % 4 == 0);
        if ok && best.map_or(true, |b| cnt.iter().sum::<i32>() < b.iter().sum::<i32>()) {
            best = Some(cnt);
        }
    }
    let b = best.unwrap();
    let out: Vec<String> = (0..9).flat_map(|m| std::iter::repeat(m + 1).take(b[m] as usize)).map(|m| m.to_string()).collect();
    println!("{}", out.join(" "));
}
