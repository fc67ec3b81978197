// An ESLint rule that forbids import cycles among the project's own modules, type-only imports
// included (eslint-plugin-import-x's `no-cycle` skips those, and a circle of types still ties
// the contract of a layer to the files that implement it). The relative imports of every
// TypeScript file under the project's folders make one graph, read once per process with
// TypeScript's own scanner (`preProcessFile`: static, type-only, re-exports and `import()`);
// its strongly connected components (Tarjan) are the cycles, and each import whose target sits
// in its own file's component is reported, with one path back.
import console from 'node:console';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import process from 'node:process';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';

// Every folder of the project that holds source: all but what is installed, built or kept as data
// (and hidden folders: .git, .bench, .scratch). A new top-level folder is covered with no edit here.
const SKIP = new Set(['node_modules', 'dist', 'data', 'test-artifacts']);

function walk(directory, files) {
  let entries;
  try {
    entries = readdirSync(directory, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    if (SKIP.has(entry.name) || entry.name.startsWith('.')) continue;
    const path = join(directory, entry.name);
    if (entry.isDirectory()) walk(path, files);
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) files.push(path);
  }
}

/** The file a relative specifier names: `./x.js` is `./x.ts` (NodeNext), `./x` is `./x.ts` or `./x/index.ts`. */
function target(from, specifier, known) {
  if (!specifier.startsWith('.')) return undefined;
  const base = resolve(dirname(from), specifier);
  for (const candidate of [base.replace(/\.js$/, '.ts'), base, `${base}.ts`, join(base, 'index.ts')]) {
    if (known.has(candidate)) return candidate;
  }
  return undefined;
}

/** The project's import graph and its cycles: for each file, its imports and its component (null when it is in none). */
export function importGraph(root) {
  const files = [];
  walk(root, files);
  const known = new Set(files);
  const edges = new Map();
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const targets = new Map();
    for (const { fileName } of importedFiles) {
      const to = target(file, fileName, known);
      if (to && to !== file) targets.set(fileName, to);
    }
    edges.set(file, targets);
  }
  // Tarjan's strongly connected components, iterative (the graph has thousands of files).
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const component = new Map();
  let next = 0;
  for (const start of files) {
    if (index.has(start)) continue;
    const work = [[start, [...new Set(edges.get(start).values())], 0]];
    index.set(start, next);
    low.set(start, next++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1];
      const [node, out] = frame;
      if (frame[2] < out.length) {
        const to = out[frame[2]++];
        if (!index.has(to)) {
          index.set(to, next);
          low.set(to, next++);
          stack.push(to);
          onStack.add(to);
          work.push([to, [...new Set(edges.get(to).values())], 0]);
        } else if (onStack.has(to)) {
          low.set(node, Math.min(low.get(node), index.get(to)));
        }
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1][0];
        low.set(parent, Math.min(low.get(parent), low.get(node)));
      }
      if (low.get(node) === index.get(node)) {
        const members = [];
        let member;
        do {
          member = stack.pop();
          onStack.delete(member);
          members.push(member);
        } while (member !== node);
        if (members.length > 1) for (const m of members) component.set(m, members);
      }
    }
  }
  return { edges, component };
}

/** A shortest path of imports from `from` to `to` within one component (breadth first). */
function pathBetween(graph, from, to) {
  const members = new Set(graph.component.get(from));
  const previous = new Map([[from, undefined]]);
  const queue = [from];
  while (queue.length > 0) {
    const node = queue.shift();
    if (node === to) break;
    for (const next of graph.edges.get(node).values()) {
      if (members.has(next) && !previous.has(next)) {
        previous.set(next, node);
        queue.push(next);
      }
    }
  }
  const path = [];
  for (let node = to; node !== undefined; node = previous.get(node)) path.unshift(node);
  return path;
}

let cached;

export const importCycles = {
  meta: {
    type: 'problem',
    docs: { description: 'Forbid import cycles among the project\'s modules, type-only imports included' },
    messages: { cycle: 'Import cycle of {{size}} files: {{path}} (docs/internals.md, "Layers")' },
    schema: [],
  },
  create(context) {
    const root = context.cwd;
    cached ??= { root, graph: importGraph(root) };
    const { graph } = cached;
    const file = context.physicalFilename;
    const members = graph.component.get(file);
    if (!members) return {};
    const imports = graph.edges.get(file);
    const check = (node, source) => {
      if (!source || typeof source.value !== 'string') return;
      const to = imports.get(source.value);
      if (!to || !members.includes(to)) return;
      const back = pathBetween(graph, to, file);
      const path = [file, ...back].map((f) => relative(root, f)).join(' → ');
      context.report({ node: source, messageId: 'cycle', data: { size: String(members.length), path } });
    };
    return {
      ImportDeclaration: (node) => check(node, node.source),
      ExportNamedDeclaration: (node) => check(node, node.source),
      ExportAllDeclaration: (node) => check(node, node.source),
      ImportExpression: (node) => check(node, node.source),
      TSImportType: (node) => check(node, node.argument?.type === 'TSLiteralType' ? node.argument.literal : node.argument),
    };
  },
};

/** `node tools/lint/import-cycles.js`: the cycles, one line per component. */
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const root = process.cwd();
  const { component } = importGraph(root);
  const seen = new Set();
  for (const members of component.values()) {
    if (seen.has(members)) continue;
    seen.add(members);
    console.log(`${members.length} files: ${members.map((f) => relative(root, f)).sort().join(' ')}`);
  }
  if (seen.size === 0) console.log('no import cycles');
}
