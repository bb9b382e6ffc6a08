raise "broken"
