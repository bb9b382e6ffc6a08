(error "broken")
