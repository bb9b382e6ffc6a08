let () = print_endline missing
