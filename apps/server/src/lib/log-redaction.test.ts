import { describe, expect, it } from 'vitest';
import { REDACTED, scrubLogLine, shortLogLine } from './log-redaction.ts';

describe('scrubLogLine', () => {
  it('passes a line with nothing personal through as it is', () => {
    const line = JSON.stringify({
      level: 30,
      hostname: 'vm',
      reqId: 'r1',
      req: { method: 'GET', url: '/api/classes', remoteAddress: '127.0.0.1' },
      msg: 'incoming request',
    });
    expect(scrubLogLine(`${line}\n`)).toBe(`${line}\n`);
    expect(scrubLogLine(line)).toBe(`${line}\n`);
  });

  it('takes out personal keys at any depth and personal data inside strings', () => {
    const line = JSON.stringify({
      user: { Email: 'ada@example.test', name: 'Ada', nested: { phone: '+1 555 010 1234' } },
      msg: 'sign-in of ada%40example.test with Bearer abc.def and eyJhbGciOi.eyJzdWIiOi.sig, call +44 20 7946 0958',
      err: { message: 'Failed query: insert\nparams: ada,+1555' },
    });
    const out = JSON.parse(scrubLogLine(line));
    expect(out.user).toEqual({ Email: REDACTED, name: REDACTED, nested: { phone: REDACTED } });
    expect(out.msg).not.toMatch(/ada|abc\.def|eyJ|7946/);
    expect(out.err.message).toBe(`Failed query: insert\nparams: ${REDACTED}`);
  });

  it('finds what is hidden after an escaped newline', () => {
    const line = JSON.stringify({ msg: 'Failed query: insert\nparams: 42,secret-value' });
    expect(JSON.parse(scrubLogLine(line)).msg).toBe(`Failed query: insert\nparams: ${REDACTED}`);
    const bearer = JSON.stringify({ msg: 'header:\nBearer abc.def' });
    expect(JSON.parse(scrubLogLine(bearer)).msg).toBe(`header:\nBearer ${REDACTED}`);
  });

  it('finds a personal key written with spaces before its colon', () => {
    expect(JSON.parse(scrubLogLine('{"password" : "hunter2"}')).password).toBe(REDACTED);
  });
});

describe('shortLogLine (LOG_FORMAT=short, development)', () => {
  const at = Date.UTC(2026, 0, 2, 12, 4, 31);

  it('writes a request as time, method, URL, status and duration', () => {
    const line = JSON.stringify({
      level: 30,
      time: at,
      reqId: 'r1',
      req: { method: 'GET', url: '/api/classes', remoteAddress: '127.0.0.1' },
      route: '/api/classes',
      res: { statusCode: 200 },
      responseTime: 3.12,
      msg: 'request completed',
    });
    expect(shortLogLine(`${line}\n`)).toBe('12:04:31 GET /api/classes 200 3.12ms\n');
  });

  it('keeps a warning’s level, message and request id, and an error’s type, message and frames', () => {
    const warn = JSON.stringify({ level: 40, time: at, reqId: 'r2', msg: 'slow query' });
    expect(shortLogLine(warn)).toBe('12:04:31 WARN slow query (request r2)\n');
    const error = JSON.stringify({
      level: 50,
      time: at,
      msg: 'boom',
      err: { type: 'TypeError', message: 'x is undefined', stack: '    at f (a.ts:1:1)' },
    });
    expect(shortLogLine(error)).toBe('12:04:31 ERROR boom\n  TypeError: x is undefined\n    at f (a.ts:1:1)\n');
  });

  it('passes a line that is no JSON through', () => {
    expect(shortLogLine('plain text')).toBe('plain text\n');
  });
});
