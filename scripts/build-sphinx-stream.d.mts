// The types of build-sphinx-stream.mjs (a plain script, run by npm before TypeScript is there).
export declare const SPHINX_STREAM: string;
export declare function buildSphinxStream(): { path: string; reason?: undefined } | { path: null; reason: string };
