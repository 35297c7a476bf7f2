// The Content-Security-Policy of pages and of the files they load (workers, the service worker).
// Pages allow only scripts carrying this response's nonce, and what those load ('strict-dynamic');
// workers load their own files ('self'). ffmpeg.wasm needs 'wasm-unsafe-eval', not 'unsafe-eval'.
export function contentSecurityPolicy(options: { nonce?: string; https: boolean; dev: boolean }): string {
  const scripts = options.nonce ? ["'self'", `'nonce-${options.nonce}'`, "'strict-dynamic'"] : ["'self'"];
  const directives = [
    "default-src 'self'",
    `script-src ${[...scripts, "'wasm-unsafe-eval'", ...(options.dev ? ["'unsafe-eval'"] : [])].join(" ")}`,
    // React writes style attributes; a nonce would switch 'unsafe-inline' off for them.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' blob: data:",
    "media-src 'self' blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "worker-src 'self' blob:",
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    ...(options.https ? ["upgrade-insecure-requests"] : []),
  ];
  return directives.join("; ");
}

export const HSTS = "max-age=31536000";
