# Exits with status 3 at once -> RE.
raise SystemExit(3)
