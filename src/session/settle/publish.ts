/**
 * `publish` (SPEC §6): any publish after the sync. Publishes without a version may skip a
 * change of the document's own text, so a diagnostics call opens it afresh, and the answer
 * says it is not proven finished.
 */
import type { Role } from "../../config/types.ts";
import {
  anyPublish,
  PLAIN_RULE,
  pullOrPush,
  refreshReopen,
  type SettleRule,
  UNVERSIONED,
} from "./rule.ts";

export const publishRule: SettleRule = {
  ...PLAIN_RULE,
  name: "publish",
  afterSync: anyPublish,
  file: (pulled) => ({
    ask: pullOrPush(pulled),
    waitFirst: false,
    waitAfter: !pulled,
    ...(pulled ? {} : { unsettled: UNVERSIONED }),
  }),
  refresh: (pulled: boolean, role: Role, watching: boolean) =>
    !pulled && role === "diagnostics" ? "fresh" : refreshReopen(pulled, role, watching),
  skipsUnpublished: (pulled) => !pulled,
};
