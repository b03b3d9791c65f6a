/**
 * Test stand-in for the theodolite binary (src/main.ts dispatches the same
 * way), runnable from source or compiled with `bun build --compile`:
 *   --supervise ARGS…            → runSupervisor(ARGS)
 *   --exec-server ARGS…          → runExecServer(ARGS): how the supervisor starts the server
 *   --probe-subreaper [--control] → become a child subreaper (unless --control), orphan a
 *       `sleep` through sh, print {subreaper, self, orphan, orphanPpid, selfCommand}, kill it
 *   --launch-fake BUN FAKE_LS    → after one line on stdin, launch the fake server the way the
 *       bridge does (default self re-exec), do an initialize round trip and a clean shutdown,
 *       print {serverInfo, end}
 */
import { runExecServer } from "../../src/process/exec-server.ts";
import { readProc } from "../../src/process/proctree.ts";
import { selfCommand } from "../../src/process/self.ts";
import { becomeChildSubreaper } from "../../src/process/subreaper.ts";
import { runSupervisor } from "../../src/process/supervisor.ts";

const args = process.argv.slice(2);

function probeSubreaper(control: boolean): void {
  const subreaper = control ? false : becomeChildSubreaper();
  // sh exits at once, orphaning its background sleep; spawnSync returns after sh is reaped,
  // and re-parenting happens before that.
  const sh = Bun.spawnSync(["sh", "-c", "sleep 30 >/dev/null 2>&1 & echo $!"], { stdout: "pipe" });
  const orphan = Number(sh.stdout.toString().trim());
  const orphanPpid = readProc(orphan)?.ppid ?? null;
  process.kill(orphan, "SIGKILL");
  const report = { subreaper, self: process.pid, orphan, orphanPpid, selfCommand: selfCommand() };
  process.stdout.write(`${JSON.stringify(report)}\n`);
}

async function launchFake(bun: string, fakeLs: string): Promise<void> {
  // imported here: the logger they load touches stderr, which the supervisor modes share
  // with the server
  const { createMessageConnection, ReadableStreamMessageReader, WriteableStreamMessageWriter } =
    await import("vscode-languageserver-protocol/node");
  const { readableOf, writableOf } = await import("../../src/lsp/byte-streams.ts");
  const { launchSupervised } = await import("../../src/process/launch.ts");
  for await (const _line of console) break; // the test may delete our binary before this line
  const proc = launchSupervised({
    command: bun,
    args: [fakeLs],
    cwd: process.cwd(),
    env: { PATH: process.env.PATH ?? "" },
    graceMs: 1000,
  });
  const lsp = createMessageConnection(
    new ReadableStreamMessageReader(readableOf(proc.stdout)),
    new WriteableStreamMessageWriter(writableOf(proc.stdin)),
  );
  lsp.listen();
  const init = (await lsp.sendRequest("initialize", {
    processId: null,
    rootUri: null,
    capabilities: {},
  })) as {
    serverInfo: unknown;
  };
  await lsp.sendRequest("shutdown");
  await lsp.sendNotification("exit");
  const end = await proc.terminate(5000);
  lsp.dispose();
  process.stdout.write(`${JSON.stringify({ serverInfo: init.serverInfo, end })}\n`);
}

if (args[0] === "--exec-server") runExecServer(args.slice(1));
if (args[0] === "--probe-subreaper") {
  probeSubreaper(args[1] === "--control");
  process.exit(0);
} else if (args[0] === "--launch-fake") {
  await launchFake(args[1] ?? "", args[2] ?? "");
  process.exit(0);
}
await runSupervisor(args[0] === "--supervise" ? args.slice(1) : args);
