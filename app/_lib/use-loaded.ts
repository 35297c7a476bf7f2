"use client";

import { useCallback, useEffect, useRef, useState } from "react";

/**
 * What a screen loads when it opens (a list, a setting), with its error; `reload` after a change.
 * `describe` turns a failure into the words the screen shows (default: the error's message). One
 * load-on-mount for every list, instead of an effect and its state in each screen.
 */
export function useLoaded<T>(load: () => Promise<T>, describe: (err: unknown) => string = (err) => (err as Error).message) {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  const latest = useRef({ load, describe });
  useEffect(() => {
    latest.current = { load, describe };
  });
  const reload = useCallback(async () => {
    try {
      const loaded = await latest.current.load();
      setData(() => loaded);
      setError(null);
    } catch (err) {
      setError(latest.current.describe(err));
    }
  }, []);
  useEffect(() => {
    let live = true;
    latest.current.load().then(
      (loaded) => {
        if (!live) return;
        setData(() => loaded);
        setError(null);
      },
      (err: unknown) => live && setError(latest.current.describe(err)),
    );
    return () => {
      live = false;
    };
  }, []);
  return { data, setData, error, setError, reload };
}
