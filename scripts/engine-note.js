// Runs before `npm install` on whatever Node the machine has (so plain JavaScript, no types).
// The project's scripts run the Node 24 that the `node` dev dependency installs; .npmrc keeps npm's
// per-package engine warnings quiet, so this is the one line about it.
const major = Number(process.versions.node.split('.')[0]);
if (major < 24) {
  console.log(
    `Node ${process.versions.node} here: npm's scripts will run the project's own Node 24 (the \`node\` dev dependency).`,
  );
}
