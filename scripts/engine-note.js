// Runs before the project's build on `npm install`. npm has already put the `node` dev dependency
// (Node 24) first on the PATH by now, so the machine's own Node is read from npm's user agent.
// .npmrc keeps npm's per-package engine warnings quiet, so this is the one line about it.
const machineNode = /node\/v(\d+)\.\S*/.exec(process.env.npm_config_user_agent ?? '');
if (machineNode && Number(machineNode[1]) < 24) {
  console.log(
    `This machine has Node ${machineNode[0].slice(5)}: npm's scripts run the project's own Node 24 (the \`node\` dev dependency).`,
  );
}
