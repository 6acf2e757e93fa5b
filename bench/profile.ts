import { readFileSync } from 'node:fs';

/** A V8 .cpuprofile (node --cpu-prof), reduced to where the time went. */
interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; hitCount?: number }[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileSummary {
  file: string;
  sampledMs: number;
  /** Self time per owner: an npm package, node internals, our code, GC, idle. */
  byOwner: { owner: string; selfMs: number; pct: number }[];
  /** The functions with the most self time. */
  topFunctions: { fn: string; where: string; selfMs: number; pct: number }[];
}

function ownerOf(url: string, functionName: string): string {
  if (!url) {
    if (functionName === '(garbage collector)') return 'V8 garbage collector';
    if (functionName === '(idle)') return 'idle (waiting for I/O)';
    if (functionName === '(program)') return 'V8/native (program)';
    return `native: ${functionName || '(anonymous)'}`;
  }
  if (url.startsWith('node:')) return 'node core';
  const nm = url.lastIndexOf('/node_modules/');
  if (nm >= 0) {
    const rest = url.slice(nm + '/node_modules/'.length).split('/');
    return rest[0]?.startsWith('@') ? `${rest[0]}/${rest[1]}` : (rest[0] ?? url);
  }
  if (url.includes('/apps/server/src/')) return 'apps/server (our code)';
  if (url.includes('/packages/shared/')) return 'packages/shared (our code)';
  return url;
}

function shortWhere(url: string, line: number): string {
  const nm = url.lastIndexOf('/node_modules/');
  const tail = nm >= 0 ? url.slice(nm + '/node_modules/'.length) : url.replace(/^.*\/(apps|packages)\//, '$1/');
  return `${tail}:${line + 1}`;
}

/**
 * Self time per function and per owner. `window` (microseconds of the monotonic clock, which V8's
 * profile timestamps and process.hrtime share) keeps only the samples taken under load, leaving
 * start-up and shutdown out.
 */
export function summarizeProfile(file: string, window?: { fromUs: number; toUs: number }, top = 15): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const hits = new Map<number, number>();
  let t = profile.startTime;
  let kept = 0;
  let firstUs = Number.POSITIVE_INFINITY;
  let lastUs = 0;
  profile.samples.forEach((id, i) => {
    t += profile.timeDeltas[i] ?? 0;
    if (window && (t < window.fromUs || t > window.toUs)) return;
    hits.set(id, (hits.get(id) ?? 0) + 1);
    kept++;
    firstUs = Math.min(firstUs, t);
    lastUs = Math.max(lastUs, t);
  });
  const totalMs = kept > 1 ? (lastUs - firstUs) / 1000 : (profile.endTime - profile.startTime) / 1000;
  const msPerSample = kept ? totalMs / kept : 0;
  const byOwner = new Map<string, number>();
  const byFunction = new Map<string, { fn: string; where: string; ms: number }>();
  for (const node of profile.nodes) {
    const ms = (hits.get(node.id) ?? 0) * msPerSample;
    if (ms === 0) continue;
    const { functionName, url, lineNumber } = node.callFrame;
    const owner = ownerOf(url, functionName);
    byOwner.set(owner, (byOwner.get(owner) ?? 0) + ms);
    const key = `${functionName}@${url}:${lineNumber}`;
    const entry = byFunction.get(key) ?? {
      fn: functionName || '(anonymous)',
      where: url ? shortWhere(url, lineNumber) : '',
      ms: 0,
    };
    entry.ms += ms;
    byFunction.set(key, entry);
  }
  const pct = (ms: number) => Math.round((ms / totalMs) * 1000) / 10;
  return {
    file,
    sampledMs: Math.round(totalMs),
    byOwner: [...byOwner.entries()]
      .map(([owner, ms]) => ({ owner, selfMs: Math.round(ms), pct: pct(ms) }))
      .sort((a, b) => b.selfMs - a.selfMs)
      .slice(0, top),
    topFunctions: [...byFunction.values()]
      .map((f) => ({ fn: f.fn, where: f.where, selfMs: Math.round(f.ms), pct: pct(f.ms) }))
      .sort((a, b) => b.selfMs - a.selfMs)
      .slice(0, top),
  };
}
