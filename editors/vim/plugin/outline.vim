vim9script
# :Outline [FILE] opens the outline pane (see doc/outline.txt).
if exists('g:loaded_outline_server')
  finish
endif
g:loaded_outline_server = 1
command! -nargs=? -complete=file Outline outline#Open(<q-args>)
augroup OutlinePaneResize
  autocmd!
  autocmd VimResized,WinResized * outline#RelayoutAll()
augroup END
