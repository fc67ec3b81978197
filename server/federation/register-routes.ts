import type { Router } from '@koa/router';
import type { RestHandlers } from '../../generated/rest/handler.js';
import { registerKind } from './register-kind.js';

/**
 * `/register` (rest-contract §13): read and queried like every collection; a POST for a known
 * accessPoint stores a new version of that registration.
 */
export function mountRegisterRoutes(router: Router, handlers: RestHandlers): void {
  router.post('/register', handlers.create(registerKind));
  router.get('/register', handlers.list(registerKind));
  router.get('/register/:id', handlers.read(registerKind));
  router.put('/register/:id', handlers.replace(registerKind));
  router.patch('/register/:id', handlers.patch(registerKind));
  router.delete('/register/:id', handlers.remove(registerKind));
}
