import { spawn } from 'node:child_process';

/**
 * npm run dev: the API with --watch on :3000 and Vite's dev server (with /api proxied to it).
 * Both stop together on Ctrl-C.
 */
const children = [
  spawn('npm', ['run', 'dev', '-w', '@skillhive/server'], { stdio: 'inherit' }),
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
