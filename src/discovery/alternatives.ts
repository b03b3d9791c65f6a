/**
 * One server per language and role (SPEC §2.1), pure: of presets that serve the same files
 * with the same roles, the first of its group that was found serves and the others are left
 * out, or every call would be AmbiguousServer (SPEC §4.5). A diagnostics-only server joins
 * beside the language's server where the workspace asks for it: bacon-ls always (cargo's
 * own check), ruff when the workspace configures ruff (ruff.toml, .ruff.toml, or
 * `[tool.ruff]` in pyproject.toml) or no other Python server was found — beside pyright it
 * would take the type checker's diagnostics away otherwise.
 */

interface Group {
  /** what the group's files are called in the reason given */
  files: string;
  language: string;
  /** by preference: the one tested here first */
  members: readonly string[];
}

export const GROUPS: readonly Group[] = [
  { files: ".lua", language: "Lua", members: ["emmylua_ls", "lua-language-server"] },
  { files: ".py", language: "Python", members: ["pyright", "basedpyright", "ty", "pylsp"] },
  { files: "C/C++", language: "C/C++", members: ["clangd", "ccls"] },
];

const RUFF = "ruff";
const BACON = "bacon-ls";
const PYTHON_SERVERS = GROUPS[1]?.members ?? [];

/** Who gives way to whom: `{ left: name, why }` for each preset found but not to serve. */
export function givingWay(
  found: ReadonlySet<string>,
  workspace: { ruffConfig: string | null; cargoAtRoot: boolean },
): { name: string; why: string }[] {
  const { ruffConfig } = workspace;
  const out: { name: string; why: string }[] = [];
  for (const group of GROUPS) {
    const present = group.members.filter((m) => found.has(m));
    const [first, ...rest] = present;
    for (const name of rest) {
      out.push({
        name,
        why: `${first} serves the ${group.files} files (one ${group.language} server per workspace)`,
      });
    }
  }
  const python = PYTHON_SERVERS.find((m) => found.has(m));
  if (found.has(RUFF) && python !== undefined && ruffConfig === null) {
    out.push({
      name: RUFF,
      why:
        `${python} diagnoses the .py files; ruff diagnoses instead (and ${python} keeps ` +
        "semantics) when the workspace configures ruff: ruff.toml, .ruff.toml or [tool.ruff] " +
        "in pyproject.toml",
    });
  }
  if (found.has(BACON) && !workspace.cargoAtRoot) {
    out.push({
      name: BACON,
      why:
        "bacon-ls checks the crate in the workspace root and there is no Cargo.toml there " +
        "(rust-analyzer diagnoses the .rs files)",
    });
  }
  return out;
}
