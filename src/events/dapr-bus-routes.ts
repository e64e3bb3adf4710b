import express, { type Router } from "express";
import { DAPR_EVENTS_ROUTE, type DaprEventBus } from "./dapr-bus.js";

/** The app side of Dapr pub/sub: the subscription list and the delivery route. */
export function daprEventRouter(bus: DaprEventBus): Router {
  const router = express.Router();
  router.get("/dapr/subscribe", (_req, res) => {
    res.json(bus.subscriptions());
  });
  // Deliveries come as application/cloudevents+json: take the raw text and parse it in the bus.
  router.post(`${DAPR_EVENTS_ROUTE}/:topic`, express.text({ type: () => true, limit: "4mb" }), async (req, res) => {
    const topic = typeof req.params.topic === "string" ? req.params.topic : "";
    const status = await bus.deliver(topic, typeof req.body === "string" ? req.body : "");
    res.status(200).json({ status });
  });
  return router;
}
