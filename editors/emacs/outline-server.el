;;; outline-server.el --- Outline pane of a YAML group file, driven by outline-server  -*- lexical-binding: t; -*-

;; Version: 2.0
;; Package-Requires: ((emacs "28.1") (jsonrpc "1.0.14"))
;; Keywords: outlines, tools

;;; Commentary:

;; `M-x outline-server-open' in a YAML group file shows its outline in a
;; side window: groups that fold open and shut, with the rows inside.  The
;; pane follows the buffer as you type (the changes go to the server as
;; edits, a moment after you stop typing, without waiting for the answer),
;; and the item under the cursor in the YAML is highlighted in the pane.
;; With a prefix argument it shows the outline of a file read from disk,
;; which follows the file as it changes.
;;
;; In the pane, `C-h m' lists the keys.  The server draws every row: the
;; pane asks for the lines of each title and detail as the server broke
;; them at the width of the window, and keeps the whole visible list by
;; applying the changes of each answer, fetching only the rows that appear.

;;; Code:

(require 'jsonrpc)
(require 'cl-lib)
(require 'subr-x)
(require 'url-util)

;;;; Options

(defgroup outline-server nil
  "Outline pane of a YAML group file, driven by outline-server."
  :group 'tools
  :prefix "outline-server-")

(defcustom outline-server-program nil
  "Path of the outline-server program.
nil means $OUTLINE_SERVER when set, else outline-server on the
variable `exec-path'."
  :type '(choice (const :tag "$OUTLINE_SERVER or PATH" nil) file))

(defcustom outline-server-width 40
  "Width of the pane's side window, in columns."
  :type 'integer)

(defcustom outline-server-sync-delay 0.2
  "Seconds without a change to the YAML buffer before the edits are sent.
Typing for longer than `outline-server-sync-max-delay' sends them anyway."
  :type 'number)

(defcustom outline-server-sync-max-delay 1.0
  "Most seconds an edit of the YAML buffer waits before it is sent."
  :type 'number)

(defcustom outline-server-follow-delay 0.2
  "Seconds the cursor rests in the YAML buffer before the pane shows its item."
  :type 'number)

(defcustom outline-server-type-ahead-delay 1.0
  "Seconds within which type-ahead letters add up to one prefix."
  :type 'number)

(defface outline-server-group '((t :inherit bold))
  "Face of a group's title in the pane.")
(defface outline-server-badge '((t :inherit font-lock-constant-face))
  "Face of a group's badge (the text after its title).")
(defface outline-server-count '((t :inherit shadow))
  "Face of a group's count of active rows, such as 4/10.")
(defface outline-server-row nil
  "Face of the title of an active row.")
(defface outline-server-inactive '((t :inherit shadow))
  "Face of the title of an inactive row (for example, a contact offline).")
(defface outline-server-emphasis '((t :inherit (warning bold)))
  "Face of the title of an emphasised row (for example, a VIP).")
(defface outline-server-detail '((t :inherit font-lock-comment-face))
  "Face of a row's detail lines.")
(defface outline-server-match '((t :inherit match))
  "Face of the text that matches the filter.")
(defface outline-server-current '((t :inherit highlight :extend t))
  "Face of the item under the cursor in the YAML buffer.")
(defface outline-server-message '((t :inherit italic))
  "Face of what the pane says instead of rows: no match, errors.")

;;;; The connection

(defvar outline-server--conn nil "The connection to outline-server, or nil.")
(defvar outline-server--panes nil "The live panes.")
(defconst outline-server--page 2500
  "Most rows asked in one visibleRows request (the server answers at most 10,000).
Emacs reads and draws one answer at a time: smaller pages keep it
answering keys while a long list comes in.")

(defcustom outline-server-gc-cons-threshold (* 64 1024 1024)
  "`gc-cons-threshold' while rows come in, or nil to leave it alone.
Reading thousands of rows makes much garbage: at the default
threshold, Emacs would collect it a hundred times while the Debian
package outline expands (65,000 rows), each time marking every row it
holds.  The threshold is put back once the rows are in."
  :type '(choice (const :tag "Leave it alone" nil) integer))

(defvar outline-server--fetching 0 "Row requests in flight, all panes together.")
(defvar outline-server--saved-gc-threshold nil "`gc-cons-threshold' before rows came in.")

(defun outline-server--fetching (n)
  "Count N more (or fewer) row requests in flight.
While there are some, garbage is collected less often."
  (setq outline-server--fetching (max 0 (+ outline-server--fetching n)))
  (cond ((and (> outline-server--fetching 0) outline-server-gc-cons-threshold
              (not outline-server--saved-gc-threshold)
              (< gc-cons-threshold outline-server-gc-cons-threshold))
         (setq outline-server--saved-gc-threshold gc-cons-threshold
               gc-cons-threshold outline-server-gc-cons-threshold))
        ((and (= outline-server--fetching 0) outline-server--saved-gc-threshold)
         (setq gc-cons-threshold outline-server--saved-gc-threshold
               outline-server--saved-gc-threshold nil))))



(defun outline-server--program ()
  "The outline-server program to run."
  (or outline-server-program
      (let ((e (getenv "OUTLINE_SERVER"))) (and e (not (string= e "")) e))
      "outline-server"))

(defmacro outline-server--guard (&rest body)
  "Run BODY; report an error as a message instead of letting it out.
Callbacks run from the process filter: an error there would stop it
reading the answers that follow."
  (declare (indent 0) (debug t))
  `(condition-case-unless-debug err
       (progn ,@body)
     (error (message "outline-server: %s" (error-message-string err)))))

(defun outline-server-connection ()
  "The connection to outline-server, started on first use.
Requests sent before the answer to `initialize' are answered after it:
the server takes requests in the order they come."
  (unless (and outline-server--conn (jsonrpc-running-p outline-server--conn))
    (let* ((proc (make-process :name "outline-server" :command (list (outline-server--program))
                               :connection-type 'pipe :coding 'utf-8-emacs-unix :noquery t
                               :stderr (get-buffer-create "*outline-server stderr*")))
           (conn (make-instance 'jsonrpc-process-connection
                                :name "outline-server" :process proc
                                :events-buffer-scrollback-size 0
                                :notification-dispatcher #'outline-server--on-notification
                                :request-dispatcher (lambda (&rest _) (jsonrpc-error "not supported"))
                                :on-shutdown #'outline-server--on-shutdown)))
      (setq outline-server--conn conn)
      (jsonrpc-async-request
       conn :initialize
       (list :processId (emacs-pid)
             :clientInfo (list :name "emacs-outline-server" :version emacs-version)
             :capabilities '(:general (:positionEncodings ["utf-32"])))
       :success-fn (lambda (res)
                     (let ((enc (plist-get (plist-get res :capabilities) :positionEncoding)))
                       (unless (equal enc "utf-32")
                         (message "outline-server speaks %s, not utf-32: the pane may point at the wrong column"
                                  enc))))
       :error-fn (lambda (e) (message "outline-server: %s" (plist-get e :message)))
       :timeout nil)
      (jsonrpc-notify conn :initialized (make-hash-table))))
  outline-server--conn)

(defun outline-server--on-shutdown (conn)
  "CONN's server is gone: say so in every pane."
  (when (eq conn outline-server--conn)
    (setq outline-server--conn nil)
    (dolist (pane outline-server--panes)
      (when (buffer-live-p (outline-server--pane-buffer pane))
        (outline-server--fail pane "outline-server stopped: press g to start it again")))))

(defun outline-server-stop ()
  "Shut the server down (shutdown, then exit) and return its exit status."
  (interactive)
  (when outline-server--conn
    (let* ((conn outline-server--conn) (proc (jsonrpc--process conn)))
      (setq outline-server--conn nil)
      (when (process-live-p proc)
        (ignore-errors (jsonrpc-request conn :shutdown nil :timeout 3))
        (ignore-errors (jsonrpc-notify conn :exit nil))
        (with-timeout (3 (delete-process proc))
          (while (process-live-p proc) (accept-process-output proc 0.01))))
      (dolist (pane outline-server--panes)
        (when (outline-server--pane-live-p pane)
          (outline-server--fail pane "outline-server stopped: press g to start it again")))
      (process-exit-status proc))))

(defun outline-server--kill-emacs ()
  "Shut the server down as Emacs ends, so that it saves the view state."
  (ignore-errors (outline-server-stop)))

(add-hook 'kill-emacs-hook #'outline-server--kill-emacs)

(defun outline-server--send (method params on-result &optional on-error)
  "Send METHOD with PARAMS without waiting for the answer.
ON-RESULT is called with the result; ON-ERROR, if given, with the error
object (a plist of :code, :message, :data), else the error is shown."
  (jsonrpc-async-request
   (outline-server-connection) method params
   :success-fn (lambda (res) (outline-server--guard (funcall on-result res)))
   :error-fn (lambda (err)
               (outline-server--guard
                 (if on-error (funcall on-error err) (outline-server--say-error method err))))
   :timeout nil))

(defun outline-server--true (v)
  "Non-nil when the JSON value V is true (JSON false reads as :json-false)."
  (and v (not (eq v :json-false))))

;;;; Panes

(cl-defstruct (outline-server--pane (:constructor outline-server--make-pane) (:copier nil))
  "The state of one pane."
  buffer src file uri
  (state 'opening)          ; opening, open or error
  error                     ; what the pane says when in error
  (version 0)               ; the version of the visible list below
  (count 0)                 ; items in the visible list
  (rows [])                 ; their slots (the vector may be longer), see "The buffer and the rows"
  (heights [])              ; the lines each slot takes in the buffer
  (starts [0])              ; the first line of each slot, then the line count
  starts-valid              ; non-nil when `starts' follows `heights'
  (pending 0)               ; slots that are not a fresh item
  (width 0)                 ; columns the server lays the rows out in
  query matches             ; the filter and its matches (id -> ranges)
  (fills 0)                 ; visibleRows requests in flight
  busy queue goto           ; a pane command in flight, those waiting, where to go after
  message-shown             ; the buffer holds a message, not rows: (TEXT . WIDTH it is broken at)
  diagnostics               ; the last diagnostics (server plists)
  ;; Source sync
  edits full timer first-edit (gen 0) (syncs 0) before (anchor (cons 1 0))
  ;; Source follow
  follow-timer current current-overlay
  ;; File pane: watching a broken or missing file until it is fixed
  retry-timer retry-stamp
  ;; Type-ahead
  typed typed-time)

(defvar-local outline-server--pane nil "The pane shown in this buffer.")
(defvar-local outline-server--source-pane nil "The pane that follows this source buffer.")
(put 'outline-server--source-pane 'permanent-local t)

(defun outline-server--uri (path)
  "The file: uri of PATH."
  (concat "file://" (url-hexify-string path (append "/._~-" url-unreserved-chars))))

(defun outline-server--name (pane)
  "The name of PANE's text: its buffer's, or its file's."
  (let ((src (outline-server--pane-src pane)))
    (if (buffer-live-p src) (buffer-name src) (file-name-nondirectory (or (outline-server--pane-file pane) "")))))

(defun outline-server--pane-live-p (pane)
  "Non-nil when PANE's buffer is live."
  (and pane (buffer-live-p (outline-server--pane-buffer pane))))

(defun outline-server--find-pane (uri)
  "The live pane showing URI, if any."
  (cl-find-if (lambda (p) (and (outline-server--pane-live-p p)
                               (equal (outline-server--pane-uri p) uri)))
              outline-server--panes))

(defun outline-server--idle-p (pane)
  "Non-nil when PANE runs no command and fetches no rows."
  (and (eq (outline-server--pane-state pane) 'open)
       (not (outline-server--pane-busy pane))
       (= (outline-server--pane-fills pane) 0)))

(defun outline-server-pane-settled-p (&optional buffer)
  "Non-nil when the pane in BUFFER has nothing under way.
Nothing waits to be sent or answered: no command, no rows, no edits,
no cursor follow.  Tests wait on it."
  (let ((pane (buffer-local-value 'outline-server--pane (or buffer (current-buffer)))))
    (and pane
         (memq (outline-server--pane-state pane) '(open error))
         (not (outline-server--pane-busy pane))
         (null (outline-server--pane-queue pane))
         (= (outline-server--pane-fills pane) 0)
         (= (outline-server--pane-syncs pane) 0)
         (null (outline-server--pane-edits pane))
         (not (outline-server--pane-full pane))
         (null (outline-server--pane-timer pane))
         (null (outline-server--pane-follow-timer pane)))))

;;;; Items

(cl-defstruct (outline-server--item (:constructor outline-server--make-item) (:copier nil))
  "An item of the visible list, as the pane keeps it: what it draws.
A record, not the answer's plist: the pane may hold 65,000 of them, and
every one of them is marked at each garbage collection."
  id group depth parent height expanded active emphasis
  title detail badge active-count row-count title-lines detail-lines)

(defun outline-server--item-of (row)
  "The item of ROW, a visibleRows plist with its lines.
One walk over the plist: the pane reads tens of thousands of them."
  (let (id group (depth 0) parent (height 1) expanded active emphasis title detail badge
           active-count row-count title-lines detail-lines)
    (while row
      (let ((v (cadr row)))
        (pcase (car row)
          (:id (setq id v))
          (:kind (setq group (equal v "group")))
          (:depth (setq depth v))
          (:parent (setq parent v))
          (:height (setq height (truncate v)))
          (:expanded (setq expanded (eq v t)))
          (:active (setq active (eq v t)))
          (:emphasis (setq emphasis (eq v t)))
          (:title (setq title v))
          (:detail (setq detail v))
          (:badge (setq badge v))
          (:activeCount (setq active-count v))
          (:rowCount (setq row-count v))
          (:lines (setq title-lines (plist-get v :title) detail-lines (plist-get v :detail)))))
      (setq row (cddr row)))
    (outline-server--make-item
     :id id :group group :depth depth :parent parent :height height :expanded expanded
     :active active :emphasis emphasis :title title :detail detail :badge badge
     :active-count active-count :row-count row-count
     :title-lines title-lines :detail-lines detail-lines)))

;;;; Drawing items

(defun outline-server--highlight (text lines ranges field)
  "LINES (strings) of TEXT with RANGES of FIELD in `outline-server-match'.
RANGES are the server's {field, start, length} in characters of TEXT."
  (let ((rs (cl-remove-if-not (lambda (r) (equal (plist-get r :field) field)) ranges)))
    (if (or (null rs) (null text)) lines
      (let ((pos 0) out)
        (dolist (line lines)
          (let ((off (and pos (string-search line text pos))) (line (copy-sequence line)))
            (when off
              (dolist (r rs)
                (let ((s (max 0 (- (plist-get r :start) off)))
                      (e (min (length line) (- (+ (plist-get r :start) (plist-get r :length)) off))))
                  (when (< s e) (add-face-text-property s e 'outline-server-match nil line))))
              (setq pos (+ off (length line))))
            (unless off (setq pos nil))
            (push line out)))
        (nreverse out)))))

(defun outline-server--fit (text room)
  "TEXT cut to ROOM columns, ending in … when cut."
  (if (<= (string-width text) room) text
    (truncate-string-to-width text (max 0 room) nil nil "…")))

(defun outline-server--line (text face)
  "TEXT and a newline, in FACE (under the faces TEXT has)."
  (let ((s (concat text "\n")))
    (when face (add-face-text-property 0 (length s) face t s))
    s))

(defun outline-server--row-text (pane item)
  "The text of ITEM in PANE: exactly as many lines as its height.
A face covers each whole line, so that a line is one piece of text
to redisplay and to the garbage collector."
  (let* ((depth (outline-server--item-depth item))
         (indent (make-string (* 2 depth) ?\s))
         (height (outline-server--item-height item))
         (title (append (outline-server--item-title-lines item) nil))
         (detail (append (outline-server--item-detail-lines item) nil))
         (ranges (let ((m (outline-server--pane-matches pane)))
                   (and m (gethash (outline-server--item-id item) m))))
         (room (- (outline-server--pane-width pane) (* 2 depth) 2))
         out)
    (unless title (setq title (list (or (outline-server--item-title item) ""))))
    (when ranges
      (setq title (outline-server--highlight (outline-server--item-title item) title ranges "title")
            detail (outline-server--highlight (outline-server--item-detail item) detail ranges "detail")))
    (if (outline-server--item-group item)
        (let* ((shown (max 1 (min height (length title))))
               (cut (> (length title) shown))
               (suffix (concat (if (outline-server--item-badge item)
                                   (concat " " (propertize (outline-server--item-badge item)
                                                           'face 'outline-server-badge))
                                 "")
                               (propertize (format "  %s/%s" (outline-server--item-active-count item)
                                                   (outline-server--item-row-count item))
                                           'face 'outline-server-count)))
               (arrow (if (outline-server--item-expanded item) "▾ " "▸ ")))
          (dotimes (i shown)
            (let ((line (nth i title)) (last (= i (1- shown))))
              (when last
                (setq line (outline-server--fit (if cut (concat line "…") line)
                                                (- room (string-width suffix)))))
              (setq line (concat indent (if (= i 0) arrow "  ") line))
              (add-face-text-property 0 (length line) 'outline-server-group t line)
              (push (concat line (if last suffix "") "\n") out))))
      (let ((face (cond ((not (outline-server--item-emphasis item))
                         (if (outline-server--item-active item) 'outline-server-row 'outline-server-inactive))
                        ((outline-server--item-active item) 'outline-server-emphasis)
                        (t '(outline-server-emphasis outline-server-inactive))))
            (marker (if (outline-server--item-active item) "● " "○ "))
            (i 0))
        (dolist (l title)
          (push (outline-server--line (concat indent (if (= i 0) marker "  ") l) face) out)
          (setq i (1+ i)))
        (dolist (l detail)
          (push (outline-server--line (concat indent "  " l) 'outline-server-detail) out))))
    (setq out (nreverse out))
    (let ((n (length out)))
      (cond ((> n height) (setq out (cl-subseq out 0 height)))
            ((< n height) (setq out (append out (make-list (- height n) "\n"))))))
    (apply #'concat out)))

;;;; The buffer and the rows

;; PANE's rows are a vector of slots, one per item of the visible list:
;; - an item, drawn in the buffer on exactly its height's lines;
;; - (V . ITEM): ITEM, drawn, to be fetched again (asked at version V, or nil);
;; - nil, or the version it was asked at: not fetched yet, not drawn.

(defsubst outline-server--row (slot)
  "The item of SLOT, or nil when it holds none."
  (cond ((outline-server--item-p slot) slot)
        ((consp slot) (cdr slot))))

(defsubst outline-server--missing-p (pane slot)
  "Non-nil when SLOT of PANE's rows must be fetched (again)."
  (cond ((null slot) t)
        ((integerp slot) (/= slot (outline-server--pane-version pane)))
        ((consp slot) (not (eql (car slot) (outline-server--pane-version pane))))))

(defun outline-server--stale (slot)
  "SLOT marked to be fetched again."
  (let ((item (outline-server--row slot)))
    (and item (cons nil item))))

(defun outline-server--capacity (pane n)
  "Make PANE's vectors hold at least N slots, keeping the slots they hold."
  (let ((c (length (outline-server--pane-rows pane))))
    (when (< c n)
      (let ((c2 (max n (* 2 c) 64)) (k (outline-server--pane-count pane)))
        (let ((rows (make-vector c2 nil)) (heights (make-vector c2 0)))
          (dotimes (i k)
            (aset rows i (aref (outline-server--pane-rows pane) i))
            (aset heights i (aref (outline-server--pane-heights pane) i)))
          (setf (outline-server--pane-rows pane) rows (outline-server--pane-heights pane) heights
                (outline-server--pane-starts pane) (make-vector (1+ c2) 0)
                (outline-server--pane-starts-valid pane) nil))))))

(defun outline-server--reset-rows (pane total)
  "Make PANE's list TOTAL slots, none fetched."
  (let ((rows (outline-server--pane-rows pane)) (heights (outline-server--pane-heights pane)))
    (fillarray rows nil)
    (fillarray heights 0))
  (setf (outline-server--pane-count pane) 0)
  (outline-server--capacity pane total)
  (setf (outline-server--pane-count pane) total (outline-server--pane-pending pane) total
        (outline-server--pane-starts-valid pane) nil))

(defun outline-server--starts (pane)
  "The first line of each of PANE's slots, then the line count: a vector.
Counted again, in place, after the heights change."
  (let ((v (outline-server--pane-starts pane)))
    (unless (outline-server--pane-starts-valid pane)
      (let* ((h (outline-server--pane-heights pane)) (n (outline-server--pane-count pane))
             (line 0) (k 0))
        (when (< (length v) (1+ n))
          (setq v (make-vector (1+ (length h)) 0))
          (setf (outline-server--pane-starts pane) v))
        (while (< k n)
          (aset v k line)
          (setq line (+ line (aref h k)) k (1+ k)))
        (aset v n line)
        (setf (outline-server--pane-starts-valid pane) t)))
    v))

(defun outline-server--line-of (pane i)
  "The 0-based first line of slot I of PANE's rows."
  (aref (outline-server--starts pane) i))

(defun outline-server--slot-at (pane &optional pos)
  "The slot of PANE's rows drawn at POS (default point), or nil."
  (let* ((line (save-restriction (widen) (1- (line-number-at-pos (or pos (point))))))
         (starts (outline-server--starts pane)) (heights (outline-server--pane-heights pane))
         (lo 0) (hi (outline-server--pane-count pane)))
    ;; The last slot starting at or before LINE.
    (while (< lo hi)
      (let ((mid (/ (+ lo hi) 2)))
        (if (<= (aref starts mid) line) (setq lo (1+ mid)) (setq hi mid))))
    (let ((k (1- lo)))
      (and (>= k 0) (< line (+ (aref starts k) (aref heights k))) k))))

(defun outline-server--row-at (pane &optional pos)
  "The item drawn at POS (default point) in PANE, or nil."
  (let ((k (outline-server--slot-at pane pos)))
    (and k (outline-server--row (aref (outline-server--pane-rows pane) k)))))

(defun outline-server--slot-of (pane id)
  "The slot of PANE's rows holding the item ID, or nil."
  (let* ((rows (outline-server--pane-rows pane)) (n (outline-server--pane-count pane)) (k 0) found)
    (while (and (not found) (< k n))
      (let ((r (outline-server--row (aref rows k))))
        (if (and r (equal (outline-server--item-id r) id)) (setq found k) (setq k (1+ k)))))
    found))

(defun outline-server--points ()
  "Where the current buffer's point and its windows stand: a list of (WHERE . POS).
WHERE is `point', (point . WINDOW) or (start . WINDOW)."
  (let ((ps (list (cons 'point (point)))))
    (dolist (w (get-buffer-window-list (current-buffer) nil t))
      (push (cons (cons 'point w) (window-point w)) ps)
      (push (cons (cons 'start w) (window-start w)) ps))
    ps))

(defun outline-server--set-points (ps)
  "Put back the points PS of `outline-server--points', as markers."
  (dolist (p ps)
    (let ((pos (marker-position (cdr p))))
      (when pos
        (pcase (car p)
          ('point (goto-char pos))
          (`(point . ,w) (when (window-live-p w) (set-window-point w pos)))
          (`(start . ,w) (when (window-live-p w) (set-window-start w pos t)))))
      (set-marker (cdr p) nil))))

(defvar outline-server--ps nil
  "The points of the pane being drawn, as markers (see `outline-server--drawing').")

(defmacro outline-server--drawing (pane &rest body)
  "Run BODY in PANE's buffer, writable, keeping its points.
A point before or after what BODY changes stays on its text: text
inserted at a point goes before it, unless the point is at the end."
  (declare (indent 1) (debug t))
  `(with-current-buffer (outline-server--pane-buffer ,pane)
     (let* ((inhibit-read-only t) (inhibit-modification-hooks t)
            (outline-server--ps
             ;; At the end (an empty buffer, say) a point stays before what comes.
             (mapcar (lambda (p) (cons (car p) (copy-marker (cdr p) (< (cdr p) (point-max)))))
                     (outline-server--points))))
       (save-restriction
         (widen)
         (when (outline-server--pane-message-shown ,pane)
           (erase-buffer)
           (setf (outline-server--pane-message-shown ,pane) nil))
         (unwind-protect (progn ,@body)
           (set-buffer-modified-p nil)
           (outline-server--set-points outline-server--ps))))))

(defun outline-server--monotone-p (changes)
  "Non-nil when CHANGES can be applied in one pass (each after the one before)."
  (let ((prev nil) (ok t))
    (mapc (lambda (c)
            (when (and prev ok)
              (setq ok (>= (plist-get c :start)
                           (+ (plist-get prev :start)
                              (if (equal (plist-get prev :kind) "insert") (plist-get prev :count) 0)))))
            (setq prev c))
          changes)
    ok))

(defun outline-server--move-slots (pane from to count)
  "Move COUNT slots of PANE from FROM to TO, in place."
  (let ((rows (outline-server--pane-rows pane)) (heights (outline-server--pane-heights pane)))
    (if (< to from)
        (dotimes (j count)
          (aset rows (+ to j) (aref rows (+ from j)))
          (aset heights (+ to j) (aref heights (+ from j))))
      (let ((j (1- count)))
        (while (>= j 0)
          (aset rows (+ to j) (aref rows (+ from j)))
          (aset heights (+ to j) (aref heights (+ from j)))
          (setq j (1- j)))))))

(defun outline-server--apply-pass (pane changes)
  "Apply CHANGES, each after the one before, to PANE's rows and buffer.
Deleted rows lose their lines; inserted ones are slots to fetch.  The
slots move in place, so that a toggle in a long list makes no garbage
to collect.  Return nil, changing nothing, when a change falls outside
the list."
  (let* ((rows (outline-server--pane-rows pane)) (n (outline-server--pane-count pane))
         (starts (outline-server--starts pane)) (pending (outline-server--pane-pending pane))
         (o 0) (p 0) (ok t) (kept nil) (inserted nil) (cuts nil))
    ;; The pieces kept (old start, new start, count), the slots inserted and the lines cut.
    (mapc (lambda (c)
            (when ok
              (let ((k (- (plist-get c :start) p)) (count (plist-get c :count)))
                (if (or (< k 0) (> (+ o k) n) (< count 0)) (setq ok nil)
                  (when (> k 0) (push (list o p k) kept))
                  (setq o (+ o k) p (+ p k))
                  (if (equal (plist-get c :kind) "insert")
                      (progn (push (cons p count) inserted)
                             (setq p (+ p count) pending (+ pending count)))
                    (if (> (+ o count) n) (setq ok nil)
                      (let ((lines (- (aref starts (+ o count)) (aref starts o))))
                        (when (> lines 0) (push (cons (aref starts o) lines) cuts))
                        (dotimes (j count)
                          (unless (outline-server--item-p (aref rows (+ o j))) (setq pending (1- pending))))
                        (setq o (+ o count)))))))))
          changes)
    (when ok
      (when (< o n) (push (list o p (- n o)) kept))
      (let ((size (+ p (- n o))))
        (outline-server--capacity pane size)
        (setq kept (nreverse kept))
        ;; Pieces going left first, from the first; then those going right, from the last.
        (dolist (k kept) (when (< (nth 1 k) (nth 0 k)) (outline-server--move-slots pane (nth 0 k) (nth 1 k) (nth 2 k))))
        (dolist (k (reverse kept)) (when (> (nth 1 k) (nth 0 k)) (outline-server--move-slots pane (nth 0 k) (nth 1 k) (nth 2 k))))
        (let ((rows (outline-server--pane-rows pane)) (heights (outline-server--pane-heights pane)))
          (dolist (in inserted)
            (dotimes (j (cdr in)) (aset rows (+ (car in) j) nil) (aset heights (+ (car in) j) 0)))
          (let ((j size)) (while (< j n) (aset rows j nil) (aset heights j 0) (setq j (1+ j)))))
        (setf (outline-server--pane-count pane) size (outline-server--pane-pending pane) pending
              (outline-server--pane-starts-valid pane) nil))
      (goto-char (point-min))
      (let ((at 0))
        (dolist (cut (nreverse cuts))     ; in order; lines before a cut are already gone
          (forward-line (- (car cut) at))
          (delete-region (point) (progn (forward-line (cdr cut)) (point)))
          ;; Point now stands where old line (car cut) + (cdr cut) began.
          (setq at (+ (car cut) (cdr cut))))))
    ok))

(defun outline-server--apply-changes (pane changes)
  "Apply CHANGES (the server's delete/insert list) to PANE.
Return nil when they do not fit the list held."
  (let ((ok t))
    (outline-server--drawing pane
      (if (outline-server--monotone-p changes)
          (setq ok (outline-server--apply-pass pane changes))
        (mapc (lambda (c) (when ok (setq ok (outline-server--apply-pass pane (vector c))))) changes)))
    ok))

(defun outline-server--put (pane items)
  "Draw ITEMS, a list of (SLOT . ITEM) by ascending SLOT, in PANE.
Each item replaces what its slot held; a point on the old lines of a
slot stays on the same line of the item (or its last).  Items of
consecutive slots are drawn in one insertion."
  (when items
    (outline-server--drawing pane
      (let* ((slots (outline-server--pane-rows pane)) (heights (outline-server--pane-heights pane))
             ;; Lines between slots not drawn here do not change: the starts before it serve.
             (starts (outline-server--starts pane)) (k 0))
        (goto-char (point-min))
        (while items
          ;; A run: items of consecutive slots.
          (let ((run (list (pop items))))
            (while (and items (= (caar items) (1+ (caar run)))) (push (pop items) run))
            (setq run (nreverse run))
            (forward-line (- (aref starts (caar run)) (aref starts k)))
            (let* ((beg (point))
                   (olds (mapcar (lambda (it) (aref heights (car it))) run))
                   (end (progn (forward-line (apply #'+ olds)) (point)))
                   ;; Points on the old lines: the slot, the line in it and the column.
                   (places
                    (delq nil
                          (mapcar (lambda (p)
                                    (let ((pos (marker-position (cdr p))))
                                      (and (>= pos beg) (< pos end)
                                           (save-excursion
                                             (goto-char pos)
                                             (let ((line (count-lines beg (line-beginning-position))) (j 0))
                                               (while (>= line (nth j olds))
                                                 (setq line (- line (nth j olds)) j (1+ j)))
                                               (list (cdr p) j line (current-column)))))))
                                  outline-server--ps)))
                   (texts (mapcar (lambda (it) (outline-server--row-text pane (cdr it))) run)))
              (delete-region beg end)
              (goto-char beg)
              (apply #'insert texts)
              (dolist (it run)
                (unless (outline-server--item-p (aref slots (car it)))
                  (cl-decf (outline-server--pane-pending pane)))
                (aset slots (car it) (cdr it))
                (aset heights (car it) (outline-server--item-height (cdr it))))
              (setq k (+ (caar run) (length run)))
              (setf (outline-server--pane-starts-valid pane) nil)
              (let ((after (point)))
                (dolist (pl places)
                  (goto-char beg)
                  (dotimes (j (nth 1 pl)) (forward-line (outline-server--item-height (cdr (nth j run)))))
                  (forward-line (min (nth 2 pl) (max 0 (1- (outline-server--item-height (cdr (nth (nth 1 pl) run)))))))
                  (move-to-column (nth 3 pl))
                  (set-marker (nth 0 pl) (point)))
                (goto-char after)))))))))

(defun outline-server--redraw (pane ids)
  "Draw again the rows of PANE whose id is in the hash table IDS."
  (let* ((rows (outline-server--pane-rows pane)) (items nil))
    (dotimes (k (outline-server--pane-count pane))
      (let ((r (aref rows k)))
        (when (and (outline-server--item-p r) (gethash (outline-server--item-id r) ids))
          (push (cons k r) items))))
    (outline-server--put pane (nreverse items))))

(defun outline-server--wrap (text width)
  "TEXT with every line wider than WIDTH columns broken into lines that fit.
A line breaks at its last space that fits, else (a long word, text
without spaces such as Chinese) at the last character that fits.  A
line that starts with spaces goes on two columns further in, as the
text of a list item does (less in a narrow pane); one that does not,
at the left edge.
- Complexity: O(n·w) in the characters of TEXT and WIDTH."
  (mapconcat
   (lambda (line)
     (let* ((lead (- (length line) (length (string-trim-left line " +"))))
            (indent (make-string (cond ((= lead 0) 0) ((<= (* 4 (+ lead 2)) width) (+ lead 2))
                                       ((<= (* 4 lead) width) lead) (t 0))
                                 ?\s))
            (out nil))
       (while (> (string-width line) width)
         (let* ((head (truncate-string-to-width line width))
                ;; The last space after a word that fits (the one just after HEAD too).
                (space (let ((i (length head)) found)
                         (while (and (not found) (> i lead))
                           (when (and (eq (aref line i) ?\s) (not (eq (aref line (1- i)) ?\s)))
                             (setq found i))
                           (setq i (1- i)))
                         found))
                (cut (or space (max (1+ lead) (length head)))))
           (push (string-trim-right (substring line 0 cut)) out)
           (setq line (concat indent (string-trim-left (substring line cut) " +")))))
       (push line out)
       (mapconcat #'identity (nreverse out) "\n")))
   (split-string text "\n") "\n"))

(defun outline-server--show-message (pane text)
  "Make TEXT the whole of PANE's buffer, in place of rows.
Its lines are broken at the window's width: the pane cuts lines."
  (let ((width (or (outline-server--window-width pane)
                   (and (> (outline-server--pane-width pane) 0) (outline-server--pane-width pane))
                   outline-server-width)))
    (with-current-buffer (outline-server--pane-buffer pane)
      (let ((inhibit-read-only t))
        (erase-buffer)
        (insert (propertize (outline-server--wrap text width) 'face 'outline-server-message))
        (goto-char (point-min))
        (set-buffer-modified-p nil)
        (setf (outline-server--pane-message-shown pane) (cons text width))))))

(defun outline-server--update-empty (pane)
  "Say why PANE shows no row, when it shows none."
  (when (and (eq (outline-server--pane-state pane) 'open)
             (= (outline-server--pane-count pane) 0))
    (outline-server--show-message
     pane
     (if (outline-server--pane-query pane)
         (format "No item matches “%s”.\nPress s to change the filter, or s RET to clear it.\n"
                 (outline-server--pane-query pane))
       "The outline has no group.\n"))))

;;;; Fetching rows

(defun outline-server--fill (pane)
  "Fetch the rows PANE lacks or holds stale, in pages; non-nil when it asked.
An answer made at another version than the list held when it comes is
dropped, and its rows asked again."
  (let* ((rows (outline-server--pane-rows pane)) (n (outline-server--pane-count pane))
         (v (outline-server--pane-version pane)) (i 0) (asked nil))
    (cl-flet ((ask (k) (let ((s (aref rows k)))
                         (setq asked t)
                         (if (consp s) (setcar s v) (aset rows k v)))))
      (while (and (< i n) (> (outline-server--pane-pending pane) 0))
        (if (not (outline-server--missing-p pane (aref rows i)))
            (setq i (1+ i))
          (let* ((start i) (limit (min n (+ i outline-server--page))) (last i))
            (while (< i limit)
              (when (outline-server--missing-p pane (aref rows i)) (setq last i) (ask i))
              (setq i (1+ i)))
            (setq i (1+ last))
            (outline-server--fetch pane start (1+ (- last start)))))))
    asked))

(defun outline-server--fetch (pane start count)
  "Ask for COUNT rows of PANE from START.
The rows are drawn if the answer's version is the list's when it comes."
  (cl-incf (outline-server--pane-fills pane))
  (outline-server--fetching 1)
  (outline-server--send
   :visibleRows (list :uri (outline-server--pane-uri pane) :start start :count count :include ["lines"])
   (lambda (res)
     (cl-decf (outline-server--pane-fills pane))
     (outline-server--fetching -1)
     ;; Answers come in order: the list held has every change made before this
     ;; answer, so rows at its version go where it says, even when asked at another.
     (when (and (outline-server--pane-live-p pane)
                (eql (plist-get res :version) (outline-server--pane-version pane)))
       (let ((rows (plist-get res :rows)) (items nil))
         (dotimes (j (min (length rows) (- (outline-server--pane-count pane) start)))
           (push (cons (+ start j) (outline-server--item-of (aref rows j))) items))
         (outline-server--put pane (nreverse items))))
     (outline-server--settle pane))
   (lambda (err)
     (cl-decf (outline-server--pane-fills pane))
     (outline-server--fetching -1)
     (outline-server--say-error :visibleRows err)
     (outline-server--settle pane))))

(defun outline-server--reload (pane total)
  "Fetch every row of PANE again: TOTAL rows at its version.
Rows drawn stay until their page comes back, unless the count changed."
  (let ((rows (outline-server--pane-rows pane)))
    (if (/= (outline-server--pane-count pane) total)
        (progn (outline-server--drawing pane (erase-buffer))
               (outline-server--reset-rows pane total))
      (dotimes (k total) (aset rows k (outline-server--stale (aref rows k))))
      (setf (outline-server--pane-pending pane) total)))
  (outline-server--fill pane)
  (outline-server--settle pane))

(defun outline-server--settle (pane)
  "When PANE waits for nothing, finish what the last command started.
Rows still missing are fetched; then point goes where the command said,
and the next command waiting runs."
  (when (and (outline-server--pane-live-p pane)
             (not (outline-server--pane-busy pane))
             (= (outline-server--pane-fills pane) 0))
    (if (and (> (outline-server--pane-pending pane) 0)
             (or (outline-server--fill pane)
                 ;; Nothing to ask after all: count again.
                 (progn (setf (outline-server--pane-pending pane)
                              (let ((rows (outline-server--pane-rows pane)) (c 0))
                                (dotimes (k (outline-server--pane-count pane))
                                  (unless (outline-server--item-p (aref rows k)) (setq c (1+ c))))
                                c))
                        nil)))
        nil
      (outline-server--update-empty pane)
      (let ((goto (outline-server--pane-goto pane)))
        (setf (outline-server--pane-goto pane) nil)
        (when goto (funcall goto)))
      (outline-server--next pane))))

;;;; Answers with changes

(defun outline-server--apply-result (pane res &optional expanded index)
  "Apply the toggle-shaped result RES (version, changes, updatedGroups) to PANE.
EXPANDED, when t or :json-false, is the state of every group in
updatedGroups but the result's `id' (the others turn the other way);
otherwise their headers are fetched again.  INDEX, when known, is
where the result's `id' stands in the new list.  An answer older than
the list held is dropped."
  (let ((v (plist-get res :version)) (changes (plist-get res :changes))
        (groups (plist-get res :updatedGroups)))
    (when (and v (outline-server--pane-live-p pane))
      (cond
       ((< v (outline-server--pane-version pane)) nil)
       ((and (= v (outline-server--pane-version pane)) (= (length changes) 0)) nil)
       (t
        (let ((ok (outline-server--apply-changes pane changes)))
          (setf (outline-server--pane-version pane) v)
          (if (not ok)
              (outline-server--reload pane (or (plist-get res :total) (outline-server--pane-count pane)))
            (when (> (length groups) 0) (outline-server--update-groups pane res groups expanded index))
            (outline-server--fill pane))))))))

(defun outline-server--update-groups (pane res groups expanded index)
  "Turn the arrows of GROUPS (ids) in PANE after RES.
With EXPANDED known, the headers are drawn again from what is held;
else they are fetched again.  When GROUPS is only the result's `id',
which stands at INDEX, no other slot is looked at."
  (let ((ids (make-hash-table :test 'equal)) (rows (outline-server--pane-rows pane)) (items nil)
        (only (and index (= (length groups) 1) (equal (aref groups 0) (plist-get res :id))
                   (outline-server--slot-with pane (plist-get res :id) index))))
    (mapc (lambda (id) (puthash id t ids)) groups)
    (dotimes (j (if only 1 (outline-server--pane-count pane)))
      (let* ((k (or only j)) (r (outline-server--row (aref rows k))))
        ;; Only groups turn: rows, most of the list, are passed over at once.
        (when (and r (outline-server--item-group r) (gethash (outline-server--item-id r) ids))
          (if (not (memq expanded '(t :json-false)))
              (progn (aset rows k (outline-server--stale r))
                     (cl-incf (outline-server--pane-pending pane)))
            (let ((e (if (or (null (plist-get res :id)) (equal (outline-server--item-id r) (plist-get res :id)))
                         (eq expanded t)
                       (not (eq expanded t)))))
              (unless (eq e (outline-server--item-expanded r))
                (setq r (copy-sequence r))
                (setf (outline-server--item-expanded r) e)
                (push (cons k r) items)))))))
    (outline-server--put pane (nreverse items))))

(defun outline-server--place (pane changes)
  "Where PANE's point stands, as a function that puts it back after CHANGES.
Point is on a line of an item, at a column; its window shows that line
on one of its lines.  After the server's CHANGES, the function puts
point on the same line of the item with the same id (or, when that id
is gone, on the item that took its place), on the same window line when
it can.  nil when point is on no item."
  (let* ((buf (outline-server--pane-buffer pane))
         (win (get-buffer-window buf t)))
    (with-current-buffer buf
      (save-restriction
        (widen)
        (let* ((pos (if win (window-point win) (point)))
               (k (outline-server--slot-at pane pos))
               (row (and k (outline-server--row (aref (outline-server--pane-rows pane) k)))))
          (when row
            (let* ((id (outline-server--item-id row))
                   (place (outline-server--map-place k changes))
                   (line (1- (line-number-at-pos pos)))
                   (in-item (- line (outline-server--line-of pane k)))
                   (column (save-excursion (goto-char pos) (current-column)))
                   (shown (and win (- line (1- (line-number-at-pos (window-start win)))))))
              (lambda ()
                (let ((k (outline-server--slot-with pane id place)) (n (outline-server--pane-count pane)))
                  (when (and (not k) (> n 0))
                    (setq k (min place (1- n)) in-item 0 column nil))
                  (when k
                    (with-current-buffer buf
                      (goto-char (point-min))
                      (let ((line (+ (outline-server--line-of pane k)
                                     (min in-item (max 0 (1- (aref (outline-server--pane-heights pane) k)))))))
                        (forward-line line)
                        (if column (move-to-column column) (back-to-indentation))
                        (dolist (w (get-buffer-window-list buf nil t)) (set-window-point w (point)))
                        (when (and shown (window-live-p win) (<= 0 shown) (< shown (window-body-height win)))
                          (set-window-start win (save-excursion (forward-line (- (min shown line)))
                                                                (line-beginning-position))
                                            t))))))))))))))

(defun outline-server--apply-keeping-place (pane res)
  "Apply RES, changes no command asked for (an edit, the file read again), to PANE.
Point stays on its item, unless a command waits to put it elsewhere."
  (let ((back (and (not (outline-server--pane-goto pane))
                   (> (length (plist-get res :changes)) 0)
                   (outline-server--place pane (plist-get res :changes)))))
    (outline-server--apply-result pane res)
    (when (and back (not (outline-server--pane-goto pane)))
      (setf (outline-server--pane-goto pane) back))))

(defun outline-server--on-notification (_conn method params)
  "Handle the server's notification METHOD with PARAMS."
  (outline-server--guard
    (when (eq method 'outlineChanged)
      (let ((pane (outline-server--find-pane (plist-get params :uri))))
        (when (and pane (eq (outline-server--pane-state pane) 'open))
          (outline-server--apply-keeping-place pane params)
          (outline-server--show-diagnostics pane (plist-get params :diagnostics))
          (let ((src (outline-server--pane-src pane)))
            ;; The server read the file again: the buffer's unsaved changes are gone there.
            (when (and (buffer-live-p src) (buffer-modified-p src))
              (setf (outline-server--pane-full pane) t)
              (outline-server--schedule-sync pane 0)))
          (outline-server--settle pane))))))

;;;; Errors, in words

(defun outline-server--say-error (method err)
  "Show the error ERR that METHOD got, in words."
  (message "%s" (outline-server--error-text method err)))

(defun outline-server--error-text (_method err &optional name)
  "What to tell the user of the error ERR that a request got.
NAME names the outline's text in the words for its diagnostics."
  (let ((code (plist-get err :code)) (msg (or (plist-get err :message) "")))
    (cond
     ((and (eql code -32602) (string-match-p "single" msg) (string-match-p "expandSiblings" msg))
      "Opening every sibling is not possible in an accordion (expansion: single): open one group at a time with TAB")
     ((and (eql code -32602) (string-match-p "single" msg) (string-match-p "expandAll" msg))
      "Expand all is not possible in an accordion (expansion: single): open one group at a time with TAB")
     ((eql code -32012) "That item is no longer in the outline")
     ((eql code -32010) "The outline is not open on the server: press g to open it again")
     ((eql code -32011) (outline-server--diagnostics-text (plist-get (plist-get err :data) :diagnostics) name))
     ((eql code -32800) "Cancelled")
     ((eql code -1) "outline-server stopped: press g in the pane to start it again")
     (t msg))))

(defun outline-server--diagnostics-text (diags &optional name)
  "The errors of DIAGS (server plists) as lines, the first saying NAME has them."
  (let ((errs (cl-remove-if-not (lambda (d) (eql (plist-get d :severity) 1)) (append diags nil))))
    (concat (format "%s%d error%s" (if name (concat name " has ") "")
                    (length errs) (if (= (length errs) 1) "" "s"))
            (mapconcat (lambda (d)
                         (let ((s (plist-get (plist-get d :range) :start)))
                           (format "\n  line %d, column %d: %s" (1+ (plist-get s :line))
                                   (1+ (plist-get s :character)) (plist-get d :message))))
                       (seq-take errs 5) ""))))

(defun outline-server--fail (pane text)
  "Put PANE in error, saying TEXT in place of its rows."
  (setf (outline-server--pane-state pane) 'error
        (outline-server--pane-error pane) text
        (outline-server--pane-busy pane) nil
        (outline-server--pane-queue pane) nil
        (outline-server--pane-goto pane) nil
        (outline-server--pane-count pane) 0 (outline-server--pane-pending pane) 0
        (outline-server--pane-starts-valid pane) nil)
  (outline-server--show-message pane (concat text "\n"))
  (force-mode-line-update t))

(defun outline-server--show-diagnostics (pane diags)
  "Show DIAGS in PANE's header line and as overlays in its source buffer."
  (setq diags (append diags nil))
  (let ((errs (cl-remove-if-not (lambda (d) (eql (plist-get d :severity) 1)) diags))
        (old (outline-server--pane-diagnostics pane)))
    (setf (outline-server--pane-diagnostics pane) diags)
    (with-current-buffer (outline-server--pane-buffer pane)
      ;; The header line is cut at the window's width: the mouse over it shows
      ;; every error, and they are said in the echo area when the text breaks.
      (setq header-line-format
            (and errs (let ((s (plist-get (plist-get (car errs) :range) :start)))
                        (propertize
                         (string-replace
                          "%" "%%" (format " %d error%s, line %d: %s (outline as it last was)" (length errs)
                                           (if (= (length errs) 1) "" "s") (1+ (plist-get s :line))
                                           (plist-get (car errs) :message)))
                         'help-echo (outline-server--diagnostics-text errs (outline-server--name pane)))))))
    (unless (equal old diags)
      (let ((src (outline-server--pane-src pane)))
        (when (buffer-live-p src)
          (with-current-buffer src
            (save-excursion
              (save-restriction
                (widen)
                (remove-overlays nil nil 'outline-server t)
                (goto-char (point-min))
                (let ((line 0))
                  (dolist (d (sort (copy-sequence diags)
                                   (lambda (a b) (< (plist-get (plist-get (plist-get a :range) :start) :line)
                                                    (plist-get (plist-get (plist-get b :range) :start) :line)))))
                    (let* ((r (plist-get d :range))
                           (beg (progn (forward-line (- (plist-get (plist-get r :start) :line) line))
                                       (setq line (plist-get (plist-get r :start) :line))
                                       (min (+ (point) (plist-get (plist-get r :start) :character))
                                            (line-end-position))))
                           (end (save-excursion
                                  (forward-line (- (plist-get (plist-get r :end) :line) line))
                                  (min (+ (point) (plist-get (plist-get r :end) :character)) (line-end-position))))
                           (ov (make-overlay beg (max end (min (1+ beg) (point-max))))))
                      (overlay-put ov 'outline-server t)
                      (overlay-put ov 'face (if (eql (plist-get d :severity) 1) 'error 'warning))
                      (overlay-put ov 'help-echo (plist-get d :message)))))))))
        ;; Said once when the text breaks; the header line keeps saying it.
        (when (and errs (not (cl-find 1 old :key (lambda (d) (plist-get d :severity)))))
          (message "%s" (outline-server--diagnostics-text errs (outline-server--name pane))))))))

;;;; Opening

(defun outline-server--layout (pane)
  "The layout PANE asks for: cells, the pane's width, the row marker as padding."
  (list :unit "cell" :width (outline-server--pane-width pane) :indent 2 :lineHeight 1
        :narrowWidth 1 :wideWidth 2 :padding '(:top 0 :bottom 0 :left 2 :right 0)))

(defun outline-server--window-width (pane)
  "Columns PANE's window can draw: nil when it is not shown.
A terminal keeps the last column for the continuation glyph `$' or `\\',
so a line as wide as the body would lose its last character."
  (let ((w (get-buffer-window (outline-server--pane-buffer pane) t)))
    (and w (window-max-chars-per-line w))))

(defun outline-server--disk-text-p (buffer)
  "Non-nil when BUFFER holds its file as on disk, in UTF-8: the server can read it."
  (with-current-buffer buffer
    (and buffer-file-name (not (buffer-modified-p)) (file-readable-p buffer-file-name)
         (verify-visited-file-modtime buffer)
         (memq (coding-system-base (or buffer-file-coding-system 'undecided))
               '(utf-8 undecided prefer-utf-8 us-ascii utf-8-emacs)))))

(defun outline-server--buffer-text (buffer)
  "The whole text of BUFFER."
  (with-current-buffer buffer
    (save-restriction (widen) (buffer-substring-no-properties (point-min) (point-max)))))

(defun outline-server--open-params (pane)
  "The openOutline params of PANE, with the text when the server cannot read it."
  (let ((src (outline-server--pane-src pane))
        (params (list :uri (outline-server--pane-uri pane) :layout (outline-server--layout pane))))
    (cond ((null src) (append params '(:watch t)))
          ((outline-server--disk-text-p src) params)
          (t (append params (list :text (outline-server--buffer-text src)))))))

(defun outline-server--open (pane)
  "Open PANE's outline on the server and fetch its rows."
  (let ((src (outline-server--pane-src pane)))
    (when src
      ;; What the server gets now is the text: edits before it are in it.
      (setf (outline-server--pane-edits pane) nil (outline-server--pane-full pane) nil
            (outline-server--pane-anchor pane) (cons 1 0))
      (cl-incf (outline-server--pane-gen pane)))
    (setf (outline-server--pane-width pane)
          (or (outline-server--window-width pane) outline-server-width))
    (unless (eq (outline-server--pane-state pane) 'open)
      (setf (outline-server--pane-state pane) 'opening)
      (outline-server--show-message pane "Opening…\n"))
    (setf (outline-server--pane-busy pane) t)
    (cl-incf (outline-server--pane-syncs pane))
    (let ((gen (outline-server--pane-gen pane)))
      (outline-server--send
       :openOutline (outline-server--open-params pane)
       (lambda (res)
         (cl-decf (outline-server--pane-syncs pane))
         (when (outline-server--pane-live-p pane)
           (outline-server--cancel-retry pane)
           (setf (outline-server--pane-state pane) 'open (outline-server--pane-error pane) nil
                 (outline-server--pane-busy pane) nil
                 (outline-server--pane-version pane) (plist-get res :version))
           (outline-server--show-diagnostics pane (plist-get res :diagnostics))
           (when (outline-server--pane-query pane) ; the server keeps the filter of an open uri
             (outline-server--refilter pane))
           (outline-server--reload pane (plist-get res :total))
           (force-mode-line-update t)))
       (lambda (err)
         (cl-decf (outline-server--pane-syncs pane))
         (when (and (outline-server--pane-live-p pane) (= gen (outline-server--pane-gen pane)))
           (outline-server--show-diagnostics pane (plist-get (plist-get err :data) :diagnostics))
           (outline-server--fail pane (concat (outline-server--error-text :openOutline err (outline-server--name pane))
                                              (if (outline-server--pane-src pane)
                                                  "\nThe outline shows once the text is fixed."
                                                "\nThe outline shows once the file is fixed.")))
           (unless (outline-server--pane-src pane) (outline-server--watch-broken pane))))))))

(defun outline-server--refilter (pane)
  "Send PANE's filter again (after a re-open that kept it)."
  (outline-server--send :filterOutline (list :uri (outline-server--pane-uri pane)
                                             :query (or (outline-server--pane-query pane) ""))
                        (lambda (res) (outline-server--set-matches pane res))))

(defun outline-server--watch-broken (pane)
  "Open PANE's file again when it changes: it is missing or broken."
  (outline-server--cancel-retry pane)
  (let ((file (outline-server--pane-file pane)))
    (setf (outline-server--pane-retry-stamp pane) (file-attributes file))
    (setf (outline-server--pane-retry-timer pane)
          (run-with-timer 1 1 (lambda ()
                                (outline-server--guard
                                  (if (not (outline-server--pane-live-p pane))
                                      (outline-server--cancel-retry pane)
                                    (let ((stamp (file-attributes file)))
                                      (unless (equal stamp (outline-server--pane-retry-stamp pane))
                                        (setf (outline-server--pane-retry-stamp pane) stamp)
                                        (when stamp (outline-server--open pane)))))))))))

(defun outline-server--cancel-retry (pane)
  "Stop watching PANE's broken file."
  (when (outline-server--pane-retry-timer pane)
    (cancel-timer (outline-server--pane-retry-timer pane))
    (setf (outline-server--pane-retry-timer pane) nil)))

;;;###autoload
(defun outline-server-open (&optional file)
  "Show the outline of the current YAML buffer in a side window.
With a prefix argument, ask for a FILE and show its outline as read from
disk; that pane follows the file when it changes.  Return the pane's
buffer.  In the pane, \\<outline-server-pane-mode-map>\\[describe-mode] lists the keys."
  (interactive (list (and current-prefix-arg (read-file-name "Outline of file: " nil nil t))))
  (when (and outline-server--pane (not file))
    (user-error "This is an outline pane: open the outline of a YAML buffer"))
  (let* ((src (unless file (current-buffer)))
         (file (and file (expand-file-name file)))
         (uri (cond (file (outline-server--uri file))
                    ((buffer-file-name) (outline-server--uri (expand-file-name (buffer-file-name))))
                    (t (concat "untitled:" (url-hexify-string (buffer-name))))))
         (pane (or (and src (outline-server--pane-live-p outline-server--source-pane) outline-server--source-pane)
                   (outline-server--find-pane uri))))
    (unless pane
      (let ((buf (generate-new-buffer
                  (format "*Outline %s*" (if file (file-name-nondirectory file) (buffer-name src))))))
        (setq pane (outline-server--make-pane :buffer buf :src src :file file :uri uri))
        (push pane outline-server--panes)
        (with-current-buffer buf
          (outline-server-pane-mode)
          (setq outline-server--pane pane)
          (setq mode-line-buffer-identification
                (list (propertize (outline-server--name pane) 'face 'mode-line-buffer-id))))
        (when src
          (with-current-buffer src
            (setq outline-server--source-pane pane)
            (add-hook 'before-change-functions #'outline-server--before-change nil t)
            (add-hook 'after-change-functions #'outline-server--after-change nil t)
            (add-hook 'after-revert-hook #'outline-server--after-revert nil t)
            (add-hook 'post-command-hook #'outline-server--post-command nil t)
            (add-hook 'kill-buffer-hook #'outline-server--source-killed nil t)))
        (outline-server--display pane)
        (outline-server--open pane)))
    (outline-server--display pane)
    (outline-server--pane-buffer pane)))

(defun outline-server--display (pane)
  "Show PANE in a side window on the right and select it."
  (let ((win (display-buffer-in-side-window (outline-server--pane-buffer pane)
                                            `((side . right) (window-width . ,outline-server-width)))))
    (when win (select-window win))))

(defun outline-server--closed ()
  "The pane's buffer is killed: close its outline."
  (let ((pane outline-server--pane))
    (when pane
      (setq outline-server--panes (delq pane outline-server--panes))
      (outline-server--cancel-retry pane)
      (dolist (tm (list (outline-server--pane-timer pane) (outline-server--pane-follow-timer pane)))
        (when tm (cancel-timer tm)))
      (let ((src (outline-server--pane-src pane)))
        (when (buffer-live-p src)
          (with-current-buffer src
            (remove-overlays nil nil 'outline-server t)
            (setq outline-server--source-pane nil)
            (remove-hook 'before-change-functions #'outline-server--before-change t)
            (remove-hook 'after-change-functions #'outline-server--after-change t)
            (remove-hook 'after-revert-hook #'outline-server--after-revert t)
            (remove-hook 'post-command-hook #'outline-server--post-command t)
            (remove-hook 'kill-buffer-hook #'outline-server--source-killed t))))
      (when (and outline-server--conn (jsonrpc-running-p outline-server--conn)
                 (eq (outline-server--pane-state pane) 'open))
        (outline-server--send :closeOutline (list :uri (outline-server--pane-uri pane)) #'ignore #'ignore)))))

(defun outline-server--source-killed ()
  "The source buffer is killed: so is its pane."
  (let ((pane outline-server--source-pane))
    (when (outline-server--pane-live-p pane)
      (kill-buffer (outline-server--pane-buffer pane)))))

;;;; Following the source buffer

(dolist (f '(outline-server--before-change outline-server--after-change
             outline-server--after-revert outline-server--post-command outline-server--source-killed))
  ;; `revert-buffer' runs the major mode again, which kills local hooks but these.
  (put f 'permanent-local-hook t))

(defun outline-server--position (pane pos)
  "The LSP position of POS in the current buffer, in characters (utf-32).
Lines are counted from PANE's anchor, a line start whose number is
known, so a keystroke does not count the lines of the whole buffer."
  (save-excursion
    (save-restriction
      (widen)
      (goto-char pos)
      (let* ((bol (line-beginning-position)) (anchor (outline-server--pane-anchor pane))
             (line (if (>= bol (car anchor))
                       (+ (cdr anchor) (count-lines (car anchor) bol))
                     (- (cdr anchor) (count-lines bol (car anchor))))))
        (setf (outline-server--pane-anchor pane) (cons bol line))
        (list :line line :character (- pos bol))))))

(defun outline-server--before-change (beg end)
  "Note where the text from BEG to END stands before it changes."
  (let ((pane outline-server--source-pane))
    (when (and (outline-server--pane-live-p pane) (not (outline-server--pane-full pane)))
      (setf (outline-server--pane-before pane)
            (list beg end (outline-server--position pane beg) (outline-server--position pane end)))
      ;; The anchor must stand before the change to stay right after it.
      (outline-server--position pane beg))))

(defun outline-server--after-change (beg end old-len)
  "Queue the change of BEG..END (OLD-LEN characters before) as an edit."
  (let ((pane outline-server--source-pane))
    (when (outline-server--pane-live-p pane)
      (let ((before (outline-server--pane-before pane)))
        (setf (outline-server--pane-before pane) nil)
        (cond
         ((outline-server--pane-full pane))
         ((and before (<= (nth 0 before) beg) (<= (+ beg old-len) (nth 1 before)))
          (let ((b0 (nth 0 before)) (e1 (+ (nth 1 before) (- end beg old-len))))
            (push (list :range (list :start (nth 2 before) :end (nth 3 before))
                        :text (save-restriction (widen) (buffer-substring-no-properties b0 e1)))
                  (outline-server--pane-edits pane))))
         ((and (= beg end) (= old-len 0)))
         (t (setf (outline-server--pane-full pane) t (outline-server--pane-edits pane) nil)))
        (unless (outline-server--pane-first-edit pane)
          (setf (outline-server--pane-first-edit pane) (float-time)))
        (outline-server--schedule-sync
         pane (if (> (- (float-time) (outline-server--pane-first-edit pane)) outline-server-sync-max-delay)
                  0 outline-server-sync-delay))))))

(defun outline-server--after-revert ()
  "The buffer was read again: send what changed at once."
  (let ((pane outline-server--source-pane))
    (when (outline-server--pane-live-p pane)
      (setf (outline-server--pane-anchor pane) (cons 1 0))
      (outline-server--schedule-sync pane 0))))

(defun outline-server--schedule-sync (pane delay)
  "Send PANE's edits after DELAY seconds without another change."
  (when (outline-server--pane-timer pane) (cancel-timer (outline-server--pane-timer pane)))
  (setf (outline-server--pane-timer pane)
        (run-with-timer delay nil (lambda () (outline-server--guard (outline-server--sync pane))))))

(defun outline-server--sync (pane)
  "Send PANE's pending edits (or the whole text) to the server, without waiting."
  (when (outline-server--pane-timer pane) (cancel-timer (outline-server--pane-timer pane)))
  (setf (outline-server--pane-timer pane) nil (outline-server--pane-first-edit pane) nil)
  (let ((src (outline-server--pane-src pane)))
    (when (and (outline-server--pane-live-p pane) (buffer-live-p src))
      (pcase (outline-server--pane-state pane)
        ('opening (when (or (outline-server--pane-edits pane) (outline-server--pane-full pane))
                    (outline-server--schedule-sync pane outline-server-sync-delay)))
        ('error (when (or (outline-server--pane-edits pane) (outline-server--pane-full pane))
                  (outline-server--open pane)))
        ('open
         (let* ((full (outline-server--pane-full pane))
                (edits (outline-server--pane-edits pane))
                (params (list :uri (outline-server--pane-uri pane))))
           (when (or full edits)
             (if full
                 (progn (setq params (append params (list :text (outline-server--buffer-text src))))
                        (cl-incf (outline-server--pane-gen pane)))
               (setq params (append params (list :edits (vconcat (reverse edits))))))
             (setf (outline-server--pane-edits pane) nil (outline-server--pane-full pane) nil)
             (cl-incf (outline-server--pane-syncs pane))
             (let ((gen (outline-server--pane-gen pane)))
               (outline-server--send
                :changeOutline params
                (lambda (res)
                  (cl-decf (outline-server--pane-syncs pane))
                  (when (outline-server--pane-live-p pane)
                    (outline-server--show-diagnostics pane (plist-get res :diagnostics))
                    (outline-server--apply-keeping-place pane res)
                    (outline-server--settle pane)))
                (lambda (err)
                  (cl-decf (outline-server--pane-syncs pane))
                  (when (and (outline-server--pane-live-p pane) (= gen (outline-server--pane-gen pane)))
                    (pcase (plist-get err :code)
                      ;; The server's text drifted from the buffer's, or nothing was applied:
                      ;; send the whole text.
                      ((or -32602 -32013 -32800)
                       (setf (outline-server--pane-full pane) t)
                       (outline-server--schedule-sync pane 0))
                      (-32010 (outline-server--open pane))
                      (_ (outline-server--say-error :changeOutline err))))))))))))))

(defun outline-server--flush (pane)
  "Send PANE's pending edits now, so what follows sees the buffer's text."
  (when (and (outline-server--pane-src pane)
             (or (outline-server--pane-edits pane) (outline-server--pane-full pane)))
    (outline-server--sync pane)))

(defun outline-server--post-command ()
  "After a command in the source buffer, show the item under the cursor.
It waits `outline-server-follow-delay' seconds of rest first."
  (let ((pane outline-server--source-pane))
    (when (and (outline-server--pane-live-p pane)
               (eq (outline-server--pane-state pane) 'open)
               (get-buffer-window (outline-server--pane-buffer pane) t)
               (not (eql (point) (car (outline-server--pane-current pane)))))
      (when (outline-server--pane-follow-timer pane) (cancel-timer (outline-server--pane-follow-timer pane)))
      (let ((src (current-buffer)))
        (setf (outline-server--pane-follow-timer pane)
              (run-with-timer outline-server-follow-delay nil
                              (lambda ()
                                (setf (outline-server--pane-follow-timer pane) nil)
                                (outline-server--guard
                                  (when (and (outline-server--pane-live-p pane) (buffer-live-p src)
                                             (eq (outline-server--pane-state pane) 'open))
                                    (outline-server--follow pane (with-current-buffer src (point))))))))))))

(defun outline-server--follow (pane pos)
  "Highlight in PANE the item at POS of its source buffer, opening its groups."
  (setf (outline-server--pane-current pane) (cons pos nil))
  (outline-server--flush pane)
  (outline-server--run
   pane
   (lambda ()
     (let ((position (with-current-buffer (outline-server--pane-src pane)
                       (outline-server--position pane pos))))
       (outline-server--call
        pane :itemAtPosition (list :uri (outline-server--pane-uri pane) :position position)
        (lambda (item)
          (if (null item)
              (outline-server--set-current pane nil)
            (let* ((win (get-buffer-window (outline-server--pane-buffer pane) t))
                   (top (if win (with-current-buffer (outline-server--pane-buffer pane)
                                  (1- (line-number-at-pos (window-start win))))
                          0))
                   (height (if win (window-body-height win) 20)))
              (outline-server--call
               pane :revealItem (list :uri (outline-server--pane-uri pane) :id (plist-get item :id)
                                      :scrollTop top :viewportHeight height)
               (lambda (res)
                 (outline-server--apply-result pane res)
                 (setf (outline-server--pane-goto pane)
                       (lambda ()
                         (outline-server--set-current pane (plist-get item :id))
                         (when (and win (window-live-p win) (plist-get res :scrollTop))
                           (with-current-buffer (outline-server--pane-buffer pane)
                             (set-window-start win (save-excursion (goto-char (point-min))
                                                                   (forward-line (truncate (plist-get res :scrollTop)))
                                                                   (point)))))))))))))))))

(defun outline-server--set-current (pane id)
  "Highlight the item ID in PANE (none when nil) and put the pane's point on it."
  (setcdr (outline-server--pane-current pane) id)
  (let ((ov (outline-server--pane-current-overlay pane)) (k (and id (outline-server--slot-of pane id))))
    (with-current-buffer (outline-server--pane-buffer pane)
      (if (null k)
          (when ov (delete-overlay ov))
        (let* ((beg (save-excursion (goto-char (point-min)) (forward-line (outline-server--line-of pane k)) (point)))
               (end (save-excursion (goto-char beg)
                                    (forward-line (aref (outline-server--pane-heights pane) k))
                                    (point))))
          (unless ov
            (setq ov (make-overlay beg end))
            (overlay-put ov 'face 'outline-server-current)
            (setf (outline-server--pane-current-overlay pane) ov))
          (move-overlay ov beg end)
          (let ((pos (save-excursion (goto-char beg) (back-to-indentation) (point))))
            (goto-char pos)
            (dolist (w (get-buffer-window-list (current-buffer) nil t)) (set-window-point w pos))))))))

;;;; Pane commands

(defun outline-server--run (pane fn)
  "Run FN in PANE's buffer once the commands before it are done.
A command waits for its answer and the rows it brings without blocking
Emacs: keys pressed meanwhile run after it, in order."
  (when (eq (outline-server--pane-state pane) 'error)
    (user-error "%s" (car (split-string (or (outline-server--pane-error pane) "The outline is not open") "\n"))))
  (setf (outline-server--pane-queue pane) (nconc (outline-server--pane-queue pane) (list fn)))
  (outline-server--next pane))

(defun outline-server--next (pane)
  "Run the commands waiting in PANE while it is idle."
  (while (and (outline-server--pane-live-p pane) (outline-server--idle-p pane)
              (outline-server--pane-queue pane))
    (let ((fn (pop (outline-server--pane-queue pane))))
      (with-current-buffer (outline-server--pane-buffer pane) (funcall fn)))))

(defun outline-server--call (pane method params on-result)
  "Send METHOD with PARAMS for a pane command; PANE is busy until the answer.
ON-RESULT gets the result; an error is shown in words."
  (setf (outline-server--pane-busy pane) t)
  (outline-server--send
   method params
   (lambda (res)
     (setf (outline-server--pane-busy pane) nil)
     (when (outline-server--pane-live-p pane)
       (unwind-protect (funcall on-result res)
         (outline-server--settle pane))))
   (lambda (err)
     (setf (outline-server--pane-busy pane) nil)
     (outline-server--say-error method err)
     (outline-server--settle pane))))

(defmacro outline-server--command (&rest body)
  "Run BODY as a pane command of the current pane (`pane' is bound)."
  (declare (indent 0) (debug t))
  `(let ((pane (or outline-server--pane (user-error "Not in an outline pane"))))
     (outline-server--run pane (lambda () ,@body))))

(defun outline-server--goto-slot (pane k)
  "Put PANE's point (and its windows') on slot K."
  (with-current-buffer (outline-server--pane-buffer pane)
    (let ((r (outline-server--row (aref (outline-server--pane-rows pane) k))))
      (goto-char (point-min))
      (forward-line (outline-server--line-of pane k))
      (forward-char (min (* 2 (if r (outline-server--item-depth r) 0))
                         (- (line-end-position) (point))))
      (dolist (w (get-buffer-window-list (current-buffer) nil t)) (set-window-point w (point))))))

(defun outline-server--slot-with (pane id index)
  "INDEX when PANE's slot INDEX holds the item ID.
Else the slot holding it, or nil."
  (let ((r (and index (< -1 index (outline-server--pane-count pane))
                (outline-server--row (aref (outline-server--pane-rows pane) index)))))
    (if (and r (equal (outline-server--item-id r) id)) index (outline-server--slot-of pane id))))

(defun outline-server--map-index (index changes)
  "Where the item at INDEX stands after CHANGES, or nil when they delete it."
  (mapc (lambda (c)
          (when index
            (let ((s (plist-get c :start)) (n (plist-get c :count)))
              (if (equal (plist-get c :kind) "insert")
                  (when (<= s index) (setq index (+ index n)))
                (cond ((>= index (+ s n)) (setq index (- index n)))
                      ((>= index s) (setq index nil)))))))
        changes)
  index)

(defun outline-server--map-place (index changes)
  "Where the item at INDEX stands after CHANGES, or the item that took its place.
An item deleted gives way to the one at the same place in what is
inserted where it was (a group renamed comes back as a block of as many
items, those of its rows whose ids derive from its title among them),
else to the item after what was deleted."
  (let ((offset nil))
    (mapc (lambda (c)
            (let ((s (plist-get c :start)) (n (plist-get c :count)))
              (if (equal (plist-get c :kind) "insert")
                  (cond ((and offset (= s index))
                         (setq index (+ s (if (< offset n) offset n)) offset nil))
                        ((<= s index) (setq index (+ index n))))
                (cond ((>= index (+ s n)) (setq index (- index n)))
                      ((>= index s) (setq offset (- index s) index s))))))
          changes)
    index))

(defun outline-server--goto-id (pane id &optional fallback index)
  "Put PANE's point on the item ID, which may stand at INDEX.
When it is not shown, on the first of the FALLBACK ids shown."
  (let ((k (and id (outline-server--slot-with pane id index))))
    (while (and (not k) fallback)
      (setq k (outline-server--slot-of pane (pop fallback))))
    (when k (outline-server--goto-slot pane k))))

(defun outline-server--ancestors (pane id)
  "The ids of ID's groups in PANE's rows, innermost first (those drawn)."
  (let ((rows (outline-server--pane-rows pane)) (out nil) (k (outline-server--slot-of pane id)))
    (while k
      (let ((parent (outline-server--item-parent (outline-server--row (aref rows k)))))
        (setq k nil)
        (when parent
          (push parent out)
          (setq k (outline-server--slot-of pane parent)))))
    (nreverse out)))

(defun outline-server--viewport (pane)
  "PANE's window as (:scrollTop TOP :viewportHeight HEIGHT), or nil when not shown."
  (let ((win (get-buffer-window (outline-server--pane-buffer pane) t)))
    (and win (with-current-buffer (outline-server--pane-buffer pane)
               (list :scrollTop (save-restriction (widen) (1- (line-number-at-pos (window-start win))))
                     :viewportHeight (window-body-height win))))))

(defun outline-server--scroll-to (pane top)
  "Make line TOP the first line of PANE's window."
  (let ((win (get-buffer-window (outline-server--pane-buffer pane) t)))
    (when (and win top)
      (with-current-buffer (outline-server--pane-buffer pane)
        (set-window-start win (save-excursion (goto-char (point-min)) (forward-line (truncate top)) (point)))))))

(defun outline-server--toggle-params (pane id)
  "The toggleSection params for the group ID of PANE, keeping the header in place."
  (append (list :uri (outline-server--pane-uri pane) :section id) (outline-server--viewport pane)))

(defun outline-server-toggle ()
  "Open or close the group at point; on a row, its group.
The group's header stays where it is in the window."
  (interactive)
  (outline-server--command
    (let* ((k (or (outline-server--slot-at pane) (user-error "No item here")))
           (row (outline-server--row (aref (outline-server--pane-rows pane) k)))
           (group (outline-server--item-group row))
           (id (if group (outline-server--item-id row) (outline-server--item-parent row))))
      (outline-server--call
       pane :toggleSection (outline-server--toggle-params pane id)
       (lambda (res)
         (let ((index (and group (outline-server--map-index k (plist-get res :changes)))))
           (outline-server--apply-result pane res (plist-get res :expanded) index)
           (setf (outline-server--pane-goto pane)
                 (lambda () (outline-server--scroll-to pane (plist-get res :scrollTop))
                   (outline-server--goto-id pane (plist-get res :id) nil index)))))))))

(defun outline-server--all (pane method expanded)
  "Expand or collapse every group of PANE with METHOD.
EXPANDED is what they become (t or :json-false)."
  (let* ((row (outline-server--row-at pane))
         (id (and row (outline-server--item-id row)))
         (fallback (and id (outline-server--ancestors pane id))))
    (outline-server--call
     pane method (list :uri (outline-server--pane-uri pane))
     (lambda (res)
       (outline-server--apply-result pane res expanded)
       (setf (outline-server--pane-goto pane)
             (lambda () (outline-server--goto-id pane id fallback)))))))

(defun outline-server-expand-all ()
  "Open every group.  Not possible in an accordion (expansion: single)."
  (interactive)
  (outline-server--command (outline-server--all pane :expandAll t)))

(defun outline-server-collapse-all ()
  "Close every group; point goes to the top-level group it was in."
  (interactive)
  (outline-server--command (outline-server--all pane :collapseAll :json-false)))

(defun outline-server--navigate (pane key)
  "Move PANE's focus with the server's navigate KEY, opening or closing groups."
  (let ((row (outline-server--row-at pane)))
    (when row
      (outline-server--call
       pane :navigate (list :uri (outline-server--pane-uri pane) :from (outline-server--item-id row) :key key)
       (lambda (res)
         (when (plist-get res :version)
           (outline-server--apply-result pane res (if (equal key "expandSiblings") t (plist-get res :expanded))
                                         (and (plist-get res :id) (plist-get res :index))))
         (setf (outline-server--pane-goto pane)
               (lambda () (outline-server--goto-id pane (plist-get res :focus) nil (plist-get res :index)))))))))

(defun outline-server-expand-or-child ()
  "On a closed group, open it; on an open group, go to its first item."
  (interactive)
  (outline-server--command (outline-server--navigate pane "right")))

(defun outline-server-collapse-or-parent ()
  "On an open group, close it; elsewhere, go to the group above."
  (interactive)
  (outline-server--command (outline-server--navigate pane "left")))

(defun outline-server-expand-siblings ()
  "Open every group beside the item at point (the `*' of tree views).
Not possible in an accordion (expansion: single)."
  (interactive)
  (outline-server--command (outline-server--navigate pane "expandSiblings")))

(defun outline-server--move (pane n)
  "Move PANE's point N items down (up when negative), staying at the ends."
  (let* ((count (outline-server--pane-count pane))
         (k (or (outline-server--slot-at pane) (if (> n 0) -1 count))))
    (setq k (max 0 (min (1- count) (+ k n))))
    (when (> count 0) (outline-server--goto-slot pane k))))

(defun outline-server-next-item (&optional n)
  "Go to the next item, or the Nth next.  Detail lines are skipped."
  (interactive "p")
  (outline-server--command (outline-server--move pane (or n 1))))

(defun outline-server-previous-item (&optional n)
  "Go to the previous item, or the Nth previous."
  (interactive "p")
  (outline-server--command (outline-server--move pane (- (or n 1)))))

(defun outline-server-first-item ()
  "Go to the first item."
  (interactive)
  (outline-server--command
    (when (> (outline-server--pane-count pane) 0) (outline-server--goto-slot pane 0))))

(defun outline-server-last-item ()
  "Go to the last item of the whole visible list, shown at the window's bottom."
  (interactive)
  (outline-server--command
    (let ((n (outline-server--pane-count pane)))
      (when (> n 0)
        (outline-server--goto-slot pane (1- n))
        (dolist (w (get-buffer-window-list (current-buffer) nil t))
          (with-selected-window w
            (recenter (- (max 1 (aref (outline-server--pane-heights pane) (1- n)))))))))))

(defun outline-server--type (pane text)
  "Go to the next item of PANE whose title starts with TEXT."
  (let ((row (outline-server--row-at pane)))
    (when row
      (outline-server--call
       pane :navigate (list :uri (outline-server--pane-uri pane) :from (outline-server--item-id row)
                            :key (list :type text))
       (lambda (res)
         (if (equal (plist-get res :focus) (outline-server--item-id row))
             (unless (string-prefix-p (downcase text) (downcase (or (outline-server--item-title row) "")))
               (message "No item starts with “%s”" text))
           (setf (outline-server--pane-goto pane)
                 (lambda () (outline-server--goto-id pane (plist-get res :focus) nil (plist-get res :index))))))))))

(defun outline-server-type-ahead ()
  "Go to the next item whose title starts with the letter typed.
Letters typed one after the other, within
`outline-server-type-ahead-delay' seconds of each other, add up: D E B
goes to the next item starting with deb.  Case does not matter."
  (interactive)
  (let* ((pane (or outline-server--pane (user-error "Not in an outline pane")))
         (ch (downcase (string last-command-event)))
         (now (float-time))
         (text (if (and (eq last-command 'outline-server-type-ahead)
                        (outline-server--pane-typed pane)
                        (< (- now (outline-server--pane-typed-time pane)) outline-server-type-ahead-delay))
                   (concat (outline-server--pane-typed pane) ch)
                 ch)))
    (setf (outline-server--pane-typed pane) text (outline-server--pane-typed-time pane) now)
    (outline-server--run pane (lambda () (outline-server--type pane text)))))

(defun outline-server-find-item (text)
  "Go to the next item whose title starts with TEXT (asked in the minibuffer)."
  (interactive (list (outline-server--read "Go to item starting with: " nil)))
  (outline-server--command (outline-server--type pane text)))

(defun outline-server--set-matches (pane res)
  "Keep the filter matches of RES in PANE and draw the rows they change."
  (let ((old (outline-server--pane-matches pane)) (new (make-hash-table :test 'equal)) (ids (make-hash-table :test 'equal)))
    (mapc (lambda (m) (puthash (plist-get m :id) (append (plist-get m :ranges) nil) new)) (plist-get res :matches))
    (when old (maphash (lambda (k _) (puthash k t ids)) old))
    (maphash (lambda (k _) (puthash k t ids)) new)
    (setf (outline-server--pane-matches pane) (and (> (hash-table-count new) 0) new))
    (outline-server--redraw pane ids)))

(defconst outline-server--match-cap 10000
  "Most matches a filterOutline answer lists (docs/protocol.md).
The matches after those are shown, not highlighted.")

(defvar outline-server--filter-history nil "Filters typed before.")

(defun outline-server--escape ()
  "Cancel the prompt when Escape was pressed alone.
A terminal sends Escape before the key it modifies with Meta: when
another key follows at once, it is that Meta key."
  (interactive)
  (let ((ev (and (not (and executing-kbd-macro
                           (>= executing-kbd-macro-index (length executing-kbd-macro))))
                 (read-event nil nil 0.05))))
    (if (null ev) (abort-minibuffers)
      (let* ((keys (vector ?\e ev))
             (cmd (or (lookup-key minibuffer-local-map keys) (lookup-key (current-global-map) keys))))
        (if (commandp cmd)
            (progn (setq last-command-event ev) (call-interactively cmd))
          (ding))))))

(defvar outline-server-prompt-map
  (let ((m (make-sparse-keymap)))
    (set-keymap-parent m minibuffer-local-map)
    (define-key m "\e" #'outline-server--escape)
    (define-key m [escape] #'abort-minibuffers)
    m)
  "Keymap of the pane's prompts: Escape cancels, as \\[keyboard-quit] does.")

(defun outline-server--read (prompt initial)
  "Read a string after PROMPT, starting from INITIAL; nil when cancelled."
  (condition-case nil
      (read-from-minibuffer prompt initial outline-server-prompt-map nil 'outline-server--filter-history)
    (quit nil)))

(defun outline-server-filter (query)
  "Show only the items containing QUERY, with their groups.
Case does not matter; a group whose title matches shows with everything
in it; the matches are highlighted (the first 10,000: the server lists
no more, and the message says so).  An empty QUERY clears the filter.
Escape or \\[keyboard-quit] at the prompt leaves the filter as it was."
  (interactive (list (outline-server--read
                      (let ((q (and outline-server--pane (outline-server--pane-query outline-server--pane))))
                        (if q (format "Filter (now “%s”; empty clears): " q) "Filter: "))
                      nil)))
  (if (null query)
      (message "Filter unchanged")
    (outline-server--command
      (let* ((row (outline-server--row-at pane)) (id (and row (outline-server--item-id row)))
             (fallback (and id (outline-server--ancestors pane id))))
        (outline-server--call
         pane :filterOutline (list :uri (outline-server--pane-uri pane) :query query)
         (lambda (res)
           (setf (outline-server--pane-query pane) (if (string-empty-p query) nil query))
           (outline-server--apply-result pane res)
           (outline-server--set-matches pane res)
           (force-mode-line-update)
           (let ((first (and (> (length (plist-get res :matches)) 0)
                             (plist-get (aref (plist-get res :matches) 0) :id))))
             (setf (outline-server--pane-goto pane)
                   (lambda ()
                     (outline-server--goto-id pane (if (string-empty-p query) id first) fallback)
                     (message "%s" (cond ((string-empty-p query) "Filter cleared")
                                         ((= (length (plist-get res :matches)) 0)
                                          (format "No item matches “%s”" query))
                                         ((>= (length (plist-get res :matches)) outline-server--match-cap)
                                          (format "Filter “%s”: %s shown, the first %s matches highlighted (the most the server lists)"
                                                  query (outline-server--count (plist-get res :total))
                                                  (outline-server--thousands outline-server--match-cap)))
                                         (t (format "Filter “%s”: %s shown" query
                                                    (outline-server--count (plist-get res :total)))))))))))))))

(defun outline-server--count (n)
  "N items, in words."
  (format "%s item%s" (outline-server--thousands n) (if (eql n 1) "" "s")))

(defun outline-server--thousands (n)
  "N with thousands separated by commas."
  (let ((s (number-to-string n)))
    (while (string-match "\\([0-9]\\)\\([0-9]\\{3\\}\\)\\(,\\|$\\)" s)
      (setq s (replace-match "\\1,\\2\\3" t nil s)))
    s))

(defun outline-server--source-window (pane)
  "Show PANE's source (its buffer, or its file) in another window.
Return its buffer."
  (let ((buf (or (outline-server--pane-src pane)
                 (find-file-noselect (outline-server--pane-file pane)))))
    (display-buffer buf '((display-buffer-use-some-window display-buffer-pop-up-window)
                          (inhibit-same-window . t)))
    buf))

(defun outline-server--goto-source (pane select)
  "Show the source of the item at point of PANE; SELECT its window when non-nil."
  (let ((k (or (outline-server--slot-at pane) (user-error "No item here"))))
    (outline-server--flush pane)
    (outline-server--call
     pane :visibleRows (list :uri (outline-server--pane-uri pane) :start k :count 1 :include ["range"])
     (lambda (res)
       (let* ((row (aref (plist-get res :rows) 0))
              (start (plist-get (plist-get row :range) :start))
              (buf (outline-server--source-window pane))
              (win (get-buffer-window buf)))
         (with-current-buffer buf
           (save-restriction
             (widen)
             (goto-char (point-min))
             (forward-line (plist-get start :line))
             (forward-char (min (plist-get start :character) (- (line-end-position) (point))))
             (let ((pos (point)))
               (unless (<= (point-min) pos (point-max)) (widen))
               (when win (set-window-point win pos))
               (when (eq select t) (setf (outline-server--pane-current pane) (cons pos (plist-get row :id)))))))
         (when (and win select) (select-window win)))))))

(defun outline-server-goto-source ()
  "Go to the item at point in the YAML: its buffer, or its file."
  (interactive)
  (outline-server--command (outline-server--goto-source pane t)))

(defun outline-server-show-source ()
  "Show the item at point in the YAML, staying in the pane."
  (interactive)
  (outline-server--command (outline-server--goto-source pane nil)))

(defun outline-server-refresh (&rest _)
  "Open the outline again and fetch every row (the server too, if it stopped)."
  (interactive)
  (let ((pane (or outline-server--pane (user-error "Not in an outline pane"))))
    (setf (outline-server--pane-busy pane) nil (outline-server--pane-queue pane) nil)
    (outline-server--open pane)))

(defun outline-server-quit ()
  "Close the pane: its window, its buffer and its outline on the server.
In the last window of a frame, another buffer is shown instead."
  (interactive)
  (let ((buf (current-buffer)))
    (if (window-parameter nil 'window-side)
        (progn (delete-window) (kill-buffer buf))
      (quit-window t))))

(defun outline-server--relayout (pane)
  "Lay PANE out again when its window's width changed."
  (let ((width (outline-server--window-width pane)) (shown (outline-server--pane-message-shown pane)))
    ;; A message is broken at the width again (an open pane's is, once the layout is set).
    (when (and width shown (/= width (cdr shown)) (not (eq (outline-server--pane-state pane) 'open)))
      (outline-server--show-message pane (car shown)))
    (when (and width (eq (outline-server--pane-state pane) 'open)
               (/= width (outline-server--pane-width pane)))
      (setf (outline-server--pane-width pane) width)
      (outline-server--run
       pane
       (lambda ()
         (outline-server--call
          pane :setLayout (list :uri (outline-server--pane-uri pane) :width width)
          (lambda (res)
            (when (/= (plist-get res :version) (outline-server--pane-version pane))
              (setf (outline-server--pane-version pane) (plist-get res :version))
              (outline-server--reload pane (outline-server--pane-count pane))))))))))

(defun outline-server--window-size-change (_frame)
  "Lay out again the panes whose window changed width."
  (dolist (pane outline-server--panes)
    (when (outline-server--pane-live-p pane)
      (outline-server--guard (outline-server--relayout pane)))))

(add-hook 'window-size-change-functions #'outline-server--window-size-change)

;;;; The mode

(defvar outline-server-pane-mode-map
  (let ((m (make-sparse-keymap)))
    (define-key m (kbd "TAB") #'outline-server-toggle)
    (define-key m (kbd "o") #'outline-server-toggle)
    (define-key m (kbd "z a") #'outline-server-toggle)
    (define-key m (kbd "z R") #'outline-server-expand-all)
    (define-key m (kbd "z M") #'outline-server-collapse-all)
    (define-key m (kbd "*") #'outline-server-expand-siblings)
    (define-key m (kbd "RET") #'outline-server-goto-source)
    (define-key m (kbd "C-o") #'outline-server-show-source)
    (define-key m (kbd "n") #'outline-server-next-item)
    (define-key m (kbd "<down>") #'outline-server-next-item)
    (define-key m (kbd "p") #'outline-server-previous-item)
    (define-key m (kbd "<up>") #'outline-server-previous-item)
    (define-key m (kbd "f") #'outline-server-expand-or-child)
    (define-key m (kbd "<right>") #'outline-server-expand-or-child)
    (define-key m (kbd "b") #'outline-server-collapse-or-parent)
    (define-key m (kbd "<left>") #'outline-server-collapse-or-parent)
    (dolist (k '("<" "M-<" "<home>" "C-<home>"))
      (define-key m (kbd k) #'outline-server-first-item))
    (dolist (k '(">" "M->" "<end>" "C-<end>"))
      (define-key m (kbd k) #'outline-server-last-item))
    (define-key m (kbd "s") #'outline-server-filter)
    (define-key m (kbd "/") #'outline-server-filter)
    (define-key m (kbd "j") #'outline-server-find-item)
    (dolist (c (number-sequence ?A ?Z))
      (define-key m (string c) #'outline-server-type-ahead))
    (define-key m (kbd "g") #'outline-server-refresh)
    (define-key m (kbd "q") #'outline-server-quit)
    m)
  "Keys of the outline pane.")

(defun outline-server--mode-line ()
  "What the mode line says of the current pane."
  (let ((pane outline-server--pane))
    (when pane
      (pcase (outline-server--pane-state pane)
        ('opening " opening…")
        ('error " error")
        (_ (concat " " (outline-server--count (outline-server--pane-count pane))
                   (if (outline-server--pane-query pane)
                       (format " filter “%s”" (outline-server--pane-query pane)) "")))))))

(define-derived-mode outline-server-pane-mode special-mode "Outline"
  "The outline of a YAML group file: groups that open and close, with their rows.

Each group shows ▸ when closed and ▾ when open, its badge and its
count of active rows (4/10).  Under a group, ● marks an active row and
○ an inactive one; detail lines follow the title.  The server breaks
every line at the window's width.

Faces: `outline-server-group', `outline-server-badge',
`outline-server-count', `outline-server-row', `outline-server-inactive',
`outline-server-emphasis' (emphasised rows, such as VIPs),
`outline-server-detail', `outline-server-match' (the filter's matches)
and `outline-server-current' (the item under the cursor in the YAML
buffer).

Moving in the YAML buffer highlights its item here, opening its groups;
\\<outline-server-pane-mode-map>\\[outline-server-goto-source] goes the other way.  Keys typed while the server answers run
after it, in order.

\\{outline-server-pane-mode-map}"
  (setq truncate-lines t buffer-read-only t)
  (buffer-disable-undo)
  ;; The newline cache is rebuilt after each change: with rows drawn in and
  ;; out all the time, it makes `forward-line' fifteen times slower.
  (setq-local cache-long-scans nil)
  (setq-local revert-buffer-function #'outline-server-refresh)
  (setq mode-line-process '(:eval (outline-server--mode-line)))
  ;; A side window is narrow: the outline's name and how many items it shows.
  (setq mode-line-format '("%e " mode-line-buffer-identification " " mode-line-process))
  (add-hook 'kill-buffer-hook #'outline-server--closed nil t))

(provide 'outline-server)
;;; outline-server.el ends here
