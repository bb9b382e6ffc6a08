let () = print_endline "1 2 3"
