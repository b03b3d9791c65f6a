#!/usr/bin/env bun
/**
 * CLI dispatch (SPEC §2): serve | --supervise | --check-config | init |
 * --version | --help. Exit codes: 0 success, 2 invalid configuration or
 * usage (one-line JSON error on stderr), 1 internal failure. stdout carries
 * nothing but MCP messages (or the output a command exists to print).
 */
import { BridgeError, toEnvelope } from "./errors.ts";
import { versionLine } from "./version.ts";

const USAGE = `theodolite — a headless, deterministic LSP bridge over MCP stdio

usage:
  theodolite --config FILE          serve MCP on stdio (or set THEODOLITE_CONFIG)
  theodolite                        zero-config: workspace = cwd, servers from its own toolchain
                                    (node_modules/.bin, its TypeScript, .venv), then PATH (unpinned)
  theodolite --check-config FILE    validate, resolve binaries, check version pins; exit 0 or 2
  theodolite init [DIR]             print a pinned bridge.toml for DIR (default: cwd)
  theodolite --version              one line: version, commit, bun, platform
  theodolite --help                 this text

environment:
  THEODOLITE_CONFIG      configuration file when --config is not given
  THEODOLITE_LOG_LEVEL   error | warn | info | debug (overrides bridge.log.level)

exit codes: 0 success, 1 internal failure, 2 invalid configuration or usage
`;

interface Cli {
  command: "serve" | "check" | "init" | "version" | "help";
  config?: string;
  dir?: string;
}

export function parseCli(args: string[]): Cli {
  const cli: Cli = { command: "serve" };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    const value = (): string => {
      const v = args[++i];
      if (v === undefined || v.startsWith("--")) {
        throw new BridgeError("InvalidArgument", `${arg} needs a value`, {
          hint: "see theodolite --help",
        });
      }
      return v;
    };
    if (arg === "--version" || arg === "-V") cli.command = "version";
    else if (arg === "--help" || arg === "-h") cli.command = "help";
    else if (arg === "--config") cli.config = value();
    else if (arg.startsWith("--config=")) cli.config = arg.slice("--config=".length);
    else if (arg === "--check-config") {
      cli.command = "check";
      cli.config = value();
    } else if (arg === "init" && i === 0) {
      cli.command = "init";
      const dir = args[i + 1];
      if (dir !== undefined && !dir.startsWith("--")) {
        cli.dir = dir;
        i++;
      }
    } else {
      throw new BridgeError("InvalidArgument", `unknown argument "${arg}"`, {
        hint: "see theodolite --help",
      });
    }
  }
  return cli;
}

function failUsage(err: unknown): never {
  const env = toEnvelope(err);
  process.stderr.write(`${JSON.stringify(env)}\n`);
  process.exit(env.code === "Internal" ? 1 : 2);
}

async function main(args: string[]): Promise<void> {
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
      process.stdout.write(`${versionLine()}\n`);
      return;
    case "help":
      process.stdout.write(USAGE);
      return;
    case "check": {
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
      const { runInit } = await import("./commands/init.ts");
      try {
        process.stdout.write(await runInit(cli.dir ?? process.cwd()));
      } catch (err) {
        failUsage(err);
      }
      return;
    }
    case "serve": {
      const { serve } = await import("./serve.ts");
      await serve(cli.config);
      return;
    }
  }
}

main(process.argv.slice(2)).catch((err: unknown) => {
  process.stderr.write(`${JSON.stringify(toEnvelope(err))}\n`);
  process.exit(1);
});
