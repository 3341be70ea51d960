-- ctest "lsp-neovim": a real client. Headless Neovim 0.7 starts ptxlint-lsp on
-- a .ptx file, waits for its diagnostics, asks for the code actions at the
-- diagnostic, applies the quick fix to the buffer (Neovim then sends the
-- incremental didChange) and waits for the diagnostics to clear.
--   nvim --headless --clean -u NONE -l? (0.7 has no -l): nvim --headless --clean
--     -c "luafile nvim_client.lua" -- SERVER FILE
-- Exit status 0: pass; 1: fail (message on stderr); 77: no usable Neovim.
local server = vim.env.PTXLINT_LSP
local file = vim.env.PTXLINT_LSP_FILE
-- The 0-based line of the fixture's Q107 (a .ptx module or a C++ source),
-- and a column on the instruction for hover.
local q107_line = tonumber(vim.env.PTXLINT_LSP_LINE or "12")
local hover_col = tonumber(vim.env.PTXLINT_LSP_HOVER_COL or "4")

local function finish(code, msg)
  if msg then
    io.stderr:write(msg .. "\n")
  end
  vim.cmd((code == 0 and "qall!") or ("cquit " .. code))
end

local ok, err = pcall(function()
  if not vim.lsp or not vim.lsp.start_client or not vim.diagnostic then
    finish(77, "this Neovim has no vim.lsp / vim.diagnostic (0.7 or later needed)")
    return
  end
  vim.cmd("edit " .. vim.fn.fnameescape(file))
  local bufnr = vim.api.nvim_get_current_buf()
  local client_id = vim.lsp.start_client({
    name = "ptxlint",
    cmd = { server },
    root_dir = vim.fn.fnamemodify(file, ":h"),
    init_options = { target = "sm_90a" },
  })
  assert(client_id, "start_client failed")
  assert(vim.lsp.buf_attach_client(bufnr, client_id), "buf_attach_client failed")

  local function codes()
    local out = {}
    for _, d in ipairs(vim.diagnostic.get(bufnr)) do
      table.insert(out, d.code)
    end
    table.sort(out)
    return table.concat(out, ",")
  end

  assert(vim.wait(10000, function() return codes() == "Q107" end, 20),
    "expected the diagnostic Q107, got '" .. codes() .. "'")
  local d = vim.diagnostic.get(bufnr)[1]
  assert(d.lnum == q107_line,
    "Q107 on line " .. d.lnum .. ", expected " .. q107_line .. " (0-based)")

  local client = vim.lsp.get_client_by_id(client_id)
  local enc = client.offset_encoding or "utf-16"
  local params = {
    textDocument = { uri = vim.uri_from_bufnr(bufnr) },
    range = { start = { line = d.lnum, character = d.col },
              ["end"] = { line = d.end_lnum, character = d.end_col } },
    context = { diagnostics = { d.user_data and d.user_data.lsp or {} } },
  }
  local replies = vim.lsp.buf_request_sync(bufnr, "textDocument/codeAction", params, 10000)
  assert(replies and replies[client_id] and replies[client_id].result,
    "no codeAction reply: " .. vim.inspect(replies))
  local quickfix
  for _, a in ipairs(replies[client_id].result) do
    if a.kind == "quickfix" then
      quickfix = a
    end
  end
  assert(quickfix, "no quickfix among " .. vim.inspect(replies[client_id].result))
  assert(quickfix.title:find("noftz", 1, true), "unexpected title " .. quickfix.title)
  vim.lsp.util.apply_workspace_edit(quickfix.edit, enc)

  local line = vim.api.nvim_buf_get_lines(bufnr, q107_line, q107_line + 1, true)[1]
  assert(line:find(".noftz", 1, true), "fix not applied: " .. line)
  assert(vim.wait(10000, function() return codes() == "" end, 20),
    "diagnostics did not clear after the fix: '" .. codes() .. "'")

  -- Hover: the instruction's form and requirements from the spec tables.
  local hov = vim.lsp.buf_request_sync(bufnr, "textDocument/hover",
    { textDocument = params.textDocument, position = { line = q107_line, character = hover_col } }, 10000)
  local value = hov and hov[client_id] and hov[client_id].result and
    hov[client_id].result.contents.value or ""
  assert(value:find("cp.reduce.async.bulk", 1, true), "hover: " .. value)

  vim.lsp.stop_client(client_id)
  finish(0)
end)
if not ok then
  finish(1, "lsp-neovim: " .. tostring(err))
end
