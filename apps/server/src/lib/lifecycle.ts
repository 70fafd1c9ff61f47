/**
 * Whether this node is going away (ADR 056): set when SIGTERM arrives. From then on
 * /api/health/ready answers 503 and every answer closes its connection, so that the proxy's
 * kept-alive connections to this node end cleanly before it stops listening.
 */
export class NodeLifecycle {
  #draining = false;

  get draining(): boolean {
    return this.#draining;
  }

  startDraining(): void {
    this.#draining = true;
  }
}
