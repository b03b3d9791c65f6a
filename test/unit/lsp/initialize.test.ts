/**
 * SPEC §5: the server's position encoding is what it negotiates — `positionEncoding`, or
 * clangd 14's `offsetEncoding`, else LSP's UTF-16 — unless the configuration's
 * `position_encoding` says what the server really counts in (emmylua_ls announces nothing
 * and counts code points, docs/LANGUAGE-SERVERS.md).
 */
import { expect, test } from "bun:test";
import { findPreset } from "../../../src/config/presets.ts";
import { negotiatedEncoding } from "../../../src/lsp/initialize.ts";

test("negotiated: positionEncoding, then offsetEncoding, else utf-16", () => {
  expect(negotiatedEncoding({ capabilities: { positionEncoding: "utf-8" } })).toBe("utf-8");
  expect(negotiatedEncoding({ capabilities: {}, offsetEncoding: "utf-32" })).toBe("utf-32");
  expect(negotiatedEncoding({ capabilities: {} })).toBe("utf-16");
  expect(negotiatedEncoding({ capabilities: { positionEncoding: "utf-7" } })).toBe("utf-16");
});

test("a configured position_encoding wins over whatever the server says", () => {
  expect(negotiatedEncoding({ capabilities: {} }, "utf-32")).toBe("utf-32");
  expect(negotiatedEncoding({ capabilities: { positionEncoding: "utf-8" } }, "utf-16")).toBe(
    "utf-16",
  );
  expect(negotiatedEncoding({ capabilities: { positionEncoding: "utf-8" } }, null)).toBe("utf-8");
});

test("the emmylua_ls preset sets utf-32; the others leave the negotiation alone", () => {
  expect(findPreset("emmylua_ls")?.server.position_encoding).toBe("utf-32");
  expect(findPreset("gopls")?.server.position_encoding).toBeNull();
});
