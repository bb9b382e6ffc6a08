# Drops repeated numbers: right on the sample, wrong on secret/02.
# @EXPECTED_RESULTS@: WRONG-ANSWER
input()
print(*sorted(set(map(int, input().split()))))
