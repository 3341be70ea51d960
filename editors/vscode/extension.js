// The ptxlint extension: starts ptxlint-lsp for PTX files and, unless
// ptxlint.cuda is off, for CUDA C++ sources (their inline asm). Everything
// else (diagnostics, quick fixes, hover) is the server's.
"use strict";
const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const cfg = vscode.workspace.getConfiguration("ptxlint");
  const initializationOptions = { ignore: cfg.get("ignore") };
  if (cfg.get("target")) initializationOptions.target = cfg.get("target");
  if (cfg.get("ptxVersion")) initializationOptions.ptxVersion = cfg.get("ptxVersion");
  const command = cfg.get("serverPath") || "ptxlint-lsp";
  client = new LanguageClient(
    "ptxlint",
    "ptxlint",
    { run: { command }, debug: { command } },
    {
      documentSelector: [{ scheme: "file", language: "ptx" }].concat(
        cfg.get("cuda") ? [{ scheme: "file", language: "cuda-cpp" }] : []
      ),
      initializationOptions,
    }
  );
  context.subscriptions.push(client);
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
