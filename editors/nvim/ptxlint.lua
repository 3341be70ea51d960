-- Neovim (0.7 or later): ptxlint-lsp for *.ptx, and for the inline asm of
-- CUDA C++ sources (beside clangd: Neovim attaches both servers). Put this
-- file in ~/.config/nvim/plugin/ (or require it from init.lua). Drop "cuda"
-- and "cpp" from the pattern to lint .ptx files only.
vim.cmd([[autocmd BufRead,BufNewFile *.ptx setfiletype ptx]])

vim.api.nvim_create_autocmd("FileType", {
  pattern = { "ptx", "cuda", "cpp" },
  callback = function(args)
    local client = vim.lsp.start_client({
      name = "ptxlint",
      cmd = { "ptxlint-lsp" },
      root_dir = vim.fn.getcwd(),
      init_options = { target = "sm_90a" }, -- for modules without .target
    })
    if client then
      vim.lsp.buf_attach_client(args.buf, client)
    end
  end,
})
-- Then: diagnostics appear as you type; `:lua vim.lsp.buf.code_action()` applies a fix,
-- `:lua vim.lsp.buf.hover()` shows an instruction's form and requirements.
