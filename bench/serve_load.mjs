// Open-loop load generator of bench/bench_serve.py: requests at a constant arrival rate,
// whatever the server's answers do, so that queueing shows in the latencies instead of slowing
// the generator down (wrk2's and k6's constant-arrival-rate model).
//
//   node bench/serve_load.mjs PLAN.json > RESULT.json
//
// PLAN: {"base": "http://127.0.0.1:PORT", "rate": requests per second, "seconds": how long,
//        "timeout_ms": a request's limit, "requests": [{"label", "method", "path", "body"}]}.
// Request i is due at start + i / rate and is sent then on a free keep-alive connection, or a
// new one (no cap: a slow server gets more connections, never fewer requests). Its latency is
// measured from the moment it was due, not from when it was sent, so a generator that falls
// behind its schedule adds its lag to the latency rather than hiding it (no coordinated
// omission). The requests cycle through PLAN.requests in order.
//
// RESULT: {"sent", "seconds", "lag_ms_max", "cpu_ms", "sockets", "labels": {label: {"ms":
// [latency of each answer], "errors": {status or error name: count}}}}. A non-2xx answer and a
// failed request are errors; their latencies are not in "ms".

import http from "node:http";
import {readFileSync} from "node:fs";
import {performance} from "node:perf_hooks";

const plan = JSON.parse(readFileSync(process.argv[2], "utf8"));
const base = new URL(plan.base);
const agent = new http.Agent({keepAlive: true, maxSockets: Infinity, maxFreeSockets: 1024});
let sockets = 0;
const labels = {};
for (const request of plan.requests) labels[request.label] ??= {ms: [], errors: {}};
const bodies = plan.requests.map((r) => (r.body === undefined ? null : Buffer.from(JSON.stringify(r.body))));

const total = Math.round(plan.rate * plan.seconds);
const interval = 1000 / plan.rate;
let sent = 0;
let done = 0;
let lagMax = 0;
const cpuStart = process.cpuUsage();
const start = performance.now();

function error(label, what) {
  const errors = labels[label].errors;
  errors[what] = (errors[what] || 0) + 1;
}

function send(i) {
  const spec = plan.requests[i % plan.requests.length];
  const body = bodies[i % plan.requests.length];
  const due = start + i * interval;
  const headers = body ? {"content-type": "application/json", "content-length": body.length} : {};
  const request = http.request({host: base.hostname, port: base.port, path: spec.path,
                                method: spec.method, agent, headers,
                                timeout: plan.timeout_ms}, (response) => {
    response.on("data", () => {});
    response.on("end", () => {
      const latency = performance.now() - due;
      if (response.statusCode >= 200 && response.statusCode < 300) labels[spec.label].ms.push(latency);
      else error(spec.label, String(response.statusCode));
      finish();
    });
  });
  request.on("socket", (socket) => {
    if (!socket.counted) {
      socket.counted = true;
      sockets += 1;
    }
  });
  request.on("timeout", () => request.destroy(new Error("timeout")));
  request.on("error", (e) => {
    error(spec.label, e.message === "timeout" ? "timeout" : e.code || e.message);
    finish();
  });
  request.end(body || undefined);
}

function finish() {
  done += 1;
  if (done === total) {
    const cpu = process.cpuUsage(cpuStart);
    process.stdout.write(JSON.stringify({
      sent, seconds: (performance.now() - start) / 1000, lag_ms_max: lagMax,
      cpu_ms: (cpu.user + cpu.system) / 1000, sockets, labels}));
    agent.destroy();
  }
}

// Send every request that is due, then sleep until the next one is (timers fire late by up to
// a millisecond or so; the lateness counts in the latencies).
function tick() {
  const now = performance.now();
  while (sent < total && start + sent * interval <= now) {
    lagMax = Math.max(lagMax, now - (start + sent * interval));
    send(sent);
    sent += 1;
  }
  if (sent < total) setTimeout(tick, Math.max(0, start + sent * interval - performance.now()));
}
tick();
