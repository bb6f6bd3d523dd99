// The pogdsl extension: the .pog language and grammar are declared in
// package.json and need nothing else; this file starts the language server
// (`pogdsl lsp`) when vscode-languageclient is installed beside it
// (`npm install` in this folder: plain JavaScript, no build step).
const vscode = require("vscode");

let client;

function activate(context) {
  const config = vscode.workspace.getConfiguration("pogdsl");
  if (!config.get("server.enabled", true)) {
    return;
  }
  let lc;
  try {
    lc = require("vscode-languageclient/node");
  } catch (err) {
    vscode.window.showWarningMessage(
      "pogdsl: highlighting only. For diagnostics, hover and the rest, run `npm install` in the extension's folder.");
    return;
  }
  const [command, ...args] = config.get("server.command", ["pogdsl", "lsp"]);
  const serverOptions = { command, args, transport: lc.TransportKind.stdio };
  const clientOptions = {
    documentSelector: [{ scheme: "file", language: "pog" }],
    synchronize: { fileEvents: vscode.workspace.createFileSystemWatcher("**/*.pog") },
  };
  client = new lc.LanguageClient("pogdsl", "pogdsl", serverOptions, clientOptions);
  client.start();
  context.subscriptions.push({ dispose: () => client && client.stop() });
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
