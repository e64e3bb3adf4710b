import type { Socket } from "node:net";
import type { NextFunction, Request, Response } from "express";

/**
 * Every answer of the API pipeline ends within `ms` of its request, or its connection is closed.
 * Node's limits stop at the request: the headers and request timeouts cover receiving it, and
 * the keep-alive timeout starts only once the answer is finished. A client that sent its request
 * and then stopped reading (or read a byte now and then) held its connection for good, and 1,024
 * of them (HTTP_MAX_CONNECTIONS) shut every other client out. daprd's callbacks are mounted ahead
 * of this pipeline: an actor turn they carry may run for minutes, and daprd reads what it asks.
 */
export function responseDeadline(ms: number) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const timer = setTimeout(() => {
      cutOff.add(req.socket);
      req.socket.destroy();
    }, ms);
    timer.unref();
    // 'close' comes once the answer is finished, or its connection is gone.
    res.once("close", () => clearTimeout(timer));
    next();
  };
}

/** Connections the deadline closed; held only as long as the connection itself. */
const cutOff = new WeakSet<Socket>();

/**
 * How an answer whose connection closed before it was finished ended: cut off at the deadline,
 * or closed otherwise (the client went, a shutdown, Node's own request timeout). The access log
 * and the request counter name it, so a slow reader the deadline stopped is seen, not only its
 * freed connection.
 */
export function unfinishedEnding(req: Request): "cut_off" | "closed" {
  // The connection's: a pipelined answer queued behind the one that ran out of time goes with it.
  return cutOff.has(req.socket) ? "cut_off" : "closed";
}
