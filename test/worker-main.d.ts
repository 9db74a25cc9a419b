/**
 * The Worker's module as the workerd tests see it through `exports` of 'cloudflare:workers'. Declared here, not in
 * src/env.ts, so the Worker's own modules do not name its entry point.
 */
declare global {
  namespace Cloudflare {
    interface GlobalProps {
      mainModule: typeof import('../src/index');
    }
  }
}

export {};
