#!/usr/bin/env python3
"""Runs hmmlearn (the peer our TypeScript HMM is checked against, issue 6) on inputs given as JSON.

Reads one JSON request on stdin and writes one JSON answer on stdout, so the TypeScript tests and
benchmark generate the models and sequences and hmmlearn's answers are computed fresh every run
(never stored as fixtures).

Request kinds:
  {"kind": "score", "cases": [{"model": M, "obs": [[...], ...]}, ...]}
      -> {"cases": [{"loglik", "posteriors": [[...]], "viterbi_logprob", "viterbi": [...]}]}
  {"kind": "fit", "model": M, "obs": [[...]], "iterations": N}
      -> {"loglik" (score of the fitted model), "model": M, "seconds" (fit wall time), "iterations"}
where M = {"startprob": [k], "transmat": [[k]], "means": [[d]], "covars": [[d]]} (diagonal).
"""
import json
import sys
import time
import warnings

import numpy as np
from hmmlearn import hmm


def build(model, iterations=1):
    k = len(model["startprob"])
    m = hmm.GaussianHMM(
        n_components=k,
        covariance_type="diag",
        init_params="",
        params="stmc",
        n_iter=iterations,
        # Run every iteration: the comparison is "same start, same number of EM steps".
        tol=-np.inf,
        implementation="log",
    )
    m.startprob_ = np.asarray(model["startprob"], dtype=float)
    m.transmat_ = np.asarray(model["transmat"], dtype=float)
    m.means_ = np.asarray(model["means"], dtype=float)
    m.covars_ = np.asarray(model["covars"], dtype=float)
    m.n_features = m.means_.shape[1]
    return m


def score(case):
    m = build(case["model"])
    x = np.asarray(case["obs"], dtype=float)
    logprob, path = m.decode(x, algorithm="viterbi")
    return {
        "loglik": float(m.score(x)),
        "posteriors": m.predict_proba(x).tolist(),
        "viterbi_logprob": float(logprob),
        "viterbi": [int(s) for s in path],
    }


def fit(request):
    iterations = int(request["iterations"])
    m = build(request["model"], iterations)
    x = np.asarray(request["obs"], dtype=float)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        started = time.perf_counter()
        m.fit(x)
        seconds = time.perf_counter() - started
    return {
        "loglik": float(m.score(x)),
        "seconds": seconds,
        "iterations": len(m.monitor_.history),
        "model": {
            "startprob": m.startprob_.tolist(),
            "transmat": m.transmat_.tolist(),
            "means": m.means_.tolist(),
            "covars": [np.diag(c).tolist() if np.ndim(c) == 2 else list(c) for c in m.covars_],
        },
    }


def main():
    request = json.load(sys.stdin)
    if request["kind"] == "score":
        answer = {"cases": [score(c) for c in request["cases"]]}
    elif request["kind"] == "fit":
        answer = fit(request)
    else:
        raise SystemExit(f"unknown request kind {request['kind']!r}")
    json.dump(answer, sys.stdout)


if __name__ == "__main__":
    main()
