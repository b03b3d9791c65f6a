/**
 * Presets for a repository's tooling languages (SPEC §2.1), files known by name or `#!` line
 * among them (SPEC §4.5); docs/LANGUAGE-SERVERS.md has one section each.
 */
import { DATA_FILES, LF_LINES, npmPackageVersion, type Preset, preset } from "./preset-declare.ts";

export const TOOL_PRESETS: readonly Preset[] = [
  preset({
    name: "bash-language-server",
    binaries: ["bash-language-server"],
    versionCommand: npmPackageVersion("bash-language-server"),
    description:
      "Shell scripts (npm bash-language-server), diagnostics from shellcheck when it is on " +
      "PATH; ready once its background analysis completed.",
    server: {
      args: ["start"],
      languages: ["shellscript"],
      extensions: { sh: "shellscript", bash: "shellscript" },
      filenames: {
        ".bashrc": "shellscript",
        ".bash_profile": "shellscript",
        ".bash_aliases": "shellscript",
        ".bash_logout": "shellscript",
        ".profile": "shellscript",
      },
      shebangs: { sh: "shellscript", bash: "shellscript", dash: "shellscript" },
      roles: ["semantics", "diagnostics"],
      // no explainshell (a web service)
      settings: { bashIde: { explainshellEndpoint: "" } },
      // symbols of files nobody opened come from the background analysis
      ready: { log_message: "BackgroundAnalysis: Completed" },
      // its publish carries the document version, also an empty one without shellcheck
      diagnostics_settle: "version",
      line_terminators: [...LF_LINES],
    },
  }),
  preset({
    name: "docker-langserver",
    binaries: ["docker-langserver"],
    versionCommand: npmPackageVersion("dockerfile-language-server-nodejs"),
    description: "Dockerfiles (npm dockerfile-language-server-nodejs), by name or extension.",
    server: {
      args: ["--stdio"],
      languages: ["dockerfile"],
      extensions: { dockerfile: "dockerfile", Dockerfile: "dockerfile" },
      filenames: {
        Dockerfile: "dockerfile",
        "Dockerfile.*": "dockerfile",
        Containerfile: "dockerfile",
        "Containerfile.*": "dockerfile",
      },
      roles: ["semantics", "diagnostics"],
      ...DATA_FILES,
      diagnostics_settle: "publish",
    },
  }),
  preset({
    name: "taplo",
    binaries: ["taplo"],
    description:
      "TOML (taplo built with its `lsp` feature: cargo install taplo-cli --features lsp); " +
      "no schema catalog downloaded.",
    server: {
      args: ["lsp", "stdio"],
      languages: ["toml"],
      extensions: { toml: "toml" },
      roles: ["semantics", "diagnostics"],
      ...DATA_FILES,
      initialization_options: { configurationSection: "evenBetterToml" },
      settings: { evenBetterToml: { schema: { enabled: false, catalogs: [] } } },
      diagnostics_settle: "publish",
      line_terminators: [...LF_LINES],
    },
  }),
  preset({
    name: "terraform-ls",
    binaries: ["terraform-ls"],
    untested: true,
    description:
      "Terraform (HashiCorp's terraform-ls): untested here — the Go module proxy refuses one " +
      "of its modules.",
    server: {
      args: ["serve"],
      version_args: ["version"],
      languages: ["terraform", "terraform-vars"],
      extensions: { tf: "terraform", tfvars: "terraform-vars" },
      roles: ["semantics", "diagnostics"],
      diagnostics_settle: "publish",
    },
  }),
  preset({
    name: "cmake-language-server",
    binaries: ["cmake-language-server"],
    description:
      "CMake (PyPI cmake-language-server): hover on commands and variables, from `cmake` on " +
      "PATH; no diagnostics, symbols or navigation.",
    server: {
      languages: ["cmake"],
      extensions: { cmake: "cmake" },
      filenames: { "CMakeLists.txt": "cmake" },
      roles: ["semantics"],
      ...DATA_FILES,
      line_terminators: [...LF_LINES],
    },
  }),
  preset({
    name: "fortls",
    binaries: ["fortls"],
    description: "Fortran (PyPI fortls); columns counted in code points.",
    server: {
      languages: ["fortran"],
      extensions: {
        f90: "fortran",
        f95: "fortran",
        f03: "fortran",
        f08: "fortran",
        f: "fortran",
        for: "fortran",
        fpp: "fortran",
        F90: "fortran",
        F: "fortran",
      },
      roles: ["semantics", "diagnostics"],
      // it announces no encoding but counts code points (docs/LANGUAGE-SERVERS.md#fortls)
      position_encoding: "utf-32",
      diagnostics_settle: "publish",
    },
  }),
  preset({
    name: "texlab",
    binaries: ["texlab"],
    description: "LaTeX and BibTeX (texlab, crates.io); no build or chktex runs.",
    server: {
      languages: ["latex", "bibtex"],
      extensions: { tex: "latex", sty: "latex", cls: "latex", bib: "bibtex" },
      roles: ["semantics", "diagnostics"],
      diagnostics_settle: "publish",
      line_terminators: [...LF_LINES],
    },
  }),
];
