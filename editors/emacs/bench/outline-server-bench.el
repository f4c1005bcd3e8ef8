;;; outline-server-bench.el --- How fast the pane is on the Debian package outline  -*- lexical-binding: t; -*-

;;; Commentary:

;; Run by editors/emacs/bench/run.  Prints figures; asserts nothing.
;; Keys are pressed as a user presses them (`execute-kbd-macro'); a
;; figure is wall-clock time, from the key to the moment the pane has
;; nothing left under way, unless it says otherwise.

;;; Code:

(require 'cl-lib)
(require 'outline-server)

(defvar osb-file nil "The Debian package outline.")

(setq large-file-warning-threshold nil create-lockfiles nil auto-save-default nil)

(defun osb-wait (pred)
  "Read the server's answers until PRED holds (at most two minutes)."
  (let ((deadline (+ (float-time) 120)))
    (while (not (funcall pred))
      (when (> (float-time) deadline) (error "Timed out"))
      (accept-process-output nil 0.001))))

(defun osb-settled (pane)
  "Wait until PANE has nothing under way."
  (osb-wait (lambda () (outline-server-pane-settled-p pane))))

(defmacro osb-time (&rest body)
  "Seconds BODY takes."
  `(let ((t0 (float-time))) ,@body (- (float-time) t0)))

(defun osb-ms (s) "S seconds in milliseconds." (format "%.1f ms" (* 1000 s)))

(defvar osb-chunks nil "Durations of the pane's work in the process filter and in timers.")

(defun osb-record (f &rest args)
  "Run F with ARGS, noting how long it held Emacs."
  (let ((t0 (float-time)))
    (prog1 (apply f args) (push (- (float-time) t0) osb-chunks))))

(defun osb-main ()
  "Print the figures."
  (let* ((file osb-file) pane src first-drawn)
    (message "server: %s" (outline-server--program))
    (message "outline: %s (%d bytes)" file (file-attribute-size (file-attributes file)))
    (find-file file)
    (setq src (current-buffer))
    (let ((s (osb-time (execute-kbd-macro (kbd "M-x outline-server-open RET"))
                       (setq pane (window-buffer))
                       (osb-settled pane))))
      (message "open (the server reads the file), %d groups drawn: %.2f s"
               (outline-server--pane-count (buffer-local-value 'outline-server--pane pane)) s))
    ;; Expand all: when the rows at the window are drawn, and when all are held.
    (advice-add 'outline-server--put :after
                (lambda (&rest _) (unless first-drawn (setq first-drawn (float-time)))))
    (dolist (round '(1 2))
      (setq first-drawn nil)
      (let* ((t0 (float-time))
             (s (osb-time (execute-kbd-macro (kbd "z R")) (osb-settled pane)))
             (n (outline-server--pane-count (buffer-local-value 'outline-server--pane pane))))
        (message "expand all (%d): the window's rows drawn after %s; all %s items held after %.2f s"
                 round (osb-ms (- first-drawn t0)) (outline-server--thousands n) s))
      (when (= round 1)
        (execute-kbd-macro (kbd "z M"))
        (osb-settled pane)))
    ;; Toggles in the expanded list: a group of 1,500 rows, and a small one.
    (let ((close (osb-time (execute-kbd-macro (kbd "M-< TAB")) (osb-settled pane)))
          (open (osb-time (execute-kbd-macro (kbd "TAB")) (osb-settled pane))))
      (message "toggle the first group (%s rows) in the expanded list: close %s, open %s"
               (with-current-buffer pane
                 (replace-regexp-in-string ".*  [0-9]+/\\([0-9]+\\)$" "\\1" (ost-bench-line)))
               (osb-ms close) (osb-ms open)))
    (execute-kbd-macro (kbd "n"))
    (let ((close (osb-time (execute-kbd-macro (kbd "TAB")) (osb-settled pane)))
          (open (osb-time (execute-kbd-macro (kbd "TAB")) (osb-settled pane))))
      (message "toggle a small group (%s) in the expanded list: close %s, open %s"
               (with-current-buffer pane (string-trim (ost-bench-line))) (osb-ms close) (osb-ms open)))
    ;; Keystrokes in the YAML buffer, in the middle of the file.
    (select-window (get-buffer-window src))
    (goto-char (/ (point-max) 2))
    (re-search-forward "title: \"")
    (let ((keys nil) (title (buffer-substring-no-properties (point) (1- (line-end-position)))))
      (dotimes (_ 20)
        (push (osb-time (execute-kbd-macro (kbd "X"))) keys))
      (setq keys (sort keys #'<))
      (message "a keystroke in the YAML buffer (self-insert and the pane's hooks), 20 of them: median %s, max %s"
               (osb-ms (nth 10 keys)) (osb-ms (car (last keys))))
      ;; Typing stops: the edits go out after the debounce, the server loads the text again,
      ;; the pane applies the answer.
      (setq osb-chunks nil)
      (advice-add 'outline-server--sync :around #'osb-record)
      (advice-add 'outline-server--apply-result :around #'osb-record)
      (let ((t0 (float-time)) (v (outline-server--pane-version (buffer-local-value 'outline-server--pane pane))))
        (osb-settled pane)
        (message "the pane shows the edit %.2f s after typing stops (%.2f s of it the debounce)%s"
                 (- (float-time) t0) outline-server-sync-delay
                 (if (> (outline-server--pane-version (buffer-local-value 'outline-server--pane pane)) v)
                     "" " (but the version did not move!)")))
      (ignore title)
      (message "Emacs held, sending the edits and applying the answer: %s"
               (mapconcat #'osb-ms (reverse osb-chunks) ", "))
      (advice-remove 'outline-server--sync #'osb-record)
      (advice-remove 'outline-server--apply-result #'osb-record))
    (with-current-buffer src (set-buffer-modified-p nil))
    (outline-server-stop)))

(defun ost-bench-line ()
  "The line at point."
  (buffer-substring-no-properties (line-beginning-position) (line-end-position)))

(provide 'outline-server-bench)
;;; outline-server-bench.el ends here
