(format t "~a~%" (+ 1 2)
