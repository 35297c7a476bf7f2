// JS 0.2's flat methods stay for 0.3 as aliases of the resource methods; each warns once per process.
const warned = new Set<string>();

type WarningProcess = { emitWarning?: (message: string, options: { type: string; code: string }) => void };

/** Warns once that `vd.<name>()` is deprecated in favour of `vd.<instead>()` (a DeprecationWarning in Node). */
export function deprecated(name: string, instead: string): void {
  if (warned.has(name)) return;
  warned.add(name);
  const message = `vd.${name}() is deprecated: use vd.${instead}() (the alias is removed in 0.4).`;
  const proc = (globalThis as { process?: WarningProcess }).process;
  if (typeof proc?.emitWarning === "function") proc.emitWarning(message, { type: "DeprecationWarning", code: "VOICEDRAFT_DEPRECATED" });
  else console.warn(message);
}
