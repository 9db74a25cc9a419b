import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, normalize } from 'node:path';
import { gzipSync } from 'node:zlib';

/**
 * A loopback stand-in for www.sec.gov and data.sec.gov that serves the project's recorded responses
 * (fixtures/edgar-recorded/{www,data}/<url path>), records every request with its arrival time, and plays
 * scripted faults (429, 503, 403, a cut-off body, silence) for chosen paths.
 */
export const RECORDED = 'fixtures/edgar-recorded';

export interface Received {
  host: 'www' | 'data';
  path: string;
  userAgent: string | undefined;
  acceptEncoding: string | undefined;
  /** performance.now() when the request arrived. */
  at: number;
}

export type Fault =
  | { status: number; headers?: Record<string, string> }
  /** Announces the full length, sends the first bytes, then drops the connection. */
  | { truncate: true }
  /** Never answers (for timeouts); the socket is closed when the server stops. */
  | { hang: true };

export interface RecordedEdgar {
  bases: { www: string; data: string };
  requests: Received[];
  /** Faults per "host:path", played in order before the recorded file is served. */
  faults: Map<string, Fault[]>;
  paths(): string[];
  /**
   * Serves EDGAR as it stood on a date (YYYY-MM-DD): submissions list no filing filed after it. null (the default)
   * serves every recorded filing. Lets a test play two runs with a filing received between them.
   */
  asOf(date: string | null): void;
  close(): Promise<void>;
}

interface ServerState {
  requests: Received[];
  faults: Map<string, Fault[]>;
  asOf: string | null;
}

/** A submissions document (`filings.recent` or a top-level page) without the rows filed after `date`. */
function filedBy(body: Buffer, date: string): Buffer {
  const doc = JSON.parse(body.toString('utf8')) as { filings?: { recent?: Record<string, unknown[]> } } & Record<
    string,
    unknown
  >;
  const columns = (doc.filings?.recent ?? doc) as Record<string, unknown[]>;
  const keep = (columns.filingDate as string[]).map((d) => d <= date);
  for (const [k, v] of Object.entries(columns))
    if (Array.isArray(v) && v.length === keep.length) columns[k] = v.filter((_, i) => keep[i]);
  return Buffer.from(JSON.stringify(doc));
}

function serve(host: 'www' | 'data', state: ServerState) {
  return (req: IncomingMessage, res: ServerResponse) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    state.requests.push({
      host,
      path,
      userAgent: req.headers['user-agent'],
      acceptEncoding: req.headers['accept-encoding'],
      at: performance.now(),
    });
    const fault = state.faults.get(`${host}:${path}`)?.shift();
    const file = join(RECORDED, host, normalize(path).replace(/^(\.\.[/\\])+/, ''));
    const found = existsSync(file) && statSync(file).isFile();
    if (fault && 'hang' in fault) return;
    if (fault && 'status' in fault) {
      res.writeHead(fault.status, { 'content-type': 'text/plain', ...fault.headers });
      return res.end(`recorded fault ${fault.status}`);
    }
    if (!found) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      return res.end('Not Found');
    }
    let body: Buffer = readFileSync(file);
    if (state.asOf && host === 'data' && path.startsWith('/submissions/')) body = filedBy(body, state.asOf);
    const headers: Record<string, string> = {
      'content-type': path.endsWith('.json') ? 'application/json' : 'text/html',
    };
    // Like SEC's servers: gzip for clients that accept it.
    if (/\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''))) {
      body = gzipSync(body);
      headers['content-encoding'] = 'gzip';
    }
    if (fault && 'truncate' in fault) {
      res.writeHead(200, { ...headers, 'content-length': String(body.length) });
      res.write(body.subarray(0, Math.min(64, body.length >> 1)));
      setTimeout(() => res.destroy(), 20);
      return;
    }
    res.writeHead(200, { ...headers, 'content-length': String(body.length) });
    res.end(body);
  };
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

export async function startRecordedEdgar(): Promise<RecordedEdgar> {
  const state: ServerState = { requests: [], faults: new Map(), asOf: null };
  const servers = [createServer(serve('www', state)), createServer(serve('data', state))];
  const [www, data] = [await listen(servers[0]!), await listen(servers[1]!)];
  return {
    bases: { www: www!, data: data! },
    requests: state.requests,
    faults: state.faults,
    paths: () => state.requests.map((r) => `${r.host}:${r.path}`),
    asOf: (date) => void (state.asOf = date),
    close: async () => {
      for (const s of servers) s.closeAllConnections();
      await Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
    },
  };
}
