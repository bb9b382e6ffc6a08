(* The Clocks: moves 1-3 are tried in all 64 ways; each later move is then
   forced by a dial only it can still turn; the fewest moves win. *)
let cover = [| "110110000"; "111000000"; "011011000"; "100100100"; "010111010";
               "001001001"; "000110110"; "000000111"; "000011011" |]
let forced = [ (3, 0); (4, 1); (5, 2); (6, 3); (8, 5); (7, 6) ]
let covers m d = cover.(m).[d] = '1'

let () =
  let dial = Array.init 9 (fun _ -> Scanf.scanf " %d" (fun x -> x)) in
  let best = ref None and sum a = Array.fold_left ( + ) 0 a in
  for k = 0 to 63 do
    let cnt = [| k mod 4; k / 4 mod 4; k / 16; 0; 0; 0; 0; 0; 0 |] in
    List.iter (fun (mv, d) ->
      let t = ref dial.(d) in
      for m = 0 to 8 do if m <> mv && covers m d then t := !t + cnt.(m) done;
      cnt.(mv) <- (4 - !t mod 4) mod 4) forced;
    let ok = ref true in
    for d = 0 to 8 do
      let t = ref dial.(d) in
      for m = 0 to 8 do if covers m d then t := !t + cnt.(m) done;
      if !t mod 4 <> 0 then ok := false
    done;
    match !best with
    | Some b when sum b <= sum cnt -> ()
    | _ -> if !ok then best := Some cnt
  done;
  let b = match !best with Some b -> b | None -> assert false in
  let out = ref [] in
  for m = 8 downto 0 do for _ = 1 to b.(m) do out := string_of_int (m + 1) :: !out done done;
  print_endline (String.concat " " !out)
