import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface TestPki {
  /** PEM of the throwaway CA; trusted only by agents built in tests. */
  readonly ca: string;
  readonly key: string;
  readonly cert: string;
}

/** Names the receiver certificate covers; test lookups map the DNS names to 127.0.0.1. */
export const TEST_HOSTNAMES = ["localhost", "hooks.test.example", "public.test.example"];

function openssl(dir: string, args: string[]): void {
  try {
    execFileSync("openssl", args, { cwd: dir, stdio: "pipe" });
  } catch (error) {
    throw new Error(`openssl failed (install the openssl CLI: apt-get install openssl): ${String(error)}`);
  }
}

/** A fresh CA and a server certificate for 127.0.0.1, ::1 and the test names, made per run. */
export function createTestPki(): TestPki {
  const dir = mkdtempSync(join(tmpdir(), "webhook-pki-"));
  try {
    const ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"];
    openssl(dir, [
      "req", "-x509", ...ec, "-keyout", "ca.key", "-out", "ca.crt", "-days", "2", "-subj", "/CN=webhook-test-ca",
      "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign",
    ]);
    openssl(dir, ["req", ...ec, "-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=localhost"]);
    const san = ["IP:127.0.0.1", "IP:::1", ...TEST_HOSTNAMES.map((n) => `DNS:${n}`)].join(",");
    writeFileSync(
      join(dir, "ext.cnf"),
      `subjectAltName=${san}\nbasicConstraints=CA:FALSE\nkeyUsage=digitalSignature\nextendedKeyUsage=serverAuth\n`,
    );
    openssl(dir, [
      "x509", "-req", "-in", "server.csr", "-CA", "ca.crt", "-CAkey", "ca.key", "-CAcreateserial",
      "-out", "server.crt", "-days", "2", "-extfile", "ext.cnf",
    ]);
    return {
      ca: readFileSync(join(dir, "ca.crt"), "utf8"),
      key: readFileSync(join(dir, "server.key"), "utf8"),
      cert: readFileSync(join(dir, "server.crt"), "utf8"),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
