/**
 * Locating the language servers .ci/setup-servers builds from source registries (SPEC §11):
 * bacon-ls and emmylua_ls (`cargo install`, into $CARGO_HOME/bin) and gopls (`go install`,
 * into GOBIN or $GOPATH/bin). Their pins live in test/servers/pins.env, read by both the
 * setup script and these finders, so the two cannot drift.
 *
 * Each finder looks on PATH first, then in the install directory (often not on PATH), and
 * accepts only a binary whose version output names the pin: the fixtures' answers were
 * measured with that version (test/fixtures/README.md). Anything else is a loud SKIPPED
 * line naming what was found. Discovery configures the binary found
 * (test/support/discovered-server.ts).
 */
import { existsSync, readFileSync } from "node:fs";
import { delimiter, join, resolve } from "node:path";
import {
  firstWorking,
  fromPreset,
  NO_ENV,
  type RealServer,
  readVersion,
  SETUP_HINT,
  skipLoudly,
  TEST_SERVERS_DIR,
} from "./real-servers.ts";
import { executablesNamed } from "./rust-src.ts";

/** test/servers/pins.env as a map: `NAME=value` lines, `#` comments. */
function readPins(): Record<string, string> {
  const pins: Record<string, string> = {};
  for (const line of readFileSync(join(TEST_SERVERS_DIR, "pins.env"), "utf8").split("\n")) {
    const m = /^([A-Z_]+)=(\S+)$/.exec(line.trim());
    if (m) pins[m[1]!] = m[2]!;
  }
  return pins;
}

function pin(name: string): string {
  const value = readPins()[name];
  if (value === undefined) throw new Error(`test/servers/pins.env has no ${name}`);
  return value;
}

export const PINS = {
  baconLs: pin("BACON_LS_VERSION"),
  emmyLua: pin("EMMYLUA_LS_VERSION"),
  gopls: pin("GOPLS_VERSION"),
  texlab: pin("TEXLAB_VERSION"),
  taplo: pin("TAPLO_VERSION"),
};

/** The exact version outputs of the pinned builds (measured). */
export const PINNED_VERSION_OUTPUT = {
  baconLs: PINS.baconLs,
  emmyLua: `emmylua_ls ${PINS.emmyLua}`,
  gopls: `golang.org/x/tools/gopls ${PINS.gopls}`,
};

/** Every executable `name` on PATH, then the given install directories, deduplicated. */
function candidates(name: string, installDirs: string[]): string[] {
  const found = executablesNamed(name).map((p) => resolve(p));
  for (const dir of installDirs) {
    const path = join(dir, name);
    if (existsSync(path) && !found.includes(path)) found.push(path);
  }
  return found;
}

/** The first candidate printing `expected`; else a SKIPPED line saying what was found. */
async function findPinned(
  server: string,
  binary: string,
  installDirs: string[],
  versionArgs: string[],
  expected: string,
  install: string,
): Promise<{ path: string; version: string } | null> {
  const paths = candidates(binary, installDirs);
  const found = await firstWorking(paths, (v) => v === expected, NO_ENV, versionArgs);
  if (found) return found;
  const other = paths[0] ? await readVersion([paths[0], ...versionArgs], NO_ENV) : null;
  skipLoudly(
    server,
    other === null
      ? `not found — ${install} (or ${SETUP_HINT})`
      : `at ${paths[0]} prints ${JSON.stringify(other)}, pinned ${JSON.stringify(expected)} — ${SETUP_HINT}`,
  );
  return null;
}

function cargoBinDir(): string {
  return join(process.env.CARGO_HOME ?? join(process.env.HOME ?? "", ".cargo"), "bin");
}

/** bacon-ls: PATH, then $CARGO_HOME/bin (cargo install's target). */
export async function findBaconLs(): Promise<RealServer | null> {
  const found = await findPinned(
    "bacon-ls",
    "bacon-ls",
    [cargoBinDir()],
    ["--version"],
    PINNED_VERSION_OUTPUT.baconLs,
    `cargo install --locked bacon-ls@${PINS.baconLs}`,
  );
  if (!found) return null;
  return fromPreset("bacon-ls", found.path, { overlay: { env: { CARGO_NET_OFFLINE: "true" } } });
}

/** emmylua_ls: PATH, then $CARGO_HOME/bin (cargo install's target). */
export async function findEmmyLua(): Promise<RealServer | null> {
  const found = await findPinned(
    "emmylua_ls",
    "emmylua_ls",
    [cargoBinDir()],
    ["--version"],
    PINNED_VERSION_OUTPUT.emmyLua,
    `cargo install --locked emmylua_ls@${PINS.emmyLua}`,
  );
  return found ? fromPreset("emmylua_ls", found.path) : null;
}

/** go install's target: GOBIN, else the first GOPATH entry's bin, else ~/go/bin. */
function goBinDirs(): string[] {
  const dirs: string[] = [];
  if (process.env.GOBIN) dirs.push(process.env.GOBIN);
  const gopath = (process.env.GOPATH ?? "").split(delimiter).find((p) => p !== "");
  dirs.push(join(gopath ?? join(process.env.HOME ?? "", "go"), "bin"));
  return dirs;
}

/**
 * gopls: PATH, then go install's target. It runs `go` (from PATH) to load packages; the
 * tests keep it off the network (GOPROXY=off) and on the local toolchain (GOTOOLCHAIN=local).
 */
export async function findGopls(): Promise<RealServer | null> {
  const found = await findPinned(
    "gopls",
    "gopls",
    goBinDirs(),
    ["version"],
    PINNED_VERSION_OUTPUT.gopls,
    `go install golang.org/x/tools/gopls@${PINS.gopls}`,
  );
  if (!found) return null;
  return fromPreset("gopls", found.path, {
    overlay: { env: { GOPROXY: "off", GOTOOLCHAIN: "local" } },
  });
}
