-- The Clocks: moves 1-3 are tried in all 64 ways; each later move is then
-- forced by a dial only it can still turn; the fewest moves win.
import Data.List (minimumBy)
import Data.Ord (comparing)

cover :: [String]
cover = ["110110000", "111000000", "011011000", "100100100", "010111010",
         "001001001", "000110110", "000000111", "000011011"]

covers :: Int -> Int -> Bool
covers m d = (cover !! m) !! d == '1'

forced :: [(Int, Int)]
forced = [(3, 0), (4, 1), (5, 2), (6, 3), (8, 5), (7, 6)]

set :: Int -> Int -> [Int] -> [Int]
set i v xs = take i xs ++ [v] ++ drop (i + 1) xs

solve :: [Int] -> Int -> [Int]
solve dial k = foldl step [k `mod` 4, k `div` 4 `mod` 4, k `div` 16, 0, 0, 0, 0, 0, 0] forced
  where
    step cnt (mv, d) =
      let t = dial !! d + sum [cnt !! m | m <- [0 .. 8], m /= mv, covers m d]
       in set mv ((4 - t `mod` 4) `mod` 4) cnt

ok :: [Int] -> [Int] -> Bool
ok dial cnt = and [(dial !! d + sum [cnt !! m | m <- [0 .. 8], covers m d]) `mod` 4 == 0 | d <- [0 .. 8]]

main :: IO ()
main = do
  dial <- map read . take 9 . words <$> getContents
  let best = minimumBy (comparing sum) (filter (ok dial) (map (solve dial) [0 .. 63]))
  putStrLn (unwords [show (m + 1) | m <- [0 .. 8], _ <- [1 .. best !! m]])
