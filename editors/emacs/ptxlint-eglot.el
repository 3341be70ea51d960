;;; ptxlint-eglot.el --- ptxlint-lsp for PTX files through eglot  -*- lexical-binding: t -*-
;; Emacs 29 ships eglot; on Emacs 26-28, M-x package-install RET eglot.
;; Load this file (or copy it into init.el), open a .ptx file, M-x eglot.
(require 'eglot)

(define-derived-mode ptx-mode prog-mode "PTX"
  "A minimal major mode for NVIDIA PTX."
  (setq-local comment-start "// ")
  (setq-local comment-start-skip "//+\\s-*"))
(add-to-list 'auto-mode-alist '("\\.ptx\\'" . ptx-mode))

(add-to-list 'eglot-server-programs
             '(ptx-mode . ("ptxlint-lsp" :initializationOptions (:target "sm_90a"))))
;; CUDA C++ sources (the inline asm): eglot runs one server per buffer, so
;; this replaces clangd there; the command line (M-x compile, ptxlint FILE.cu)
;; works beside it.
;; (add-to-list 'eglot-server-programs
;;              '(cuda-mode . ("ptxlint-lsp" :initializationOptions (:target "sm_90a"))))
;; Start it automatically:
(add-hook 'ptx-mode-hook #'eglot-ensure)
;; Then: diagnostics through Flymake, M-x eglot-code-actions for fixes, eldoc for hover.
