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
    const timer = setTimeout(() => req.socket.destroy(), ms);
    timer.unref();
    // 'close' comes once the answer is finished, or its connection is gone.
    res.once("close", () => clearTimeout(timer));
    next();
  };
}
