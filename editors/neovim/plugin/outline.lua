-- :Outline [FILE] — the outline pane (see :help outline). The module loads
-- on first use.
if vim.g.loaded_outline_server then return end
vim.g.loaded_outline_server = true
vim.api.nvim_create_user_command('Outline', function(args) require('outline').command(args) end, {
  nargs = '?',
  complete = 'file',
  desc = 'Open the outline pane of the current YAML buffer, or of FILE',
})
