import { spawn } from 'node:child_process';

/**
 * npm run dev: the API with --watch on :3000 and Vite's dev server (with /api proxied to it).
 * Both stop together on Ctrl-C. The API runs from the repository root, as `npm start` does, so
 * both read the root's .env (the server loads it, when there is one) and keep their data in the root's ./data.
 */
const children = [
  spawn(process.execPath, ['--watch', 'apps/server/src/server.ts'], { stdio: 'inherit' }),
  spawn('npm', ['run', 'dev', '-w', '@skillhive/web'], { stdio: 'inherit' }),
];
const stop = () => {
  for (const child of children) child.kill('SIGTERM');
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const child of children)
  child.on('exit', (code) => {
    if (code && code !== 0) stop();
  });
