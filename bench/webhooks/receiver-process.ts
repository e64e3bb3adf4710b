import { startHttpsReceiver } from "../../test/integration/webhooks/support/receiver.js";

/**
 * The fan-out bench's HTTPS receiver in a process of its own, as a subscriber's server would be:
 * its TLS work does not share the service's event loop. Prints {port} once listening, then one
 * JSON line per delivery {path, signature, body}; the bench verifies and counts them.
 * The certificate and key come as PEM in RECEIVER_CERT and RECEIVER_KEY.
 */
const cert = process.env.RECEIVER_CERT;
const key = process.env.RECEIVER_KEY;
if (!cert || !key) {
  process.stderr.write("RECEIVER_CERT and RECEIVER_KEY are required\n");
  process.exit(2);
}
const receiver = await startHttpsReceiver({ ca: "", cert, key }, (delivery) => {
  const signature = delivery.headers["x-service-signature"];
  process.stdout.write(`${JSON.stringify({ path: delivery.path, signature: typeof signature === "string" ? signature : null, body: delivery.body })}\n`);
  // Nothing is kept: the bench holds the record.
  receiver.received.length = 0;
  return { status: 200 };
});
process.stdout.write(`${JSON.stringify({ port: receiver.port })}\n`);
process.on("SIGTERM", () => {
  void receiver.stop().then(() => process.exit(0));
});
