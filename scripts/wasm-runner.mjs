#!/usr/bin/env node
// Runs a wasm32-wasip1 program (a test binary, an example) under node's WASI:
// cargo's runner for that target (see .cargo/config.toml), so that
// `cargo test --target wasm32-wasip1` works like a native `cargo test`.
//
// Usage: scripts/wasm-runner.mjs PROGRAM.wasm [ARGS...]
//
// The repository and the current directory are preopened at their own paths,
// so that tests reading files by absolute path (CARGO_MANIFEST_DIR/...) work;
// the environment is passed through. The exit status is the program's; a trap
// (a panic, which aborts on this target) exits with status 101.
import { readFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

// node 20 prints an experimental warning for WASI on every run: drop it (and
// only it), keep the others.
const emit = process.emitWarning;
process.emitWarning = (warning, ...rest) => {
  const text = typeof warning === "string" ? warning : warning?.message;
  if (typeof text === "string" && text.includes("WASI")) return;
  emit.call(process, warning, ...rest);
};
const { WASI } = await import("node:wasi");

const [program, ...args] = process.argv.slice(2);
if (!program) {
  console.error("usage: wasm-runner.mjs PROGRAM.wasm [ARGS...]");
  process.exit(2);
}

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const preopens = { [repo]: repo, [process.cwd()]: process.cwd() };

const wasi = new WASI({
  version: "preview1",
  args: [program, ...args],
  env: process.env,
  preopens,
  returnOnExit: true,
});

let code;
try {
  const module = await WebAssembly.compile(await readFile(program));
  const instance = await WebAssembly.instantiate(module, wasi.getImportObject());
  code = wasi.start(instance) ?? 0;
} catch (e) {
  // A panic aborts on this target; libtest's captured output goes with it.
  console.error(
    `wasm-runner: ${program} trapped: ${e}\n` +
      "(a panic aborts on wasm32-wasip1: rerun with `-- --nocapture` to see its message)",
  );
  code = 101;
}
process.exit(code);
