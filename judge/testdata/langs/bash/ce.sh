if then
  echo 1
