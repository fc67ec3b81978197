/**
 * A list read as it streams, the way every list row measures one: the seconds until its last
 * byte, the documents in it (counted by their one `selfRef` each, without parsing tens of MB; a
 * mark may straddle chunks), and the server's RSS before and at its peak meanwhile (sampled
 * every 20 ms).
 */
import { get } from 'node:http';
import type { Measured } from './processes.js';

export interface StreamedList {
  readonly seconds: number;
  readonly items: number;
  readonly status: number;
  readonly rssBaseline: number;
  readonly rssPeak: number;
}

const MARK = '"selfRef":';

export async function streamList(server: Measured, pathAndQuery: string, headers: Readonly<Record<string, string>>): Promise<StreamedList> {
  const rssBaseline = server.rss();
  let peak = rssBaseline;
  const sampler = setInterval(() => (peak = Math.max(peak, server.rss())), 20);
  const started = performance.now();
  try {
    const { items, status } = await new Promise<{ items: number; status: number }>((resolve, reject) => {
      get(`${server.url}${pathAndQuery}`, { headers }, (res) => {
        let items = 0;
        let tail = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          const text = tail + chunk;
          for (let at = text.indexOf(MARK); at !== -1; at = text.indexOf(MARK, at + MARK.length)) items++;
          tail = text.slice(-(MARK.length - 1));
        });
        res.on('end', () => resolve({ items, status: res.statusCode ?? 0 }));
        res.on('error', reject);
      }).on('error', reject);
    });
    const seconds = (performance.now() - started) / 1000;
    return { seconds, items, status, rssBaseline, rssPeak: Math.max(peak, server.rss()) };
  } finally {
    clearInterval(sampler);
  }
}
