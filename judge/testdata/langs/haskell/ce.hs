main :: IO ()
main = putStrLn missing
