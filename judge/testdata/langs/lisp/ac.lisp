;; The Clocks: moves 1-3 are tried in all 64 ways; each later move is then
;; forced by a dial only it can still turn; the fewest moves win.
(defparameter *cover* #("110110000" "111000000" "011011000" "100100100" "010111010"
                        "001001001" "000110110" "000000111" "000011011"))
(defparameter *forced* '((3 . 0) (4 . 1) (5 . 2) (6 . 3) (8 . 5) (7 . 6)))
(defun covers (m d) (char= (char (aref *cover* m) d) #\1))

(let ((dial (make-array 9)) (best nil))
  (dotimes (i 9) (setf (aref dial i) (read)))
  (dotimes (k 64)
    (let ((cnt (make-array 9 :initial-contents (list (mod k 4) (mod (floor k 4) 4) (floor k 16) 0 0 0 0 0 0))))
      (dolist (f *forced*)
        (let ((t1 (aref dial (cdr f))))
          (dotimes (m 9) (when (and (/= m (car f)) (covers m (cdr f))) (incf t1 (aref cnt m))))
          (setf (aref cnt (car f)) (mod (- 4 (mod t1 4)) 4))))
      (when (and (loop for d below 9
                       always (zerop (mod (+ (aref dial d) (loop for m below 9 when (covers m d) sum (aref cnt m))) 4)))
                 (or (null best) (< (reduce #'+ cnt) (reduce #'+ best))))
        (setf best cnt))))
  (format t "~{~a~^ ~}~%" (loop for m below 9 append (make-list (aref best m) :initial-element (1+ m)))))
