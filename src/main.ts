#!/usr/bin/env bun
/**
 * CLI dispatch (SPEC §2): serve (through the shared bridge, or `--isolated`) | call |
 * daemon status|stop | --daemon | --supervise | --exec-server | --check-config | init |
 * --version [--json] | --help. Exit codes: 0 success, 2 invalid configuration or
 * usage (one-line JSON error on stderr), 3 a machine the bridge cannot serve on
 * (EnvironmentUnsupported, checked before serving), 1 internal failure. stdout carries
 * nothing but MCP messages (or the output a command exists to print).
 */
import { environmentUnsupported, usageError } from "./commands/cli-errors.ts";
import { toEnvelope } from "./errors.ts";
import { provenance, versionLine } from "./version.ts";

const USAGE = `theodolite — a headless, deterministic LSP bridge over MCP stdio

usage:
  theodolite --config FILE          serve MCP on stdio (or set THEODOLITE_CONFIG)
  theodolite                        zero-config: workspace = cwd, servers from its own toolchain
                                    (node_modules/.bin, its TypeScript, .venv), then PATH (unpinned)
  theodolite ... --isolated         a dedicated bridge for this client (default: the shared bridge
                                    of this user, roots, configuration and binary, started if needed)
  theodolite call TOOL [JSON-ARGS] [--format json|sarif] [--config FILE] [--isolated]
                                    one tool call: its JSON result on stdout; exit 0 result,
                                    1 tool error (envelope on stderr), 2 usage or configuration
  theodolite daemon status          the running shared bridges of this user, as JSON
  theodolite daemon stop [ROOT]     stop the shared bridges serving ROOT (all without ROOT)
  theodolite --check-config FILE    validate, resolve binaries, check version pins; exit 0 or 2
  theodolite init [DIR]             print a pinned bridge.toml for DIR (default: cwd)
  theodolite --version [--json]     version, commit (-dirty), bun, target; --json: as JSON
  theodolite --help                 this text

environment:
  THEODOLITE_CONFIG      configuration file when --config is not given
  THEODOLITE_LOG_LEVEL   error | warn | info | debug (overrides bridge.log.level)

exit codes: 0 success, 1 internal failure, 2 invalid configuration or usage,
            3 this machine lacks what theodolite needs (/proc, bun:ffi)
`;

interface Cli {
  command: "serve" | "check" | "init" | "version" | "help" | "call" | "status" | "stop";
  json?: boolean;
  config?: string;
  dir?: string;
  isolated?: boolean;
  /** call: the tool, its JSON arguments, the output format */
  tool?: string;
  args?: string;
  format?: "json" | "sarif";
}

/**
 * The words that are no option, wherever the options stand: `init [DIR]`, `call TOOL
 * [JSON-ARGS]`, `daemon status`, `daemon stop [ROOT]`.
 */
function parseWords(cli: Cli, words: string[]): void {
  const [first, second, third, ...more] = words;
  const extra = (w: string | undefined) => {
    if (w !== undefined) throw usageError(`unknown argument "${w}"`);
  };
  if (first === undefined) return;
  // --version, --help and --check-config take no command beside them
  if (cli.command !== "serve") throw usageError(`unknown argument "${first}"`);
  if (first === "init") {
    cli.command = "init";
    if (second !== undefined) cli.dir = second;
    extra(third);
    return;
  }
  if (first === "call") {
    if (second === undefined) throw usageError("call needs a TOOL");
    cli.command = "call";
    cli.tool = second;
    if (third !== undefined) cli.args = third;
    extra(more[0]);
    return;
  }
  if (first === "daemon") {
    if (second !== "status" && second !== "stop") throw usageError("daemon needs status or stop");
    cli.command = second;
    if (second === "stop" && third !== undefined) cli.dir = third;
    else extra(third);
    extra(more[0]);
    return;
  }
  throw usageError(`unknown argument "${first}"`);
}

export function parseCli(args: string[]): Cli {
  const cli: Cli = { command: "serve" };
  const words: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    const value = (): string => {
      const v = args[++i];
      if (v === undefined || v.startsWith("--")) {
        throw usageError(`${arg} needs a value`);
      }
      return v;
    };
    if (arg === "--version" || arg === "-V") cli.command = "version";
    else if (arg === "--json") cli.json = true;
    else if (arg === "--help" || arg === "-h") cli.command = "help";
    else if (arg === "--config") cli.config = value();
    else if (arg.startsWith("--config=")) cli.config = arg.slice("--config=".length);
    else if (arg === "--check-config") {
      cli.command = "check";
      cli.config = value();
    } else if (arg === "--isolated") cli.isolated = true;
    else if (arg === "--format") {
      const f = value();
      if (f !== "json" && f !== "sarif") throw usageError("--format is json or sarif");
      cli.format = f;
    } else if (arg.startsWith("--")) throw usageError(`unknown argument "${arg}"`);
    else words.push(arg);
  }
  parseWords(cli, words);
  if (cli.format !== undefined && cli.command !== "call")
    throw usageError("--format goes with call");
  if (cli.isolated === true && cli.command !== "serve" && cli.command !== "call")
    throw usageError("--isolated goes with serving or call");
  if (cli.json === true && cli.command !== "version") {
    throw usageError("--json goes with --version only");
  }
  return cli;
}

function failUsage(err: unknown): never {
  const env = toEnvelope(err);
  process.stderr.write(`${JSON.stringify(env)}\n`);
  process.exit(env.code === "Internal" ? 1 : 2);
}

/** SPEC §2: a machine without /proc or bun:ffi is refused before serving, exit 3. */
async function refuseUnsupportedEnvironment(): Promise<void> {
  const { environmentProblems } = await import("./process/environment.ts");
  const problems = environmentProblems();
  if (problems.length === 0) return;
  const err = environmentUnsupported(problems);
  process.stderr.write(`${JSON.stringify(err.toEnvelope())}\n`);
  process.exit(3);
}

/**
 * The commands that run version checks adopt what a check's daemon leaves (a child subreaper,
 * as serve is): without a PID namespace, it is killed at the check's end (SPEC §9.2).
 */
async function adoptOrphans(): Promise<void> {
  const { becomeChildSubreaper } = await import("./process/subreaper.ts");
  becomeChildSubreaper();
}

async function main(args: string[]): Promise<void> {
  if (args[0] === "--exec-server") {
    const { runExecServer } = await import("./process/exec-server.ts");
    runExecServer(args.slice(1));
  }
  if (args[0] === "--daemon") {
    await refuseUnsupportedEnvironment();
    const { runDaemon } = await import("./daemon/daemon.ts");
    await runDaemon(args.slice(1));
    return;
  }
  if (args[0] === "--supervise") {
    const { runSupervisor } = await import("./process/supervisor.ts");
    await runSupervisor(args.slice(1));
    return;
  }
  let cli: Cli;
  try {
    cli = parseCli(args);
  } catch (err) {
    failUsage(err);
  }
  switch (cli.command) {
    case "version":
      process.stdout.write(`${cli.json === true ? JSON.stringify(provenance()) : versionLine()}\n`);
      return;
    case "help":
      process.stdout.write(USAGE);
      return;
    case "check": {
      await adoptOrphans();
      const { runCheckConfig } = await import("./commands/check-config.ts");
      const { workspaceFileChecks } = await import("./workspace/requirements.ts");
      try {
        const code = await runCheckConfig(
          cli.config as string,
          (line) => process.stdout.write(`${line}\n`),
          workspaceFileChecks,
        );
        process.exit(code);
      } catch (err) {
        failUsage(err);
      }
      return;
    }
    case "init": {
      await adoptOrphans();
      const { runInit } = await import("./commands/init.ts");
      try {
        process.stdout.write(await runInit(cli.dir ?? process.cwd()));
      } catch (err) {
        failUsage(err);
      }
      return;
    }
    case "serve": {
      await refuseUnsupportedEnvironment();
      if (cli.isolated !== true) {
        const { serveShared } = await import("./daemon/mode.ts");
        if (await serveShared(cli.config)) return;
      }
      const { serve } = await import("./serve.ts");
      await serve(cli.config);
      return;
    }
    case "call": {
      await refuseUnsupportedEnvironment();
      const { runCall } = await import("./daemon/call.ts");
      const code = await runCall({
        tool: cli.tool as string,
        args: cli.args,
        format: cli.format ?? "json",
        config: cli.config,
        isolated: cli.isolated === true,
      });
      process.exit(code);
      return;
    }
    case "status":
    case "stop": {
      const { daemonStatus, daemonStop } = await import("./daemon/daemon-command.ts");
      try {
        const out = cli.command === "status" ? await daemonStatus() : await daemonStop(cli.dir);
        process.stdout.write(`${out}\n`);
      } catch (err) {
        failUsage(err);
      }
      return;
    }
  }
}

main(process.argv.slice(2)).catch((err: unknown) => {
  process.stderr.write(`${JSON.stringify(toEnvelope(err))}\n`);
  process.exit(1);
});
