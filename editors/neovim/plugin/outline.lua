-- Defines :Outline (see lua/outline/init.lua).
if vim.g.loaded_outline_server then return end
vim.g.loaded_outline_server = true
require('outline')
