"use client";

import { useCallback, useEffect, useRef, useState } from "react";

/**
 * The recording's clock and input level while it records or is paused, read every frame; the
 * level also drives the meter element (through the CSSOM, not a style attribute: allowed under a
 * strict Content-Security-Policy).
 */
export function useRecordingClock(phase: string, levelOf: () => number) {
  const [elapsed, setElapsed] = useState(0);
  const [level, setLevel] = useState(0);
  const meter = useRef<HTMLSpanElement>(null);
  const clock = useRef({ startedAt: 0, pausedTotal: 0, pausedAt: 0 });
  const read = useRef(levelOf);
  useEffect(() => {
    read.current = levelOf;
  });

  useEffect(() => {
    if (phase !== "recording" && phase !== "paused") return;
    let frame = 0;
    const tick = () => {
      const c = clock.current;
      const now = phase === "paused" ? c.pausedAt : performance.now();
      const value = phase === "recording" ? read.current() : 0;
      setElapsed(now - c.startedAt - c.pausedTotal);
      setLevel(value);
      meter.current?.style.setProperty("--level", String(value));
      frame = requestAnimationFrame(tick);
    };
    frame = requestAnimationFrame(tick);
    return () => cancelAnimationFrame(frame);
  }, [phase]);

  const begin = useCallback(() => {
    clock.current = { startedAt: performance.now(), pausedTotal: 0, pausedAt: 0 };
    setElapsed(0);
  }, []);
  const pause = useCallback(() => {
    clock.current.pausedAt = performance.now();
  }, []);
  const resume = useCallback(() => {
    clock.current.pausedTotal += performance.now() - clock.current.pausedAt;
  }, []);
  const silence = useCallback(() => {
    meter.current?.style.setProperty("--level", "0");
    setLevel(0);
  }, []);
  return { elapsed, level, meter, begin, pause, resume, silence };
}
