;;; outline-server-test.el --- The pane in Emacs, against the real server  -*- lexical-binding: t; -*-

;;; Commentary:

;; Keys are pressed as a user presses them (`execute-kbd-macro'), in the
;; pane's window or the YAML buffer's, and the whole text of the pane is
;; compared.  Waits are on conditions (the pane has nothing under way),
;; with generous deadlines, never on the clock.

;;; Code:

(require 'ert)
(require 'cl-lib)
(require 'outline-server)

(defvar ost-root (expand-file-name "../../.." (file-name-directory (or load-file-name buffer-file-name)))
  "The project's root.")

(defvar ost-tmp nil "A directory for the files the tests change.")

(advice-add 'ask-user-about-lock :override (lambda (_file _opponent) nil))

(setq outline-server-sync-delay 0.05
      outline-server-follow-delay 0.05
      large-file-warning-threshold nil
      ;; The tests change the Debian outline's buffer but never save it:
      ;; no lock next to it, and another Emacs editing it does not stop them.
      create-lockfiles nil
      auto-save-default nil
      ;; The pane's side window: the body is 40 columns, 39 of which a terminal draws.
      outline-server-width 40)

(defun ost-wait (pred &optional what)
  "Wait until PRED holds, reading the server's answers.
Fail naming WHAT after 120 s."
  (let ((deadline (+ (float-time) 120)))
    (while (and (not (funcall pred)) (< (float-time) deadline))
      (accept-process-output nil 0.01))
    (unless (funcall pred) (ert-fail (format "timed out waiting for %s" (or what pred))))))

(defun ost-settle (pane)
  "Wait until PANE (a buffer) has nothing under way."
  (ost-wait (lambda () (outline-server-pane-settled-p pane)) "the pane to settle"))

(defun ost-text (buf)
  "The whole text of BUF, without properties."
  (with-current-buffer buf (save-restriction (widen) (buffer-substring-no-properties (point-min) (point-max)))))

(defun ost-lines (&rest lines)
  "LINES as a pane's text."
  (mapconcat (lambda (l) (concat l "\n")) lines ""))

(defun ost-line (buf)
  "The line at point in BUF."
  (with-current-buffer buf (buffer-substring-no-properties (line-beginning-position) (line-end-position))))

(defun ost-keys (keys &optional buf)
  "Press KEYS (as `kbd' reads them) in the window of BUF.
Without BUF, in the selected window."
  (when buf (select-window (or (get-buffer-window buf) (error "%s is not shown" buf))))
  (execute-kbd-macro (kbd keys)))

(defun ost-mode-line (pane)
  "What the mode line of PANE says of it (`format-mode-line' gives \"\" in batch)."
  (with-current-buffer pane (eval (cadr mode-line-process) t)))

(defun ost-last-message ()
  "The last line of *Messages*."
  (with-current-buffer "*Messages*"
    (goto-char (point-max))
    (skip-chars-backward "\n")
    (buffer-substring-no-properties (line-beginning-position) (point))))

(defun ost-copy (name)
  "A fresh copy of examples/NAME in a temporary directory; its path."
  (unless ost-tmp (setq ost-tmp (make-temp-file "outline-emacs" t)))
  (let ((to (expand-file-name name ost-tmp)))
    (copy-file (expand-file-name (concat "examples/" name) ost-root) to t)
    to))

(defun ost-write (file text)
  "Write TEXT to FILE as another program would (a new file renamed over it)."
  (let ((tmp (concat file ".new")))
    (with-temp-file tmp (insert text))
    (rename-file tmp file t)))

(defun ost-start ()
  "A frame with one window, no pane, and a fresh directory for copies.
The server saves the view state of each file by its path: a fresh
directory starts each test from the files' own state."
  (setq ost-tmp nil)
  (dolist (b (buffer-list))
    (when (buffer-local-value 'outline-server--pane b) (kill-buffer b)))
  (delete-other-windows)
  (ignore-errors (delete-other-windows)))

(defmacro ost-with-server (&rest body)
  "Run BODY, then stop the server and check that it ended well."
  (declare (indent 0))
  `(unwind-protect (progn (ost-start) ,@body)
     (dolist (b (buffer-list))
       (when (buffer-local-value 'outline-server--pane b) (kill-buffer b))
       (when (buffer-file-name b) (with-current-buffer b (set-buffer-modified-p nil)) (kill-buffer b)))
     (should (eql (outline-server-stop) 0))))

(defun ost-open (file &optional keys)
  "Visit FILE and press KEYS (default M-x outline-server-open RET).
Return the pane's buffer."
  (find-file file)
  (let ((before (buffer-list)))
    (ost-keys (or keys "M-x outline-server-open RET"))
    (let ((pane (cl-find-if (lambda (b) (buffer-local-value 'outline-server--pane b))
                            (cl-set-difference (buffer-list) before))))
      (should pane)
      (should (eq (window-buffer) pane))
      (ost-settle pane)
      pane)))

(defun ost-open-file (file)
  "Press C-u M-x outline-server-open for FILE: a pane on the file as on disk.
Return the pane's buffer once it has settled."
  (let ((before (buffer-list)))
    (ost-keys (concat "C-u M-x outline-server-open RET " file " RET"))
    (let ((pane (cl-find-if (lambda (b) (buffer-local-value 'outline-server--pane b))
                            (cl-set-difference (buffer-list) before))))
      (should pane)
      (ost-settle pane)
      pane)))

(defun ost-window-line (buf)
  "The line of BUF's window that its point is on, from 0."
  (let ((w (get-buffer-window buf)))
    (with-current-buffer buf
      (count-lines (window-start w) (save-excursion (goto-char (window-point w)) (line-beginning-position))))))

(defconst ost-contacts
  (ost-lines "▾ My Friends  4/10"
             "  ● 张伟 / Zhang Wei"
             "    在北京出差，周五回来"
             "  ● Alice Chen"
             "    Working from Lisbon this week, back"
             "    on the Tuesday flight if the strike"
             "    is over"
             "  ● 陈静"
             "    正在听：周杰伦《晴天》"
             "  ● Sarah Ng"
             "    On holiday: no laptop, no phone, no"
             "    problem 🌴"
             "  ○ 李娜"
             "    今天心情不错 ☀️"
             "  ○ Bob Li"
             "  ○ Marco Rossi"
             "    Busy"
             "  ○ 刘洋 (Liu Yang)"
             "    考研倒计时 30 天，勿扰"
             "  ○ 赵磊"
             "  ○ Emma Wang"
             "    42"
             "▸ Family ♥  2/5"
             "▸ Colleagues  8/13"
             "▸ VIP ★  2/4"
             "▸ Blacklist  0/3")
  "The pane of examples/contacts.yaml as it opens, 39 columns wide.")

(defconst ost-contacts-collapsed
  (ost-lines "▸ My Friends  4/10" "▸ Family ♥  2/5" "▸ Colleagues  8/13" "▸ VIP ★  2/4" "▸ Blacklist  0/3"))

(defconst ost-contacts-family
  (ost-lines "▸ My Friends  4/10"
             "▾ Family ♥  2/5"
             "  ● 妈妈"
             "    记得周日回家吃饭"
             "  ○ 爸爸"
             "  ● 王芳"
             "    表姐 · 在上海"
             "  ○ 王小明"
             "    在学校"
             "  ○ 奶奶"
             "    老人机，只接电话"
             "▸ Colleagues  8/13"
             "▸ VIP ★  2/4"
             "▸ Blacklist  0/3"))

(defconst ost-contacts-expanded
  (ost-lines "▾ My Friends  4/10"
             "  ● 张伟 / Zhang Wei"
             "    在北京出差，周五回来"
             "  ● Alice Chen"
             "    Working from Lisbon this week, back"
             "    on the Tuesday flight if the strike"
             "    is over"
             "  ● 陈静"
             "    正在听：周杰伦《晴天》"
             "  ● Sarah Ng"
             "    On holiday: no laptop, no phone, no"
             "    problem 🌴"
             "  ○ 李娜"
             "    今天心情不错 ☀️"
             "  ○ Bob Li"
             "  ○ Marco Rossi"
             "    Busy"
             "  ○ 刘洋 (Liu Yang)"
             "    考研倒计时 30 天，勿扰"
             "  ○ 赵磊"
             "  ○ Emma Wang"
             "    42"
             "▾ Family ♥  2/5"
             "  ● 妈妈"
             "    记得周日回家吃饭"
             "  ○ 爸爸"
             "  ● 王芳"
             "    表姐 · 在上海"
             "  ○ 王小明"
             "    在学校"
             "  ○ 奶奶"
             "    老人机，只接电话"
             "▾ Colleagues  8/13"
             "  ▾ Engineering 12  4/6"
             "    ● David Kim"
             "      Reviewing the layout engine; ping"
             "      me for anything about wrapping or"
             "      widths"
             "    ● Priya Shah"
             "      On call until 18:00"
             "    ● Tom Becker"
             "      no"
             "    ● Build Bot"
             "      Automated messages only"
             "    ○ 孙浩"
             "      请假中"
             "    ○ 杨敏"
             "      负责发布流程和持续集成，有问题请"
             "      直接在群里问，不要私聊"
             "  ▾ Design  2/3"
             "    ○ Lucas Martin"
             "    ● Nina Petrova"
             "      Sketching the new header arrows"
             "    ● 黄丽"
             "      设计评审 3 点开始"
             "  ▾ Sales  1/3"
             "    ● James Ho"
             "      Quarterly targets: 1.0"
             "    ○ Olivia Brown"
             "      In the Shenzhen office until the"
             "      end of the month, then Singapore"
             "    ○ 周强"
             "  ● Front Desk"
             "    Visitors, parcels, meeting rooms"
             "▾ VIP ★  2/4"
             "  ● 马总"
             "    董事长 · 只在工作日回复"
             "  ○ Grace Liu"
             "    Key account, Hong Kong"
             "  ● Robert Fischer"
             "    Partner at a law firm; prefers"
             "    calls before 10:00 Central European"
             "    Time"
             "  ○ 林晓雨"
             "▾ Blacklist  0/3"
             "  ○ 推销电话"
             "    已屏蔽"
             "  ○ Free Prizes 4U"
             "    Blocked after 37 messages"
             "  ○ Unknown")
  "The pane of examples/contacts.yaml with every group open, 39 columns wide.")

(ert-deftest outline-server-contacts-keys ()
  "Toggles, expand and collapse all, moves, type-ahead and help, by keys."
  (ost-with-server
    (let ((pane (ost-open (ost-copy "contacts.yaml"))))
      (should (equal (ost-text pane) ost-contacts))
      ;; The mode line counts the items.
      (should (equal (ost-mode-line pane) " 15 items"))
      ;; Type-ahead: B goes to Bob Li; B L typed together to Blacklist.
      (ost-keys "B")
      (ost-settle pane)
      (should (equal (ost-line pane) "  ○ Bob Li"))
      (ost-keys "M-< B L")
      (ost-settle pane)
      (should (equal (ost-line pane) "▸ Blacklist  0/3"))
      ;; z M, then type-ahead F to Family, TAB opens it and stays on it.
      (ost-keys "z M")
      (ost-settle pane)
      (should (equal (ost-text pane) ost-contacts-collapsed))
      (ost-keys "F")
      (ost-settle pane)
      (should (equal (ost-line pane) "▸ Family ♥  2/5"))
      (ost-keys "TAB")
      (ost-settle pane)
      (should (equal (ost-text pane) ost-contacts-family))
      (should (equal (ost-line pane) "▾ Family ♥  2/5"))
      ;; Keys pressed before the answers come run after them, in order.
      (ost-keys "TAB M-< F TAB n n n p")
      (ost-settle pane)
      (should (equal (ost-text pane) ost-contacts-family))
      (should (equal (ost-line pane) "  ○ 爸爸"))
      (ost-keys "n")
      (should (equal (ost-line pane) "  ● 王芳"))
      ;; o on a row closes its group, and point goes to the group.
      (ost-keys "o")
      (ost-settle pane)
      (should (equal (ost-text pane) ost-contacts-collapsed))
      (should (equal (ost-line pane) "▸ Family ♥  2/5"))
      ;; f opens, f again goes to the first row, b to the group, b closes it.
      (ost-keys "f")
      (ost-settle pane)
      (should (equal (ost-text pane) ost-contacts-family))
      (ost-keys "f")
      (ost-settle pane)
      (should (equal (ost-line pane) "  ● 妈妈"))
      (ost-keys "b b")
      (ost-settle pane)
      (should (equal (ost-text pane) ost-contacts-collapsed))
      ;; * opens every sibling; z M closes them all again.
      (ost-keys "*")
      (ost-settle pane)
      (should (string-prefix-p (ost-lines "▾ My Friends  4/10" "  ● 张伟 / Zhang Wei") (ost-text pane)))
      (should (string-match-p (regexp-quote (ost-lines "▾ Blacklist  0/3" "  ○ 推销电话")) (ost-text pane)))
      (ost-keys "z R")
      (ost-settle pane)
      (should (equal (ost-text pane) ost-contacts-expanded))
      ;; Emphasised rows (VIPs) and inactive ones have their faces.
      (with-current-buffer pane
        (goto-char (point-min))
        (search-forward "马总")
        (should (memq 'outline-server-emphasis (ensure-list (get-text-property (point) 'face))))
        (should-not (memq 'outline-server-inactive (ensure-list (get-text-property (point) 'face))))
        (search-forward "Grace Liu")
        (should (memq 'outline-server-emphasis (ensure-list (get-text-property (point) 'face))))
        (should (memq 'outline-server-inactive (ensure-list (get-text-property (point) 'face))))
        (search-forward "推销电话")
        (should-not (memq 'outline-server-emphasis (ensure-list (get-text-property (point) 'face))))
        (should (memq 'outline-server-inactive (ensure-list (get-text-property (point) 'face))))
        (forward-line 1)
        (should (memq 'outline-server-detail (ensure-list (get-text-property (point) 'face)))))
      ;; M-> goes to the last item, M-< to the first.
      (ost-keys "M->")
      (should (equal (ost-line pane) "  ○ Unknown"))
      (ost-keys "M-<")
      (should (equal (ost-line pane) "▾ My Friends  4/10"))
      (ost-keys "z M")
      (ost-settle pane)
      (should (equal (ost-text pane) ost-contacts-collapsed))
      ;; C-h m names every key's command, with its documentation.
      (ost-keys "C-h m")
      (let ((help (ost-text "*Help*")))
        (should-not (string-search "??" help))
        (dolist (cmd '("outline-server-toggle" "outline-server-expand-all" "outline-server-filter"
                       "outline-server-goto-source" "outline-server-type-ahead" "outline-server-quit"))
          (should (string-match-p (regexp-quote cmd) help)))
        (should (string-match-p "TAB.*outline-server-toggle" help)))
      ;; q closes the pane and its outline.
      (ost-keys "q" pane)
      (should-not (buffer-live-p pane)))))

(ert-deftest outline-server-contacts-filter ()
  "The filter: matches highlighted, no match said, Escape cancels, empty clears."
  (ost-with-server
    (let ((pane (ost-open (ost-copy "contacts.yaml"))))
      (ost-keys "s lisbon RET")
      (ost-settle pane)
      (should (equal (ost-text pane)
                     (ost-lines "▾ My Friends  4/10"
                                "  ● Alice Chen"
                                "    Working from Lisbon this week, back"
                                "    on the Tuesday flight if the strike"
                                "    is over")))
      (should (equal (ost-line pane) "  ● Alice Chen"))
      (should (equal (ost-mode-line pane) " 2 items filter “lisbon”"))
      (with-current-buffer pane
        (goto-char (point-min))
        (search-forward "Lisbon")
        (should (memq 'outline-server-match (ensure-list (get-text-property (match-beginning 0) 'face))))
        (should-not (memq 'outline-server-match (ensure-list (get-text-property (1- (match-beginning 0)) 'face)))))
      ;; A group's name shows the group with all it holds.
      (ost-keys "s family RET")
      (ost-settle pane)
      (should (equal (ost-text pane) (substring ost-contacts-family (length "▸ My Friends  4/10\n")
                                                (- (length ost-contacts-family)
                                                   (length (ost-lines "▸ Colleagues  8/13" "▸ VIP ★  2/4"
                                                                      "▸ Blacklist  0/3"))))))
      ;; No match: the pane says so.
      (ost-keys "s zzz RET")
      (ost-settle pane)
      (should (equal (ost-text pane) (ost-lines "No item matches “zzz”."
                                                "Press s to change the filter, or s RET"
                                                "to clear it.")))
      (should (equal (ost-last-message) "No item matches “zzz”"))
      ;; Escape at the prompt cancels: the filter stays.
      (ost-keys "s lis ESC")
      (ost-settle pane)
      (should (equal (ost-last-message) "Filter unchanged"))
      (should (equal (ost-mode-line pane) " 0 items filter “zzz”"))
      (should (string-prefix-p "No item matches “zzz”." (ost-text pane)))
      ;; An empty filter clears it: the whole outline again.
      (ost-keys "s RET")
      (ost-settle pane)
      (should (equal (ost-text pane) ost-contacts))
      (should (equal (ost-last-message) "Filter cleared")))))

(ert-deftest outline-server-contacts-source ()
  "The pane follows the YAML buffer: edits, errors, revert, jumps both ways."
  (ost-with-server
    (let* ((file (ost-copy "contacts.yaml"))
           (pane (ost-open file))
           (src (find-buffer-visiting file)))
      ;; RET on a row goes to its mapping in the YAML.
      (ost-keys "n n" pane)
      (should (equal (ost-line pane) "  ● Alice Chen"))
      (ost-keys "RET")
      (ost-settle pane)
      (should (eq (window-buffer) src))
      (with-current-buffer src
        (goto-char (window-point))
        (should (equal (list (line-number-at-pos) (current-column)) '(31 8))))
      ;; Moving in the YAML shows the item under the cursor in the pane, opening its group.
      (ost-keys "M-g g 75 RET" src)
      (ost-settle pane)
      (should (equal (ost-text pane) (concat (substring ost-contacts 0 (- (length ost-contacts)
                                                                           (length (ost-lines "▸ Family ♥  2/5" "▸ Colleagues  8/13" "▸ VIP ★  2/4" "▸ Blacklist  0/3"))))
                                             (substring ost-contacts-family (length "▸ My Friends  4/10\n")))))
      (with-current-buffer pane
        (should (equal (ost-line pane) "  ● 妈妈"))
        (let ((ov (cl-find 'outline-server-current (overlays-in (point-min) (point-max))
                           :key (lambda (o) (overlay-get o 'face)))))
          (should ov)
          (should (equal (buffer-substring-no-properties (overlay-start ov) (overlay-end ov))
                         (ost-lines "  ● 妈妈" "    记得周日回家吃饭")))))
      ;; Typing in the YAML: the pane follows once the edit is answered.
      (ost-keys "M-g g 16 RET C-e SPC O l d" src)
      (should (equal (buffer-substring-no-properties (line-beginning-position) (line-end-position))
                     "    title: My Friends Old"))
      (ost-settle pane)
      (should (string-prefix-p (ost-lines "▾ My Friends Old  4/10" "  ● 张伟 / Zhang Wei") (ost-text pane)))
      ;; A second title is an error: the pane keeps the outline and says so; the YAML shows where.
      (ost-keys "C-q C-j SPC SPC SPC SPC t i t l e : SPC T w i c e" src)
      (ost-settle pane)
      (should (string-prefix-p (ost-lines "▾ My Friends Old  4/10") (ost-text pane)))
      (with-current-buffer pane
        (should (equal header-line-format
                       " 1 error, line 17: duplicate key \"title\" (outline as it last was)"))
        ;; The header line is cut at the window's width: the mouse over it says it whole.
        (should (equal (get-text-property 0 'help-echo header-line-format)
                       (concat "contacts.yaml has 1 error\n"
                               "  line 17, column 5: duplicate key \"title\""))))
      (with-current-buffer src
        (should (cl-find 'error (overlays-in (point-min) (point-max)) :key (lambda (o) (overlay-get o 'face)))))
      ;; Deleting it brings the outline back in step.
      (ost-keys "C-a C-k DEL" src)
      (ost-settle pane)
      (with-current-buffer pane (should-not header-line-format))
      (with-current-buffer src
        (should (equal (buffer-substring-no-properties (line-beginning-position) (line-end-position))
                       "    title: My Friends Old")))
      ;; The file changes on disk; revert-buffer reads it: the pane follows, then follows edits.
      (ost-write file (replace-regexp-in-string "title: Blacklist" "title: Blocked"
                                                (with-temp-buffer (insert-file-contents file) (buffer-string))))
      (ost-keys "M-x revert-buffer RET yes RET" src)
      (ost-settle pane)
      (should (string-suffix-p (ost-lines "▸ VIP ★  2/4" "▸ Blocked  0/3") (ost-text pane)))
      (should (string-prefix-p (ost-lines "▾ My Friends  4/10") (ost-text pane)))
      (ost-keys "M-> SPC SPC - SPC t i t l e : SPC N e w" src)
      (ost-settle pane)
      (should (string-suffix-p (ost-lines "▸ Blocked  0/3" "▸ New  0/0") (ost-text pane))))))

(ert-deftest outline-server-file-pane ()
  "A pane on a file follows the file, and recovers from a broken file."
  (ost-with-server
    (let* ((file (ost-copy "contacts.yaml"))
           (text (with-temp-buffer (insert-file-contents file) (buffer-string)))
           (pane (progn (ost-start)
                        (let ((before (buffer-list)))
                          (ost-keys (concat "C-u M-x outline-server-open RET " file " RET"))
                          (car (cl-remove-if-not (lambda (b) (buffer-local-value 'outline-server--pane b))
                                                 (cl-set-difference (buffer-list) before)))))))
      (ost-settle pane)
      (should (equal (ost-text pane) ost-contacts))
      ;; Another program renames a group: the server sees it and the pane follows.
      (ost-write file (replace-regexp-in-string "title: VIP" "title: Very Important" text))
      (ost-wait (lambda () (string-match-p "Very Important" (ost-text pane))) "the renamed group")
      (ost-settle pane)
      (should (string-suffix-p (ost-lines "▸ Very Important ★  2/4" "▸ Blacklist  0/3") (ost-text pane)))
      ;; A broken save: the outline stays, the header line says why.
      (ost-write file (replace-regexp-in-string "    title: My Friends\n" "    title: My Friends\n    title: Again\n" text))
      (ost-wait (lambda () (buffer-local-value 'header-line-format pane)) "the error")
      (should (string-match-p "duplicate key" (buffer-local-value 'header-line-format pane)))
      (should (string-suffix-p (ost-lines "▸ Very Important ★  2/4" "▸ Blacklist  0/3") (ost-text pane)))
      (ost-write file text)
      (ost-wait (lambda () (null (buffer-local-value 'header-line-format pane))) "the error to go")
      (ost-settle pane)
      (should (equal (ost-text pane) ost-contacts))
      (kill-buffer pane)
      ;; A pane opened on a broken file shows the errors, and the outline once it is fixed.
      (ost-write file (replace-regexp-in-string "    title: My Friends\n" "    title: My Friends\n    title: Again\n" text))
      (let ((before (buffer-list)))
        (ost-keys (concat "C-u M-x outline-server-open RET " file " RET"))
        (setq pane (car (cl-remove-if-not (lambda (b) (buffer-local-value 'outline-server--pane b))
                                          (cl-set-difference (buffer-list) before)))))
      (ost-settle pane)
      (should (equal (ost-text pane)
                     (ost-lines "contacts.yaml has 1 error"
                                "  line 17, column 5: duplicate key"
                                "    \"title\""
                                "The outline shows once the file is"
                                "fixed.")))
      (ost-write file text)
      (ost-wait (lambda () (equal (ost-text pane) ost-contacts)) "the fixed outline"))))

(ert-deftest outline-server-file-changed-keeps-place ()
  "When the file changes on disk, point stays on its item, on the same window line."
  (ost-with-server
    (let* ((file (ost-copy "contacts.yaml"))
           (text (with-temp-buffer (insert-file-contents file) (buffer-string)))
           (pane (ost-open-file file))
           (win (get-buffer-window pane)))
      (should (equal (ost-text pane) ost-contacts))
      (should (equal (ost-line pane) "▾ My Friends  4/10"))
      ;; The group's title changes: the server replaces the group and the rows whose
      ;; ids derive from its title, and point stays on the group, the header in view.
      (ost-write file (replace-regexp-in-string "title: My Friends" "title: Friends X" text))
      (ost-wait (lambda () (string-match-p "Friends X" (ost-text pane))) "the renamed group")
      (ost-settle pane)
      (should (equal (ost-text pane) (string-replace "My Friends" "Friends X" ost-contacts)))
      (should (equal (ost-line pane) "▾ Friends X  4/10"))
      (should (= (window-start win) (with-current-buffer pane (point-min))))
      (should (= (ost-window-line pane) 0))
      ;; On a row's detail line, the third line of the window: after the change, the
      ;; same line of the same row, on the same line of the window.
      (ost-keys "n n n n")
      (should (equal (ost-line pane) "  ● Sarah Ng"))
      (ost-keys "C-n C-u 2 C-l")
      (should (equal (ost-line pane) "    On holiday: no laptop, no phone, no"))
      (should (= (ost-window-line pane) 2))
      (ost-write file text)
      (ost-wait (lambda () (string-match-p "My Friends" (ost-text pane))) "the group renamed back")
      (ost-settle pane)
      (should (equal (ost-text pane) ost-contacts))
      (should (equal (ost-line pane) "    On holiday: no laptop, no phone, no"))
      (should (= (ost-window-line pane) 2))
      ;; Marco Rossi has no id of his own: his id, My Friends/Marco Rossi, goes
      ;; with the group's title.  Point stays on the row that takes his place.
      (ost-keys "M")
      (ost-settle pane)
      (should (equal (ost-line pane) "  ○ Marco Rossi"))
      (let ((line (ost-window-line pane)))
        (ost-write file (replace-regexp-in-string "title: My Friends" "title: Friends X" text))
        (ost-wait (lambda () (string-match-p "Friends X" (ost-text pane))) "the renamed group")
        (ost-settle pane)
        (should (equal (ost-text pane) (string-replace "My Friends" "Friends X" ost-contacts)))
        (should (equal (ost-line pane) "  ○ Marco Rossi"))
        (should (= (ost-window-line pane) line))
        ;; His row deleted, point goes to the row after it.
        (ost-write file (replace-regexp-in-string "title: My Friends" "title: Friends X"
                                                  (replace-regexp-in-string "      - title: Marco Rossi\n\\(        .*\n\\)*" "" text)))
        (ost-wait (lambda () (not (string-match-p "Marco" (ost-text pane)))) "the row deleted")
        (ost-settle pane)
        (should (equal (ost-line pane) "  ○ 刘洋 (Liu Yang)"))
        (should (= (ost-window-line pane) line))))))

(ert-deftest outline-server-long-message ()
  "A message wider than the pane is broken into lines that fit, again when the width changes."
  (ost-with-server
    (unless ost-tmp (setq ost-tmp (make-temp-file "outline-emacs" t)))
    (let* ((file (expand-file-name "缩进错了.yaml" ost-tmp))
           (pane (progn (with-temp-file file (insert "groups:\n  - title: A\n   x: 1\n"))
                        (ost-open-file file)))
           (win (get-buffer-window pane)))
      (should (equal (ost-text pane)
                     (ost-lines "缩进错了.yaml has 1 error"
                                "  line 3, column 4: while parsing a"
                                "    block collection: did not find"
                                "    expected '-' indicator"
                                "The outline shows once the file is"
                                "fixed.")))
      ;; Two columns less: the message is broken again.
      (ost-keys "C-u 2 C-x {" pane)
      (run-hook-with-args 'window-size-change-functions (selected-frame))
      (should (= (window-max-chars-per-line win) 37))
      (should (equal (ost-text pane)
                     (ost-lines "缩进错了.yaml has 1 error"
                                "  line 3, column 4: while parsing a"
                                "    block collection: did not find"
                                "    expected '-' indicator"
                                "The outline shows once the file is"
                                "fixed.")))
      ;; Eleven columns: a word too long for a line is broken too, a wide character
      ;; counting two.
      (ost-keys "C-u 26 C-x {" pane)
      (run-hook-with-args 'window-size-change-functions (selected-frame))
      (should (= (window-max-chars-per-line win) 11))
      (should (equal (ost-text pane)
                     (ost-lines "缩进错了.ya" "ml has 1" "error"
                                "  line 3," "  column 4:" "  while" "  parsing a" "  block"
                                "  collectio" "  n: did" "  not find" "  expected" "  '-'" "  indicator"
                                "The outline" "shows once" "the file is" "fixed."))))))

(ert-deftest outline-server-quit-last-window ()
  "q in the only window of the frame closes the pane and shows another buffer."
  (ost-with-server
    (let* ((file (ost-copy "contacts.yaml")) (pane (ost-open file)) (src (find-buffer-visiting file)))
      (ost-keys "C-x 1" src)
      (ost-keys (concat "C-x b " (string-replace " " " SPC " (buffer-name pane)) " RET"))
      (should (one-window-p))
      (should (eq (window-buffer) pane))
      (ost-keys "q")
      (should-not (buffer-live-p pane))
      (should (one-window-p))
      (should (eq (window-buffer) src)))))

(ert-deftest outline-server-broken-buffer ()
  "A pane opened on a broken buffer says why, and shows the outline once it is fixed."
  (ost-with-server
    (let* ((file (ost-copy "contacts.yaml")))
      (find-file file)
      (goto-char (point-min))
      (search-forward "    title: My Friends\n")
      (insert "    title: Again\n")
      (let* ((src (current-buffer)) (pane (ost-open file)))
        (should (equal (ost-text pane)
                       (ost-lines "contacts.yaml has 1 error"
                                  "  line 17, column 5: duplicate key"
                                  "    \"title\""
                                  "The outline shows once the text is"
                                  "fixed.")))
        (should (eq (window-buffer) pane))
        ;; A key in the pane says why nothing happens.
        (should (equal (cadr (should-error (ost-keys "TAB") :type 'user-error))
                       "contacts.yaml has 1 error"))
        (ost-keys "M-< C-s Again RET C-a C-k C-k" src)
        (ost-settle pane)
        (should (equal (ost-text pane) ost-contacts))))))

(ert-deftest outline-server-accordion ()
  "In an accordion, opening a group closes its sibling; expand all says why it cannot."
  (ost-with-server
    (let ((pane (ost-open (ost-copy "accordion.yaml"))))
      (should (string-prefix-p (ost-lines "▾ Account  3/3"
                                          "  ● How do I change my password?"
                                          "    Open Settings, then Account, then"
                                          "    Security, and choose a new password"
                                          "    of at least twelve characters.")
                               (ost-text pane)))
      (ost-keys "z R")
      (ost-settle pane)
      (should (equal (ost-last-message)
                     "Expand all is not possible in an accordion (expansion: single): open one group at a time with TAB"))
      (ost-keys "*")
      (ost-settle pane)
      (should (string-prefix-p "Opening every sibling is not possible in an accordion" (ost-last-message)))
      (ost-keys "N TAB")
      (ost-settle pane)
      (should (equal (ost-text pane)
                     (ost-lines "▸ Account  3/3"
                                "▾ Notifications  4/4"
                                "  ▸ Desktop  2/2"
                                "  ▸ Mobile  1/1"
                                "  ● Daily digest"
                                "    One e-mail a day with what you"
                                "    missed."
                                "▸ Privacy  2/2"
                                "▸ Appearance  3/3"
                                "▸ Storage  1/1"
                                "▸ About  2/2"))))))

(ert-deftest outline-server-width ()
  "Lines are broken at the width the window draws, and again when it changes."
  (ost-with-server
    (let ((pane (ost-open (ost-copy "contacts.yaml"))))
      (ost-keys "z R")
      (ost-settle pane)
      (let ((win (get-buffer-window pane)))
        ;; A terminal draws 39 of the 40 columns: the 40th holds the continuation glyph.
        (should (= (window-body-width win) 40))
        (should (= (window-max-chars-per-line win) 39))
        (should (string-match-p (regexp-quote (ost-lines "    ○ 杨敏"
                                                         "      负责发布流程和持续集成，有问题请"
                                                         "      直接在群里问，不要私聊"))
                                (ost-text pane)))
        (should (cl-every (lambda (l) (<= (string-width l) 39)) (split-string (ost-text pane) "\n")))
        ;; Two columns less: the server breaks the lines again.
        (ost-keys "C-u 2 C-x {" pane)
        ;; Redisplay runs these; batch Emacs does not redisplay.
        (run-hook-with-args 'window-size-change-functions (selected-frame))
        (ost-settle pane)
        (should (= (window-max-chars-per-line win) 37))
        (should (string-match-p (regexp-quote (ost-lines "    ○ 杨敏"
                                                         "      负责发布流程和持续集成，有问题"
                                                         "      请直接在群里问，不要私聊"))
                                (ost-text pane)))
        (should (cl-every (lambda (l) (<= (string-width l) 37)) (split-string (ost-text pane) "\n")))))))

;;;; The Debian package outline: 65,119 items

(defun ost-debian ()
  "The path of the Debian package outline, made when missing.
Skip the test, saying why, where no apt package lists exist to make it."
  (let ((file (expand-file-name "examples/generated/debian-packages.yaml" ost-root)))
    (unless (file-exists-p file)
      (unless (file-expand-wildcards "/var/lib/apt/lists/*_Packages*")
        (message "Skipping: no apt package lists to make %s (run apt-get update)" file)
        (ert-skip "no apt package lists to make the Debian package outline"))
      (unless (= 0 (call-process (expand-file-name "scripts/make-examples" ost-root) nil nil nil))
        (ert-fail "scripts/make-examples failed")))
    file))

(defun ost-server-rows (uri &optional start count)
  "The visible rows of URI from START (0), COUNT of them (all), with their lines.
Asked of the server directly, in pages, as a reference for the pane."
  (let* ((start (or start 0)) (rows nil) (done nil))
    (while (not done)
      (let* ((n (if count (min 10000 (- (+ (or count 0) (or start 0)) start)) 10000))
             (res (jsonrpc-request outline-server--conn :visibleRows
                                   (list :uri uri :start start :count n :include ["lines"]))))
        (setq rows (nconc rows (append (plist-get res :rows) nil)))
        (setq start (+ start (length (plist-get res :rows))))
        (setq done (or (< (length (plist-get res :rows)) n) (<= n 0)
                       (and count (>= (length rows) count))))))
    rows))

(defun ost-render (rows)
  "ROWS (server plists with lines) as the pane draws them: the test's own drawing."
  (mapconcat
   (lambda (r)
     (let* ((indent (make-string (* 2 (plist-get r :depth)) ?\s))
            (lines (plist-get r :lines))
            (title (append (plist-get lines :title) nil))
            (detail (append (plist-get lines :detail) nil)))
       (if (equal (plist-get r :kind) "group")
           ;; A header too wide for the 39 columns has its title cut, ending in …
           (let* ((head (concat indent (if (eq (plist-get r :expanded) t) "▾ " "▸ ")))
                  (tail (concat (if (plist-get r :badge) (concat " " (plist-get r :badge)) "")
                                (format "  %d/%d" (plist-get r :activeCount) (plist-get r :rowCount))))
                  (room (- 39 (string-width head) (string-width tail))))
             (concat head (if (<= (string-width (car title)) room) (car title)
                            (concat (truncate-string-to-width (car title) (1- room)) "…"))
                     tail "\n"))
         (concat indent (if (eq (plist-get r :active) t) "● " "○ ") (car title) "\n"
                 (mapconcat (lambda (l) (concat indent "  " l "\n")) (append (cdr title) detail) "")))))
   rows ""))

(defun ost-same-text (actual expected)
  "Fail unless ACTUAL is EXPECTED, naming the first line that differs.
The texts may be 100,000 lines long: ERT would print them whole."
  (unless (equal actual expected)
    (let ((a (split-string actual "\n")) (e (split-string expected "\n")) (n 1))
      (while (and a e (equal (car a) (car e))) (setq a (cdr a) e (cdr e) n (1+ n)))
      (ert-fail (list :first-difference-at-line n :actual (car a) :expected (car e)
                      :actual-lines (length (split-string actual "\n"))
                      :expected-lines (length (split-string expected "\n")))))))

(defun ost-starts (buf prefix)
  "Non-nil when the text of BUF starts with PREFIX."
  (string-prefix-p prefix (ost-text buf)))

(defun ost-has (buf regexp)
  "Non-nil when a line of BUF matches REGEXP."
  (with-current-buffer buf (save-excursion (goto-char (point-min)) (re-search-forward regexp nil t))))

(defun ost-first-line (rows)
  "The first line the pane draws for the first of ROWS."
  (car (split-string (ost-render rows) "\n")))

(ert-deftest outline-server-debian ()
  "The Debian package outline: every row, edits, revert, jumps and filters.
The outline is made from this machine's package lists: what the pane
shows is checked against what the server lists, not against numbers."
  (ost-with-server
    (let* ((file (ost-debian))
           (pane (ost-open file))
           (src (find-buffer-visiting file))
           (uri (outline-server--pane-uri (buffer-local-value 'outline-server--pane pane)))
           (first (car (ost-server-rows uri 0 1)))
           (name (plist-get first :title))
           (group-line (lambda (title expanded)
                         (concat (if expanded "▾ " "▸ ") title (substring (ost-first-line (list first))
                                                                         (+ 2 (length name)))))))
      (ost-same-text (ost-text pane) (ost-render (ost-server-rows uri)))
      (should (equal (ost-line pane) (funcall group-line name nil)))
      ;; A toggle: the pane is what the server lists.
      (ost-keys "n TAB")
      (ost-settle pane)
      (should (string-prefix-p "▾ " (ost-line pane)))
      (ost-same-text (ost-text pane) (ost-render (ost-server-rows uri)))
      ;; Expand all, and type in the YAML while the rows come in.  Typing returns at
      ;; once: the edit waits to be sent, and the pane follows later.  A toggle is
      ;; sent while the server reads the edit: the edit's answer asks for the row it
      ;; changed after that.
      (ost-keys "z R")
      (ost-keys (format "M-< C-s groups: RET C-s title: SPC \"%s RET X" name) src)
      (should (outline-server--pane-edits (buffer-local-value 'outline-server--pane pane)))
      (ost-wait (lambda () (> (outline-server--pane-syncs (buffer-local-value 'outline-server--pane pane)) 0))
                "the edit to be sent")
      (ost-keys "M-< TAB" pane)
      (ost-settle pane)
      (should (ost-starts pane (funcall group-line (concat name "X") nil)))
      ;; Every row, the last one reachable; the whole pane is what the server lists.
      (ost-keys "M->" pane)
      (ost-settle pane)
      (let* ((total (outline-server--pane-count (buffer-local-value 'outline-server--pane pane)))
             (last (car (ost-server-rows uri (1- total) 1))))
        (should (> total 60000))
        (should (equal (ost-mode-line pane) (concat " " (outline-server--count total))))
        (should (equal (ost-line pane) (ost-first-line (list last))))
        (with-current-buffer pane
          (should (= (line-number-at-pos) (1+ (plist-get last :top))))
          (should (= (count-lines (point-min) (point-max)) (+ (plist-get last :top) (plist-get last :height)))))
        (ost-same-text (ost-text pane) (ost-render (ost-server-rows uri)))
        ;; RET on the last row goes to its mapping in the YAML.
        (ost-keys "RET")
        (ost-settle pane)
        (should (eq (window-buffer) src))
        (with-current-buffer src
          (goto-char (window-point))
          (should (equal (buffer-substring-no-properties (line-beginning-position) (line-end-position))
                         (format "      - id: \"%s\"" (plist-get last :id))))))
      ;; revert-buffer, then an edit: the pane follows the file read again, and the
      ;; edit on top of it (sent together: the server reads 15 MB once).
      (ost-keys (format "M-x revert-buffer RET yes RET M-< C-s groups: RET C-s title: SPC \"%s RET Y" name) src)
      (with-current-buffer src
        (should (equal (buffer-substring-no-properties (line-beginning-position) (line-end-position))
                       (format "    title: \"%sY\"" name))))
      (ost-settle pane)
      (should (ost-starts pane (funcall group-line (concat name "Y") nil)))
      ;; The cursor in the YAML: its item is shown in the pane, its groups opened.
      (ost-keys "z M" pane)
      (ost-settle pane)
      (ost-keys "M-< C-s rows: RET C-s title: RET" src)
      (ost-settle pane)
      (let ((row-title (with-current-buffer src
                         (buffer-substring-no-properties (+ 2 (point)) (1- (line-end-position))))))
        (should (equal (ost-line pane) (concat "    " (substring (ost-line pane) 4 6) row-title)))
        (ost-same-text (ost-text pane) (ost-render (ost-server-rows uri))))
      ;; A filter by a group's name: the group with all it holds.
      (ost-keys "s games RET" pane)
      (ost-settle pane)
      (should (ost-has pane "^▾ games [0-9]+  [0-9]+/[0-9]+$"))
      (ost-same-text (ost-text pane) (ost-render (ost-server-rows uri)))
      ;; Filter lib: tens of thousands of items, the last reachable.
      (ost-keys "s lib RET M->" pane)
      (ost-settle pane)
      (let ((total (outline-server--pane-count (buffer-local-value 'outline-server--pane pane))))
        (should (> total 10000))
        (should (equal (ost-mode-line pane) (format " %s filter “lib”" (outline-server--count total))))
        ;; The server lists the first 10,000 matches: the pane says only those are highlighted.
        (should (equal (ost-last-message)
                       (format "Filter “lib”: %s shown, the first 10,000 matches highlighted (the most the server lists)"
                               (outline-server--count total))))
        (should (equal (ost-line pane) (ost-first-line (ost-server-rows uri (1- total) 1)))))
      (with-current-buffer src (set-buffer-modified-p nil)))))

(provide 'outline-server-test)
;;; outline-server-test.el ends here
