main :: IO ()
main = putStrLn "1 2 3"
