// Checks every export of a module built from firmware/wasm on every input:
//   node scripts/wasm-check.mjs MODULE.wasm tables/actlut.lock
// For each scalar export `<name>` (a table name such as gelu_bf16), the
// SHA-256 of its 65,536 results (little-endian u16) must be the lock's line
// for that table, and `<name>_x4` (the slice entry point, four lanes packed
// in a u64) must give the scalar export's result in every lane. Prints one
// line per table checked; exits with status 1 on any difference.
import { readFileSync } from "node:fs";
import { createHash } from "node:crypto";

const [wasmPath, lockPath] = process.argv.slice(2);
const lock = new Map();
for (const line of readFileSync(lockPath, "utf8").split("\n")) {
  if (line.startsWith("#") || !line.trim()) continue;
  const cols = line.trim().split(/\s+/);
  lock.set(cols[0], cols[5]);
}
const { instance } = await WebAssembly.instantiate(readFileSync(wasmPath));
const exports = instance.exports;
let failed = false;
let checked = 0;
for (const name of Object.keys(exports)) {
  if (typeof exports[name] !== "function" || name.endsWith("_x4")) continue;
  const f = exports[name];
  const x4 = exports[`${name}_x4`];
  const out = Buffer.alloc(2 * 65536);
  for (let x = 0; x < 65536; x++) out.writeUInt16LE(f(x), 2 * x);
  const got = createHash("sha256").update(out).digest("hex");
  const want = lock.get(name);
  if (got !== want) {
    console.error(`${name}: the export's results hash to ${got}, the lock says ${want}`);
    failed = true;
  }
  let lanes = 0;
  for (let x = 0; x < 65536; x += 4) {
    const packed = BigInt(x) | (BigInt(x + 1) << 16n) | (BigInt(x + 2) << 32n) | (BigInt(x + 3) << 48n);
    const y = BigInt.asUintN(64, x4(packed));
    for (let i = 0; i < 4; i++) {
      const lane = Number((y >> BigInt(16 * i)) & 0xffffn);
      const want1 = out.readUInt16LE(2 * (x + i));
      if (lane !== want1) {
        if (!failed) console.error(`${name}_x4: input 0x${(x + i).toString(16)} gives 0x${lane.toString(16)}, the scalar export 0x${want1.toString(16)}`);
        failed = true;
      }
      lanes++;
    }
  }
  console.log(`${name}: ${got === want ? "equals the lock on all 65536 inputs" : "differs from the lock"}; ${name}_x4 checked on ${lanes} lanes`);
  checked++;
}
if (checked === 0) {
  console.error(`${wasmPath}: no export to check`);
  failed = true;
}
process.exit(failed ? 1 : 0);
