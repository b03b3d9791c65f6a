/**
 * One level of a call or type hierarchy (SPEC §4.3): prepare at the position, pick the
 * first item in canonical order, ask the server for the next level of that item, and
 * answer `{item, [key]: entries, total}` paged — `call_hierarchy` and `type_hierarchy`
 * differ only in their requests and entries.
 */
import type {
  ServerCapabilities,
  TextDocumentPositionParams,
} from "vscode-languageserver-protocol";
import type { CallItemOut } from "../../normalize/call-hierarchy.ts";
import { type Paging, page } from "../../normalize/paging.ts";
import type { NormalizeContext } from "../../normalize/types.ts";
import type { LspRequest } from "../../session/rpc.ts";
import { type PositionArgs, pagedResult } from "../conventions.ts";
import type { CallContext, ToolAnswer } from "../tool.ts";
import { type FileCall, requestOrLacks, unconvertedField, usesMarks } from "./common.ts";
import { textDocumentPosition } from "./position.ts";

export interface HierarchyLevel<Item, Entry extends object> {
  provider: keyof ServerCapabilities;
  prepare: LspRequest<TextDocumentPositionParams, unknown>;
  /** the answer's list key: `calls`, `types` */
  key: string;
  pick(prepared: unknown, norm: NormalizeContext): { raw: Item; out: CallItemOut } | undefined;
  /** the server's next level for the item (MethodNotFound: ServerLacksCapability) */
  next(call: FileCall, item: Item): Promise<unknown>;
  entries(raw: unknown, item: Item, norm: NormalizeContext): Entry[];
}

export async function hierarchyLevel<Item, Entry extends object>(
  ctx: CallContext,
  call: FileCall,
  args: PositionArgs,
  paging: Paging,
  level: HierarchyLevel<Item, Entry>,
): Promise<ToolAnswer> {
  call.session.requireCapability(level.provider, level.prepare.method);
  const prepared = await requestOrLacks(
    call,
    level.prepare,
    await textDocumentPosition(ctx, call, args),
  );
  const picked = await call.norm.convert(() => level.pick(prepared, call.norm));
  const marks = await usesMarks(call.session, call.rel);
  if (!picked) {
    return { result: { item: null, [level.key]: [], total: 0, ...marks }, count: 0 };
  }
  const raw = await level.next(call, picked.raw);
  const all = await call.norm.convert(() => level.entries(raw, picked.raw, call.norm));
  const p = page(all, paging);
  const unconverted = unconvertedField(call.norm.unconverted(), [picked.out, ...p.items]);
  return {
    result: { item: picked.out, ...pagedResult(level.key, p), ...unconverted, ...marks },
    count: p.items.length,
    pages: { key: level.key, items: all, offset: paging.offset },
  };
}
