#!/usr/bin/env node
// Runs a wasm32-wasip1 command-line program under node's built-in WASI, with
// no file system access: standard output and the exit status are the
// program's. The reproducibility check runs actlut-codegen's print-lock example
// this way and diffs its output against tables/actlut.lock.
//
// Usage: node scripts/wasi-print-lock.mjs PROGRAM.wasm
import { readFile } from "node:fs/promises";

process.removeAllListeners("warning"); // node 20 warns that WASI is experimental
const { WASI } = await import("node:wasi");
const program = process.argv[2];
if (!program) {
  console.error("usage: node scripts/wasi-print-lock.mjs PROGRAM.wasm");
  process.exit(2);
}
const wasi = new WASI({ version: "preview1", args: [program], returnOnExit: true });
const module = await WebAssembly.compile(await readFile(program));
const instance = await WebAssembly.instantiate(module, wasi.getImportObject());
process.exit(wasi.start(instance) ?? 0);
