-- Drives `pogdsl lsp` from a real editor: Neovim, headless, with no plugin
-- (tests/lsp/test_neovim.py).  Arguments come in environment variables:
-- POG_LSP_CMD (a JSON list), POG_ROOT, POG_FILE, POG_OUT, and where to ask:
-- POG_HOVER_LINE/COL, POG_DEF_LINE/COL (0-based).  Writes what it saw as JSON.
local env = vim.env
local seen = { diagnostics = {}, cleared = false }

local client = vim.lsp.start_client({
  name = "pogdsl",
  cmd = vim.fn.json_decode(env.POG_LSP_CMD),
  root_dir = env.POG_ROOT,
})
vim.cmd("edit " .. vim.fn.fnameescape(env.POG_FILE))
vim.lsp.buf_attach_client(0, client)

-- Diagnostics as the file stands (it holds a mistake).
vim.wait(60000, function() return #vim.diagnostic.get(0) > 0 end, 100)
for _, d in ipairs(vim.diagnostic.get(0)) do
  table.insert(seen.diagnostics, { line = d.lnum, col = d.col, message = d.message, code = d.code })
end

-- Fix the mistake in the buffer, unsaved: the diagnostics go.
local fixed = vim.fn.json_decode(env.POG_FIXED_LINES)
vim.api.nvim_buf_set_lines(0, 0, -1, false, fixed)
seen.cleared = vim.wait(60000, function() return #vim.diagnostic.get(0) == 0 end, 100)

local function ask(method, line, col)
  local params = {
    textDocument = vim.lsp.util.make_text_document_params(),
    position = { line = tonumber(line), character = tonumber(col) },
  }
  local answers = vim.lsp.buf_request_sync(0, method, params, 60000) or {}
  for _, answer in pairs(answers) do
    if answer.result then return answer.result end
  end
  return vim.NIL
end

seen.hover = ask("textDocument/hover", env.POG_HOVER_LINE, env.POG_HOVER_COL)
seen.definition = ask("textDocument/definition", env.POG_DEF_LINE, env.POG_DEF_COL)

local out = io.open(env.POG_OUT, "w")
out:write(vim.fn.json_encode(seen))
out:close()
vim.lsp.stop_client(client)
vim.cmd("qa!")
