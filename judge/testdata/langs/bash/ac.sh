# The Clocks: moves 1-3 are tried in all 64 ways; each later move is then
# forced by a dial only it can still turn; the fewest moves win.
cover=(110110000 111000000 011011000 100100100 010111010 001001001 000110110 000000111 000011011)
forced=(3 0 4 1 5 2 6 3 8 5 7 6)
read -r -d '' -a dial
bestsum=99
for ((k = 0; k < 64; k++)); do
  cnt=($((k % 4)) $((k / 4 % 4)) $((k / 16)) 0 0 0 0 0 0)
  for ((f = 0; f < 12; f += 2)); do
    mv=${forced[f]} d=${forced[f + 1]}
    t=${dial[d]}
    for ((m = 0; m < 9; m++)); do
      if ((m != mv)) && [[ ${cover[m]:d:1} == 1 ]]; then t=$((t + cnt[m])); fi
    done
    cnt[mv]=$(((4 - t % 4) % 4))
  done
  ok=1 sum=0
  for ((d = 0; d < 9; d++)); do
    t=${dial[d]}
    for ((m = 0; m < 9; m++)); do
      if [[ ${cover[m]:d:1} == 1 ]]; then t=$((t + cnt[m])); fi
    done
    if ((t % 4 != 0)); then ok=0; fi
    sum=$((sum + cnt[d]))
  done
  if ((ok && sum < bestsum)); then best=("${cnt[@]}") bestsum=$sum; fi
done
out=()
for ((m = 0; m < 9; m++)); do
  for ((i = 0; i < best[m]; i++)); do out+=($((m + 1))); done
done
echo "${out[*]}"
