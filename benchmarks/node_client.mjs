// The servers as an independent MCP client sees them: the official Node SDK (not the Python
// one our stack uses) starts each server over stdio, lists its tools and calls every tool that
// needs no argument, in the default session. Prints one JSON line per server (tool count against
// the paper's, timestamps returned and how many carry a UTC offset) and a total line; exits 1
// when a count differs. Given a second seed it also plays every no-argument tool there and
// measures the id values (fields `id` / `*_id`) the two worlds share: #20 wants at most 25%
// overall and at most 50% on any server showing 10 or more (exit 1 otherwise). `make
// node-check` installs the SDK into .node/ and runs this at seeds 11 and 12.
//
//   node benchmarks/node_client.mjs PYTHON SEED [SDK_DIR] [OTHER_SEED]
import { createRequire } from "node:module";
import { execFileSync } from "node:child_process";
import path from "node:path";

const [python, seed = "0", sdkDir = ".node", otherSeed] = process.argv.slice(2);
if (!python) {
  console.error("usage: node benchmarks/node_client.mjs PYTHON SEED [SDK_DIR] [OTHER_SEED]");
  process.exit(2);
}
const require = createRequire(path.resolve(sdkDir, "package.json"));
const { Client } = require("@modelcontextprotocol/sdk/client/index.js");
const { StdioClientTransport } = require("@modelcontextprotocol/sdk/client/stdio.js");

// ISO 8601 date-times; group 1 is the offset (Z or +hh:mm) when there is one
const STAMP = /\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?/g;

function expectedCounts() {
  const out = execFileSync(python, ["-m", "servers", "--list"], { encoding: "utf8" });
  const counts = {};
  for (const line of out.split("\n")) {
    const m = line.match(/^(\S+)\s+(\d+) tools$/);
    if (m) counts[m[1]] = Number(m[2]);
  }
  return counts;
}

// every string under a key `id` or `*_id`, at any depth of a structured result
function collectIds(value, out) {
  if (Array.isArray(value)) {
    for (const v of value) collectIds(v, out);
  } else if (value && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) {
      if ((k === "id" || k.endsWith("_id")) && typeof v === "string") out.add(v);
      else collectIds(v, out);
    }
  }
  return out;
}

async function check(name, expected, atSeed = seed) {
  const transport = new StdioClientTransport({
    command: python, args: ["-m", "servers", name, "--transport", "stdio", "--seed", atSeed],
    stderr: "ignore",
  });
  const client = new Client({ name: "prove-node-check", version: "0.1.0" });
  await client.connect(transport);
  try {
    const { tools } = await client.listTools();
    let stamps = 0;
    let withOffset = 0;
    let called = 0;
    const ids = new Set();
    for (const tool of tools) {
      if ((tool.inputSchema?.required ?? []).length > 0) continue;
      const result = await client.callTool({ name: tool.name, arguments: {} });
      called += 1;
      collectIds(result.structuredContent, ids);
      const text = (result.content ?? []).map((c) => c.text ?? "").join("\n");
      for (const m of text.matchAll(STAMP)) {
        stamps += 1;
        if (m[1]) withOffset += 1;
      }
    }
    return { server: name, tools: tools.length, expected, ok: tools.length === expected,
             control_listed: tools.some((t) => t.name.startsWith("_session_")),
             no_arg_tools_called: called, timestamps: stamps, with_offset: withOffset,
             ids: [...ids] };
  } finally {
    await client.close();
  }
}

const counts = expectedCounts();
let total = 0;
let stamps = 0;
let withOffset = 0;
let bad = 0;
let idsSeen = 0;
let idsShared = 0;
let idsBad = 0;
for (const [name, expected] of Object.entries(counts)) {
  const row = await check(name, expected);
  const mine = new Set(row.ids);
  delete row.ids;
  if (otherSeed !== undefined) {
    const other = new Set((await check(name, expected, otherSeed)).ids);
    const shared = [...mine].filter((v) => other.has(v)).length;
    row.ids = mine.size;
    row.ids_shared_with_other_seed = shared;
    idsSeen += mine.size;
    idsShared += shared;
    if (mine.size >= 10 && shared > 0.5 * mine.size) idsBad += 1;
  }
  console.log(JSON.stringify(row));
  total += row.tools;
  stamps += row.timestamps;
  withOffset += row.with_offset;
  if (!row.ok || row.control_listed) bad += 1;
}
const paper = Object.values(counts).reduce((a, b) => a + b, 0);
const summary = { servers: Object.keys(counts).length, tools: total, expected: paper,
                  timestamps: stamps, with_offset: withOffset, servers_wrong: bad };
if (otherSeed !== undefined) {
  Object.assign(summary, { seeds: [seed, otherSeed], ids: idsSeen, ids_shared: idsShared,
                           ids_shared_fraction: Number((idsShared / idsSeen).toFixed(4)),
                           servers_sharing_over_half: idsBad });
}
console.log(JSON.stringify(summary));
const idsOk = otherSeed === undefined || (idsShared <= 0.25 * idsSeen && idsBad === 0);
process.exit(bad === 0 && total === paper && idsOk ? 0 : 1);
