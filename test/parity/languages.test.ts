/**
 * The parity gate for the polyglot fixture's servers and the alternatives (SPEC §11): the
 * bridge's diagnostics for one file equal what the same server publishes and answers to
 * pulls when driven alone (gate.ts). Each side is settled by the server's own signal where it
 * has one — the pull, a publish carrying the document version, its indexing log — and, for
 * servers nothing settles, by the settled set's item count (test/fixtures/README.md), which
 * both sides must reach.
 */
import { findLanguageServer } from "../support/language-servers.ts";
import { copyFixture, materializeCFixture } from "../support/real-servers.ts";
import { type Case, parityCases } from "./gate.ts";

const polyglot = () => copyFixture("polyglot");

/** A case on the polyglot fixture. */
function on(server: string, file: string, plan: Case["plan"], tuples: number): Case {
  return { server, find: () => findLanguageServer(server), fixture: polyglot, file, plan, tuples };
}

const CASES: Case[] = [
  // pull, announced: the direct side pulls right after opening
  on("vscode-html-language-server", "web/index.html", {}, 1),
  on("vscode-css-language-server", "web/styles/site.css", {}, 1),
  on("vscode-json-language-server", "config/settings.json", {}, 2),
  on("svelte-language-server", "web/components/Badge.svelte", {}, 4),
  on("ruff", "service/app.py", {}, 2),
  // pull, registered after initialized
  on("ty", "service/app.py", { pullRegistered: true }, 2),
  on("basedpyright", "service/app.py", { log: /Found \d+ source file/, pullRegistered: true }, 4),
  // pull it never announces; its pushes, once complete, are the same set: 3 pulled + 3 pushed
  on("astro-ls", "web/pages/index.astro", { pull: true, publishItems: 3 }, 6),
  // a publish carrying the document version
  on("bash-language-server", "scripts/deploy.sh", { publishVersion: 1 }, 1),
  on("postgres-language-server", "db/schema.sql", { publishVersion: 1 }, 1),
  // nothing settles them: the measured count
  on("yaml-language-server", "ci/pipeline.yaml", { publishItems: 1 }, 1),
  on("docker-langserver", "infra/Dockerfile", { publishItems: 2 }, 2),
  on("graphql-lsp", "web/graphql/queries.graphql", { publishItems: 1 }, 1),
  on("intelephense", "api/broken.php", { log: /Indexing finished/, publishItems: 1 }, 1),
  on("taplo", "config/app.toml", { publishItems: 2 }, 2),
  on("fortls", "native/main.f90", { publishItems: 1 }, 1),
  on("texlab", "docs/paper.tex", { publishItems: 1 }, 1),
  // code points on both sides (position_encoding utf-32): pyflakes' byte columns pass through
  { ...on("pylsp", "service/app.py", { publishItems: 2 }, 2), unit: "code-point" },
  {
    server: "ccls",
    find: () => findLanguageServer("ccls"),
    fixture: () => materializeCFixture(undefined, "c-errors"),
    file: "broken.c",
    plan: { publishItems: 2 },
    tuples: 2,
    unit: "code-point",
    openTask: true,
  },
];

await parityCases(CASES);
