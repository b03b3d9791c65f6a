import { afterAll, expect, test } from "bun:test";
import { join } from "node:path";
import { type PeerCredentials, peerCredentials, peerOf } from "../../../src/ffi/peer.ts";
import { removeTempDirs, tempDir } from "../../support/temp-dirs.ts";

const dir = tempDir("theodolite-peer-");
afterAll(removeTempDirs);

test("SO_PEERCRED names the connecting process: its pid and uid (SPEC §2.2)", async () => {
  let seen = null as PeerCredentials | null;
  const opened = Promise.withResolvers<void>();
  const listener = Bun.listen({
    unix: join(dir, "s.sock"),
    socket: {
      open(s) {
        seen = peerOf(s);
        s.end();
        opened.resolve();
      },
      data() {},
    },
  });
  try {
    const client = await Bun.connect({ unix: join(dir, "s.sock"), socket: { data() {} } });
    await opened.promise;
    client.end();
  } finally {
    listener.stop(true);
  }
  expect(seen).toEqual({
    pid: process.pid,
    uid: process.geteuid?.() ?? -1,
    gid: process.getegid?.() ?? -1,
  });
});

test("a descriptor that is not a socket has no peer", () => {
  expect(peerCredentials(0x7fff)).toBeNull();
  expect(peerOf({})).toBeNull();
});
