import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { projectRoot } from './paths.js';

const run = promisify(execFile);

/** The address the documentation's examples call. */
export const DOCS_BASE = 'http://127.0.0.1:8080';

/** The shell blocks of a document of the project (`README.md`, `docs/…`) that call the service with curl, in order. */
export async function curlBlocks(file: string): Promise<string[]> {
  const text = await readFile(path.join(projectRoot, file), 'utf8');
  return [...text.matchAll(/^```sh\n([\s\S]*?)```/gm)].map((m) => m[1]!).filter((block) => /^curl /m.test(block) && block.includes(DOCS_BASE));
}

/**
 * Runs shell blocks as written but for the address (a server's in place of 127.0.0.1:8080), with
 * curl set to fail on an HTTP error (a `.curlrc` of its own); what each printed.
 */
export async function runCurlBlocks(blocks: readonly string[], url: string): Promise<string[]> {
  const curlHome = await mkdtemp(path.join(tmpdir(), 'topocat-curl-'));
  try {
    await writeFile(path.join(curlHome, '.curlrc'), 'fail-with-body\nshow-error\nmax-time = 10\n');
    const outputs: string[] = [];
    for (const block of blocks) {
      const script = `set -e\n${block.split(DOCS_BASE).join(url)}`;
      const { stdout } = await run('sh', ['-c', script], { env: { PATH: process.env.PATH ?? '', CURL_HOME: curlHome } }).catch((error: { stdout: string; stderr: string }) => {
        throw new Error(`example failed:\n${block}\n${error.stderr}\n${error.stdout}`);
      });
      outputs.push(stdout);
    }
    return outputs;
  } finally {
    await rm(curlHome, { recursive: true, force: true });
  }
}
