// The page's side of worker.js: requests as promises, errors rebuilt as the readers' classes,
// and at most one request of each kind waiting while the worker is busy (typing a rack letter by
// letter asks for a search per letter: only the last one still waiting is worth running).

import {BadArtifact, BadInput} from "./js/errors.js";

/** A request dropped unanswered because a newer one of the same kind replaced it. */
export class Superseded extends Error {
  constructor() {
    super("replaced by a newer request");
    this.name = "Superseded";
  }
}

/** The error a worker reported, as the class the page knows (BadInput, BadArtifact, Error). */
function revive({name, message, field, turn, url}) {
  let error;
  if (name === "BadInput") {
    error = new BadInput(message, {field, turn});
  } else if (name === "BadArtifact") {
    // BadArtifact builds its message from (url, problem, remedy): keep the worker's as it is.
    error = new BadArtifact(url, "");
    error.message = message;
  } else {
    error = new Error(message);
    error.name = name;
  }
  return error;
}

export class Remote {
  /** @param {string|URL} url the worker's module script */
  constructor(url) {
    this.url = url;
    this.worker = null;
    this.nextId = 1;
    this.pending = new Map();  // id -> {resolve, reject, channel}
    this.busy = new Map();  // channel -> id of its request in the worker
    this.waiting = new Map();  // channel -> {op, args, resolve, reject} not yet sent
  }

  start() {
    if (this.worker) return this.worker;
    this.worker = new Worker(this.url, {type: "module"});
    this.worker.onmessage = ({data}) => this.answer(data);
    // A worker script that fails to load or throws outside a request: nothing it was asked
    // will be answered, so every request fails with the reason (the next one starts a worker).
    this.worker.onerror = (event) => {
      event.preventDefault();
      this.stop(event.message ? new Error(`the page's worker failed: ${event.message}`)
        : new BadArtifact(String(this.url), "the page's worker did not start",
                          "check that the site serves it and js/, or build it with `make web`"));
    };
    this.worker.onmessageerror = () => this.stop(new Error("the page's worker sent an unreadable answer"));
    return this.worker;
  }

  stop(error) {
    this.worker?.terminate();
    this.worker = null;
    for (const {reject} of this.pending.values()) reject(error);
    for (const {reject} of this.waiting.values()) reject(error);
    this.pending.clear();
    this.busy.clear();
    this.waiting.clear();
  }

  /** Ask the worker `op` with `args`; the promise settles with its answer. */
  call(op, args, channel = null) {
    return new Promise((resolve, reject) => {
      const id = this.nextId++;
      this.pending.set(id, {resolve, reject, channel});
      if (channel !== null) this.busy.set(channel, id);
      this.start().postMessage({id, op, args});
    });
  }

  /**
   * Ask `op` on `channel`: sent at once when the channel is idle, else kept until its request
   * in the worker is answered, replacing (rejecting with Superseded) any older one kept.
   */
  latest(channel, op, args) {
    if (!this.busy.has(channel)) return this.call(op, args, channel);
    this.waiting.get(channel)?.reject(new Superseded());
    return new Promise((resolve, reject) => this.waiting.set(channel, {op, args, resolve, reject}));
  }

  answer({id, result, error}) {
    const request = this.pending.get(id);
    if (!request) return;
    this.pending.delete(id);
    if (error) request.reject(revive(error)); else request.resolve(result);
    const {channel} = request;
    if (channel === null || this.busy.get(channel) !== id) return;
    this.busy.delete(channel);
    const next = this.waiting.get(channel);
    if (next) {
      this.waiting.delete(channel);
      this.call(next.op, next.args, channel).then(next.resolve, next.reject);
    }
  }
}
