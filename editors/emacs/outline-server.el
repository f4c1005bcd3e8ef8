;;; outline-server.el --- Outline pane driven by outline-server  -*- lexical-binding: t; -*-

;; Package-Requires: ((emacs "28.1") (jsonrpc "1.0.14"))

;;; Commentary:
;; M-x outline-server-open shows the outline of the current YAML buffer (or,
;; with a prefix argument, of a file) in a side window.  In the pane:
;; RET, o, TAB or z a toggle the group at point; z R / z M expand / collapse all.

;;; Code:
(require 'jsonrpc)
(require 'cl-lib)
(require 'subr-x)
(require 'url-util)

(defgroup outline-server nil "Outline pane driven by outline-server." :group 'tools)
(defcustom outline-server-program nil
  "Path of outline-server; nil means $OUTLINE_SERVER, else outline-server on PATH."
  :type '(choice (const nil) string))
(defcustom outline-server-width 40 "Width of the pane window." :type 'integer)
(defcustom outline-server-debounce 0.15 "Seconds between an edit and changeOutline." :type 'number)

(defvar outline-server--conn nil)
(defvar-local outline-server--pane nil "State of a pane buffer (plist-like alist).")
(defvar-local outline-server-diagnostics nil "Diagnostics of a source buffer (server plists).")
(defvar-local outline-server--source-pane nil)

(defun outline-server--program ()
  (or outline-server-program (let ((e (getenv "OUTLINE_SERVER"))) (and e (not (string= e "")) e))
      "outline-server"))

(defun outline-server--on-notification (_conn method params)
  (when (eq method 'outlineChanged)
    (dolist (buf (buffer-list))
      (with-current-buffer buf
        (when (and outline-server--pane (equal (alist-get 'uri outline-server--pane) (plist-get params :uri)))
          (outline-server--refresh buf))))))

(defun outline-server-connection ()
  "The running connection, started and initialized on first use."
  (unless (and outline-server--conn (jsonrpc-running-p outline-server--conn))
    (let* ((proc (make-process :name "outline-server" :command (list (outline-server--program))
                               :connection-type 'pipe :coding 'utf-8-emacs-unix :noquery t
                               :stderr (get-buffer-create "*outline-server stderr*")))
           (conn (make-instance 'jsonrpc-process-connection :name "outline-server" :process proc
                                :events-buffer-scrollback-size 0
                                :notification-dispatcher #'outline-server--on-notification
                                :request-dispatcher (lambda (&rest _) (jsonrpc-error "not supported")))))
      (jsonrpc-request conn :initialize
                       '(:clientInfo (:name "emacs-outline")
                         :capabilities (:general (:positionEncodings ["utf-32"]))))
      (jsonrpc-notify conn :initialized '(:dummy t))
      (setq outline-server--conn conn)))
  outline-server--conn)

(defun outline-server-stop ()
  "Shut the server down: shutdown, exit.  Return its exit status."
  (when outline-server--conn
    (let* ((conn outline-server--conn) (proc (jsonrpc--process conn)))
      (setq outline-server--conn nil)
      (when (process-live-p proc)
        (ignore-errors (jsonrpc-request conn :shutdown nil :timeout 3))
        (ignore-errors (jsonrpc-notify conn :exit nil))
        (with-timeout (3 (delete-process proc))
          (while (process-live-p proc) (accept-process-output proc 0.01))))
      (process-exit-status proc))))

(defun outline-server--request (method params)
  "Return (RESULT . nil) or (nil . ERROR-ALIST)."
  (condition-case err
      (cons (jsonrpc-request (outline-server-connection) method params :timeout 5) nil)
    (jsonrpc-error (cons nil (cdr err)))))

;;; Wrapping, as the server counts lines

(defun outline-server--cw (ch) (char-width ch))

(defun outline-server--tokens (line)
  (let (out cur spaced wide)
    (dolist (ch (string-to-list line))
      (cond ((memq ch '(?\s ?\t)) (setq cur (concat cur (string ch)) spaced t))
            ((>= (outline-server--cw ch) 2)
             (when cur (push cur out)) (setq cur (string ch) spaced nil wide t))
            (t (when (and cur (or spaced wide)) (push cur out) (setq cur nil))
               (setq cur (concat cur (string ch)) spaced nil wide nil))))
    (when cur (push cur out))
    (nreverse out)))

(defun outline-server-wrap (text width)
  "Lines of TEXT wrapped at WIDTH cells; an empty TEXT has no lines."
  (if (or (null text) (string= text "")) nil
    (let ((width (max 1 width)) out)
      (dolist (para (split-string (replace-regexp-in-string "\r\n\\|\u2028" "\n" text) "\n"))
        (let ((line "") (lw 0))
          (dolist (tok (outline-server--tokens para))
            (let* ((core (string-trim-right tok "[ \t]+")) (cw (string-width core)))
              (when (and (> lw 0) (> (+ lw cw) width))
                (push (string-trim-right line "[ \t]+") out) (setq line "" lw 0))
              (if (> cw width)
                  (progn
                    (dolist (ch (string-to-list core))
                      (when (and (> lw 0) (> (+ lw (outline-server--cw ch)) width))
                        (push line out) (setq line "" lw 0))
                      (setq line (concat line (string ch)) lw (+ lw (outline-server--cw ch))))
                    (setq line (concat line (substring tok (length core)))))
                (setq line (concat line tok) lw (+ lw (string-width tok))))))
          (push (string-trim-right line "[ \t]+") out)))
      (nreverse out))))

(defun outline-server--join (a b)
  (if (and (> (length a) 0) (> (length b) 0)
           (< (outline-server--cw (aref a (1- (length a)))) 2) (< (outline-server--cw (aref b 0)) 2))
      (concat a " " b)
    (concat a b)))

(defun outline-server--fit (title detail height)
  "TITLE + DETAIL lines made HEIGHT lines: extra lines are joined back."
  (while (> (+ (length title) (length detail)) height)
    (cond ((> (length detail) 1)
           (let ((b (car (last detail))))
             (setq detail (butlast detail))
             (setcar (last detail) (outline-server--join (car (last detail)) b))))
          ((> (length title) 1)
           (let ((b (car (last title))))
             (setq title (butlast title))
             (setcar (last title) (outline-server--join (car (last title)) b))))
          (detail (setcar (last title) (outline-server--join (car (last title)) (car detail)))
                  (setq detail nil))
          (t (setq height (+ (length title) (length detail))))))
  (append title detail))

(defun outline-server--true (v) (and v (not (eq v :json-false))))

(defun outline-server-row-lines (row width)
  "The lines of visible ROW at WIDTH, exactly its height."
  (let* ((depth (plist-get row :depth)) (indent (make-string (* 2 depth) ?\s))
         (h (or (plist-get row :height) 1)) lines)
    (if (equal (plist-get row :kind) "group")
        (setq lines (list (concat indent (if (outline-server--true (plist-get row :expanded)) "▾ " "▸ ")
                                  (plist-get row :title)
                                  (if (plist-get row :badge) (concat " " (plist-get row :badge)) "")
                                  (format "  %d/%d" (plist-get row :activeCount) (plist-get row :rowCount)))))
      (let* ((ww (- width (* 2 depth) 2)) (i 0))
        (dolist (tx (outline-server--fit (or (outline-server-wrap (plist-get row :title) ww) (list ""))
                                         (outline-server-wrap (plist-get row :detail) ww) h))
          (push (concat indent (if (= i 0) (if (outline-server--true (plist-get row :active)) "● " "○ ") "  ") tx)
                lines)
          (setq i (1+ i)))
        (setq lines (nreverse lines))))
    (while (< (length lines) h) (setq lines (append lines (list ""))))
    (seq-take lines h)))

;;; The pane

(defvar outline-server-pane-mode-map
  (let ((m (make-sparse-keymap)))
    (define-key m (kbd "RET") #'outline-server-toggle)
    (define-key m (kbd "o") #'outline-server-toggle)
    (define-key m (kbd "TAB") #'outline-server-toggle)
    (define-key m (kbd "z a") #'outline-server-toggle)
    (define-key m (kbd "z R") #'outline-server-expand-all)
    (define-key m (kbd "z M") #'outline-server-collapse-all)
    (dolist (k '(("n" . "down") ("p" . "up") ("<down>" . "down") ("<up>" . "up")
                 ("f" . "right") ("b" . "left") ("<right>" . "right") ("<left>" . "left")
                 ("<" . "home") (">" . "end") ("M-<" . "home") ("M->" . "end") ("*" . "expandSiblings")))
      (let ((key (cdr k)))
        (define-key m (kbd (car k)) (lambda () (interactive) (outline-server-navigate key)))))
    (define-key m (kbd "s") #'outline-server-filter)
    (define-key m (kbd "/") #'outline-server-filter)
    m))

(define-derived-mode outline-server-pane-mode special-mode "Outline"
  "Major mode of an outline pane.\n\\{outline-server-pane-mode-map}"
  (setq truncate-lines t buffer-read-only t)
  (add-hook 'kill-buffer-hook #'outline-server--closed nil t))

(defmacro outline-server--p (key) `(alist-get ,key outline-server--pane))

(defun outline-server--refresh (&optional buf)
  (with-current-buffer (or buf (current-buffer))
    (when (outline-server--p 'open)
      (let* ((res (outline-server--request :visibleRows (list :uri (outline-server--p 'uri))))
             (rows (append (plist-get (car res) :rows) nil)) (inhibit-read-only t)
             (line-row (list nil)) (row-line (make-hash-table :test 'equal)) (n 1))
        (unless (cdr res)
          (setf (outline-server--p 'rows) rows)
          (erase-buffer)
          (dolist (row rows)
            (puthash (plist-get row :id) n row-line)
            (dolist (l (outline-server-row-lines row (outline-server--p 'width)))
              (insert l "\n") (push row line-row) (setq n (1+ n))))
          (setf (outline-server--p 'line-row) (vconcat (nreverse line-row)))
          (setf (outline-server--p 'row-line) row-line))))))

(defun outline-server-relayout (&optional buf width)
  "Send BUF's window WIDTH to the server and redraw."
  (with-current-buffer (or buf (current-buffer))
    (let* ((win (get-buffer-window (current-buffer)))
           (width (or width (and win (window-width win)) outline-server-width)))
      (when (and (outline-server--p 'open) (not (eql width (outline-server--p 'width))))
        (setf (outline-server--p 'width) width)
        (outline-server--request :setLayout (list :uri (outline-server--p 'uri) :width width :padding '(:left 2)))
        (let ((line (line-number-at-pos))) (outline-server--refresh)
             (goto-char (point-min)) (forward-line (1- line)))))))

(defun outline-server--window-sizes (_frame)
  (dolist (buf (buffer-list))
    (when (buffer-local-value 'outline-server--pane buf) (outline-server-relayout buf))))
(add-hook 'window-size-change-functions #'outline-server--window-sizes)

(defun outline-server--show-diagnostics (pane-buf diags)
  (let ((src (buffer-local-value 'outline-server--pane pane-buf)))
    (setq src (alist-get 'src src))
    (when (buffer-live-p src)
      (with-current-buffer src
        (setq outline-server-diagnostics (append diags nil))
        (remove-overlays nil nil 'outline-server t)
        (dolist (d outline-server-diagnostics)
          (save-excursion
            (let* ((r (plist-get d :range)) (s (plist-get r :start)) (e (plist-get r :end))
                   (beg (progn (goto-char (point-min)) (forward-line (plist-get s :line))
                               (forward-char (min (plist-get s :character) (- (line-end-position) (point)))) (point)))
                   (end (progn (goto-char (point-min)) (forward-line (plist-get e :line))
                               (forward-char (min (plist-get e :character) (- (line-end-position) (point)))) (point)))
                   (ov (make-overlay beg (max end (1+ beg)))))
              (overlay-put ov 'outline-server t)
              (overlay-put ov 'face (if (eql (plist-get d :severity) 1) 'error 'warning))
              (overlay-put ov 'help-echo (plist-get d :message)))))))))

(defun outline-server--open-outline (text)
  (let* ((params (append (list :uri (outline-server--p 'uri)) (and text (list :text text))))
         (res (outline-server--request :openOutline params)))
    (if (cdr res)
        (let ((data (alist-get 'jsonrpc-error-data (cdr res))) (inhibit-read-only t))
          (setf (outline-server--p 'open) nil)
          (outline-server--show-diagnostics (current-buffer) (plist-get data :diagnostics))
          (erase-buffer) (insert "(" (or (alist-get 'jsonrpc-error-message (cdr res)) "error") ")\n")
          nil)
      (setf (outline-server--p 'open) t (outline-server--p 'width) nil)
      (outline-server--show-diagnostics (current-buffer) (plist-get (car res) :diagnostics))
      t)))

(defun outline-server-sync (pane-buf)
  "Send the source text of PANE-BUF with changeOutline."
  (when (buffer-live-p pane-buf)
    (with-current-buffer pane-buf
      (setf (outline-server--p 'timer) nil)
      (let* ((src (outline-server--p 'src))
             (text (with-current-buffer src (buffer-substring-no-properties (point-min) (point-max)))))
        (if (not (outline-server--p 'open))
            (when (outline-server--open-outline text) (outline-server-relayout) (outline-server--refresh))
          (let ((res (outline-server--request :changeOutline (list :uri (outline-server--p 'uri) :text text))))
            (unless (cdr res)
              (outline-server--show-diagnostics pane-buf (plist-get (car res) :diagnostics))
              (when (outline-server--true (plist-get (car res) :applied))
                (let ((line (line-number-at-pos)))
                  (outline-server--refresh)
                  (goto-char (point-min)) (forward-line (1- line)))))))))))

(defun outline-server--after-change (&rest _)
  (let ((pane outline-server--source-pane))
    (when (buffer-live-p pane)
      (with-current-buffer pane
        (unless (outline-server--p 'timer)
          (setf (outline-server--p 'timer)
                (run-with-timer outline-server-debounce nil #'outline-server-sync pane)))))))

(defun outline-server--row-at-point ()
  (let ((v (outline-server--p 'line-row)) (l (line-number-at-pos)))
    (and v (< l (length v)) (aref v l))))

(defun outline-server--goto (id)
  (let ((n (and id (gethash id (outline-server--p 'row-line)))))
    (goto-char (point-min)) (when n (forward-line (1- n)))))

(defun outline-server-toggle ()
  "Toggle the group at point (on a row: its group), keeping it in place."
  (interactive)
  (let ((row (outline-server--row-at-point)))
    (when (and row (not (equal (plist-get row :kind) "group")))
      (setq row (cl-find (plist-get row :parent) (outline-server--p 'rows)
                         :key (lambda (r) (plist-get r :id)) :test #'equal)))
    (when row
      (let* ((win (get-buffer-window (current-buffer)))
             (top (if win (1- (line-number-at-pos (window-start win))) 0))
             (res (outline-server--request
                   :toggleSection (list :uri (outline-server--p 'uri) :section (plist-get row :id) :scrollTop top))))
        (unless (cdr res)
          (outline-server--refresh)
          (when win
            (set-window-start win (save-excursion (goto-char (point-min))
                                                  (forward-line (or (plist-get (car res) :scrollTop) top)) (point))))
          (outline-server--goto (plist-get (car res) :id))
          (when win (set-window-point win (point))))))))

(defun outline-server--all (method)
  (let* ((row (outline-server--row-at-point)) (old (outline-server--p 'rows))
         (id (and row (plist-get row :id))))
    (unless (cdr (outline-server--request method (list :uri (outline-server--p 'uri))))
      (outline-server--refresh)
      (while (and id (not (gethash id (outline-server--p 'row-line))))
        (setq id (plist-get (cl-find id old :key (lambda (r) (plist-get r :id)) :test #'equal) :parent)))
      (outline-server--goto id))))

(defun outline-server-navigate (key)
  "Move point with the navigate KEY (\"down\", \"up\", \"right\", \"left\", \"home\",
\"end\", \"expandSiblings\" or (:type TEXT)): the server decides where the
focus goes and what opens or closes."
  (let ((row (outline-server--row-at-point)))
    (when row
      (let ((res (outline-server--request
                  :navigate (list :uri (outline-server--p 'uri) :from (plist-get row :id) :key key))))
        (unless (cdr res)
          (when (plist-member (car res) :changes) (outline-server--refresh))
          (setf (outline-server--p 'focus) (plist-get (car res) :focus))
          (outline-server--goto (plist-get (car res) :focus))
          (let ((win (get-buffer-window (current-buffer))))
            (when win (set-window-point win (point)))))))))

(defun outline-server-filter (query)
  "Show only the rows containing QUERY (case-insensitive) and their groups.
An empty QUERY clears the filter."
  (interactive (list (read-string "Filter: " (outline-server--p 'query))))
  (let* ((row (outline-server--row-at-point)) (old (outline-server--p 'rows))
         (id (and row (plist-get row :id)))
         (res (outline-server--request :filterOutline (list :uri (outline-server--p 'uri) :query query))))
    (unless (cdr res)
      (setf (outline-server--p 'query) (unless (string-empty-p query) query))
      (outline-server--refresh)
      (let ((first (car (append (plist-get (car res) :matches) nil))))
        (when first (setq id (plist-get first :id))))
      (while (and id (not (gethash id (outline-server--p 'row-line))))
        (setq id (plist-get (cl-find id old :key (lambda (r) (plist-get r :id)) :test #'equal) :parent)))
      (outline-server--goto id))))

(defun outline-server-expand-all () "Expand every group." (interactive) (outline-server--all :expandAll))
(defun outline-server-collapse-all () "Collapse every group." (interactive) (outline-server--all :collapseAll))

(defun outline-server--closed ()
  (when (and outline-server--pane (outline-server--p 'open) outline-server--conn
             (jsonrpc-running-p outline-server--conn))
    (ignore-errors (jsonrpc-async-request outline-server--conn :closeOutline
                                          (list :uri (outline-server--p 'uri)) :success-fn #'ignore))))

(defun outline-server--uri (path)
  (concat "file://" (url-hexify-string path (append "/._~-" url-unreserved-chars))))

;;;###autoload
(defun outline-server-open (&optional file)
  "Show the outline of the current YAML buffer, or of FILE (read from disk)."
  (interactive (list (and current-prefix-arg (read-file-name "Outline of file: "))))
  (require 'url-util)
  (outline-server-connection)
  (let* ((src (unless file (current-buffer)))
         (path (expand-file-name (or file (buffer-file-name) (format "untitled-%s.yaml" (buffer-name)))))
         (text (and src (buffer-substring-no-properties (point-min) (point-max))))
         (buf (get-buffer-create (format "*Outline %s*" (file-name-nondirectory path)))))
    (with-current-buffer buf
      (outline-server-pane-mode)
      (setq outline-server--pane (list (cons 'src src) (cons 'uri (outline-server--uri path))
                                       (cons 'open nil) (cons 'width nil) (cons 'timer nil)))
      (when (outline-server--open-outline text)
        (outline-server-relayout buf (let ((w (get-buffer-window buf))) (if w (window-width w) outline-server-width)))
        (outline-server--refresh)
        (goto-char (point-min))))
    (when src
      (with-current-buffer src
        (setq outline-server--source-pane buf)
        (add-hook 'after-change-functions #'outline-server--after-change nil t)))
    (unless noninteractive
      (select-window (display-buffer-in-side-window buf `((side . right) (window-width . ,outline-server-width))))
      (outline-server-relayout buf))
    buf))

(provide 'outline-server)
;;; outline-server.el ends here
