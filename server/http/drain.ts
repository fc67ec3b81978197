import type { Server } from 'node:http';
import { Server as NetServer, type Socket } from 'node:net';

/** How often a stopping server closes the connections that carry no request. */
const CHECK_MS = 50;
/** Connections are still accepted after the signal for this long at most (LB still sending). */
const LISTEN_AT_MOST_MS = 1_000;

/**
 * The graceful stop of the HTTP server: every request that reached it is answered. Node's own
 * `server.close()` closes at once every connection with no request in progress, and that
 * includes a connection the server accepted whose request it has not read yet (its event loop
 * busy with other requests): that client had sent its request and got a reset. Stopping with 32
 * lists of 1,000 nodes just sent, 15 of the 32 requests were cut so; and the connections the
 * kernel had queued but Node not yet accepted were reset when the listener closed.
 *
 * Here the listener closes at the first check (every 50 ms) that finds no connection accepted
 * since the one before, so what the kernel had queued at the signal is accepted and answered
 * (at most 1 s after the signal), and a connection is closed only once it has been seen without
 * a request at two checks in a row, so its request, if it sent one, had turns of the loop to
 * arrive. Requests that arrive meanwhile are answered with `Connection: close` (server/serve.ts).
 */
export class Drain {
  /** Open connections and their requests in progress. */
  private readonly connections = new Map<Socket, { active: number; idleChecks: number }>();

  /** Connections accepted so far. */
  private accepted = 0;

  constructor(private readonly server: Server) {
    server.on('connection', (socket: Socket) => {
      this.accepted++;
      this.connections.set(socket, { active: 0, idleChecks: 0 });
      socket.once('close', () => this.connections.delete(socket));
    });
    server.on('request', (req, res) => {
      const state = this.connections.get(req.socket);
      if (!state) return;
      state.active++;
      state.idleChecks = 0;
      res.once('close', () => {
        state.active--;
        state.idleChecks = 0;
      });
    });
  }

  /** Stop accepting connections; `closed` is called once every connection has closed. */
  stop(closed: () => void): void {
    const began = performance.now();
    let accepted = this.accepted;
    let listening = true;
    const check = setInterval(() => {
      // The listener closes once a check finds no connection accepted since the one before
      // (what the kernel had queued is in), or after LISTEN_AT_MOST_MS under a steady stream.
      if (listening && (this.accepted === accepted || performance.now() - began > LISTEN_AT_MOST_MS)) {
        listening = false;
        // net.Server's close: stop listening, call back once every connection has ended, and
        // leave the idle ones alone (http.Server's close would end them at once).
        NetServer.prototype.close.call(this.server, () => {
          clearInterval(check);
          closed();
        });
      }
      accepted = this.accepted;
      for (const [socket, state] of this.connections) {
        if (state.active > 0) continue;
        if (++state.idleChecks >= 2) socket.end();
      }
    }, CHECK_MS);
  }
}
