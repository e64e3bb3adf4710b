import express, { type Request, type Response, type Router } from "express";
import type { DaprActorHost, DaprReply } from "./dapr-host.js";
import { CALL_ID_HEADER } from "./call-memory.js";
import { REQUEST_ID_HEADER } from "./sidecar-client.js";
import { isLoggableRequestId, runInRequest } from "../../logging/log-context.js";

function send(res: Response, answer: DaprReply): void {
  res.status(answer.status).type("application/json").send(answer.body);
}

function param(req: Request, name: string): string {
  const value = req.params[name];
  return typeof value === "string" ? value : "";
}

function bodyText(req: Request): string {
  return typeof req.body === "string" ? req.body : "";
}

/**
 * Dapr's documented app-side actor API, served on our own Express app (DECISIONS 6: the SDK's
 * server crashes the process on a deactivation of an actor it never had). Every handler answers;
 * none can throw.
 */
export function daprActorRouter(host: DaprActorHost): Router {
  const router = express.Router();
  // daprd sends JSON (or nothing) with varying content types: take the raw text and parse it here.
  router.use("/actors", express.text({ type: () => true, limit: "4mb" }));
  router.get("/dapr/config", (_req, res) => {
    // Asked by daprd as it starts: after a sidecar restart our activations are stale.
    host.sidecarStarted();
    res.json(host.config());
  });
  // daprd's app health check (--enable-app-health-check --app-health-check-path /healthz): while
  // it fails, daprd withdraws our actor types from placement and the actors move to the other
  // replicas. It fails when this host drains (SIGTERM) or its turns stopped completing; it must
  // not wait for the service's start-up, which needs daprd to host our actors first.
  router.get("/healthz", (_req, res) => {
    const fine = host.answerHealthProbe();
    res.status(fine ? 200 : 503).send(fine ? "ok" : "not hosting actors");
  });
  router.put("/actors/:type/:id/method/remind/:name", async (req, res) => {
    send(res, await host.handleReminder(param(req, "type"), param(req, "id"), param(req, "name"), bodyText(req)));
  });
  // Our timers live in the app (they run closures); Dapr timers are never registered.
  router.put("/actors/:type/:id/method/timer/:name", (_req, res) => {
    res.status(200).json(null);
  });
  router.put("/actors/:type/:id/method/:method", async (req, res) => {
    const call = () => host.handleCall(param(req, "type"), param(req, "id"), param(req, "method"), bodyText(req), req.get(CALL_ID_HEADER));
    // A call made for a request: the turn's lines carry that request's id, here on this replica too.
    const requestId = req.get(REQUEST_ID_HEADER);
    send(res, await (requestId !== undefined && isLoggableRequestId(requestId) ? runInRequest(requestId, call) : call()));
  });
  router.delete("/actors/:type/:id", async (req, res) => {
    send(res, await host.handleDeactivate(param(req, "type"), param(req, "id")));
  });
  return router;
}
