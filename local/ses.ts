import type { Server } from 'node:http';

export interface SesEmulator {
  url: string;
  port: number;
  close(): Promise<void>;
}

/** The SES v2 emulator (aws-ses-v2-local): inbox at `/`, JSON at `/store`. */
export async function startSesEmulator(port: number): Promise<SesEmulator> {
  const module = (await import('aws-ses-v2-local')) as unknown as {
    default: ((config: { host: string; port: number }) => Promise<Server>) | { default: unknown };
  };
  // It is CommonJS: the function is `default` or `default.default` depending on the loader.
  const start = (typeof module.default === 'function' ? module.default : module.default.default) as (config: {
    host: string;
    port: number;
  }) => Promise<Server>;
  const server = await start({ host: '127.0.0.1', port });
  const address = server.address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  return {
    url: `http://127.0.0.1:${actualPort}`,
    port: actualPort,
    close: () =>
      new Promise((done) => {
        server.closeAllConnections?.();
        server.close(() => done());
      }),
  };
}
