/**
 * Incremental SHA-256, so a whole document is verified in constant memory. Web Crypto's digest()
 * takes all bytes at once, so each platform's own streaming hash is used: `crypto.DigestStream` in
 * a Worker, `node:crypto` in Node (through process.getBuiltinModule, which loads it only where it
 * exists, so this module imports nothing from Node and runs in a Worker).
 */
import { asDigest, toHex } from "./protocol/digests.js";

export interface Sha256 {
  update(bytes: Uint8Array): void | Promise<void>;
  /** `sha256:<hex>`; the hash takes no more bytes after it. */
  digest(): Promise<string>;
}

interface DigestStreamLike extends WritableStream<ArrayBufferView> {
  readonly digest: Promise<ArrayBuffer>;
}
type DigestStreamClass = new (algorithm: string) => DigestStreamLike;
interface NodeCrypto {
  createHash(algorithm: "sha256"): { update(bytes: Uint8Array): unknown; digest(encoding: "hex"): string };
}

export function createSha256(): Sha256 {
  const DigestStream = (globalThis as { crypto?: { DigestStream?: DigestStreamClass } }).crypto?.DigestStream;
  if (DigestStream) return digestStreamSha256(new DigestStream("SHA-256"));
  const nodeCrypto = (
    globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }
  ).process?.getBuiltinModule?.("node:crypto") as NodeCrypto | undefined;
  if (nodeCrypto) {
    const hash = nodeCrypto.createHash("sha256");
    return {
      update: (bytes) => void hash.update(bytes),
      digest: async () => asDigest(hash.digest("hex")),
    };
  }
  throw new Error(
    "@readiness-catalog/client needs an incremental SHA-256: crypto.DigestStream (Workers) or node:crypto (Node 22)",
  );
}

function digestStreamSha256(stream: DigestStreamLike): Sha256 {
  const writer = stream.getWriter();
  return {
    update: (bytes) => writer.write(bytes),
    digest: async () => {
      await writer.close();
      return asDigest(toHex(await stream.digest));
    },
  };
}
