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

/** How an answer ended: finished, or its connection closed first, cut off at the deadline or otherwise. */
export type AnswerEnding = { finished: true } | { finished: false; ending: "cut_off" | "closed" };

type EndingWatcher = (ending: AnswerEnding) => void;

/** Per answer, everyone waiting for its end: one pair of listeners however many watch it. */
const watchers = new WeakMap<Response, EndingWatcher[]>();

/**
 * Calls `watch` once the answer is finished, or once its connection closed before that, saying
 * whether the response deadline cut it off or it closed otherwise (the client went, a shutdown,
 * Node's own request timeout). The access log and the request counter both name it, so a slow
 * reader the deadline stopped is seen, not only its freed connection. A flag set on 'finish', not
 * `res.writableFinished`: an answer ended on a connection already gone reads as finished.
 */
export function whenAnswerEnds(req: Request, res: Response, watch: EndingWatcher): void {
  const waiting = watchers.get(res);
  if (waiting) {
    waiting.push(watch);
    return;
  }
  const all = [watch];
  watchers.set(res, all);
  let finished = false;
  res.once("finish", () => {
    finished = true;
    for (const each of all) each({ finished: true });
  });
  res.once("close", () => {
    if (finished) return;
    // The connection's: a pipelined answer queued behind the one that ran out of time goes with it.
    const ending = cutOff.has(req.socket) ? "cut_off" : "closed";
    for (const each of all) each({ finished: false, ending });
  });
}
