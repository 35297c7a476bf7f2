"use client";

import { Pause, Play, RotateCcw } from "lucide-react";
import { forwardRef, useCallback, useEffect, useImperativeHandle, useRef, useState } from "react";
import { duration as clock } from "@/app/_lib/notes/note-text.ts";
import { keepAudioOffline } from "@/app/_lib/service-worker.ts";
import styles from "./player.module.css";

// Listening to a note: one row of 56 px that stays under the top bar while the text scrolls
// (play/pause, the time, a seek bar, back 5 s, 1×/1.5×/2×), so the text keeps the screen. A
// recording uploaded in parts plays as one: its parts one after the other, on one time line.
// The lock screen shows the note's title (Media Session) and its play/pause/seek buttons work. Once
// played, the recording is kept on the phone and plays offline too.

export type AudioPart = { url: string; duration: number };
/** `play`: true plays (a refusal says so); "try" plays if the browser allows it unasked (a link's ?t=), else waits for Play. */
export type PlayerHandle = { seek: (seconds: number, play?: boolean | "try") => void };

const SPEEDS = [1, 1.5, 2] as const;

function locate(parts: AudioPart[], seconds: number): { index: number; offset: number } {
  let start = 0;
  for (let i = 0; i < parts.length; i++) {
    if (seconds < start + parts[i].duration || i === parts.length - 1) return { index: i, offset: Math.max(0, seconds - start) };
    start += parts[i].duration;
  }
  return { index: 0, offset: 0 };
}

const startOf = (parts: AudioPart[], index: number) => parts.slice(0, index).reduce((sum, p) => sum + p.duration, 0);

/** `onTime` is told the time on the note's time line as it plays (and on seeks); `onPlaying` whether it plays. */
export const NotePlayer = forwardRef<PlayerHandle, { parts: AudioPart[]; title: string; onTime: (s: number) => void; onPlaying?: (playing: boolean) => void }>(
  function NotePlayer({ parts, title, onTime, onPlaying }, ref) {
    const audio = useRef<HTMLAudioElement>(null);
    const [index, setIndex] = useState(0);
    const [time, setTime] = useState(0);
    const [playing, setPlaying] = useState(false);
    const [speed, setSpeed] = useState<(typeof SPEEDS)[number]>(1);
    const [failed, setFailed] = useState(false);
    const kept = useRef(false);
    // Where to go once the part being loaded can seek, and whether to play then.
    const pending = useRef<{ offset: number; play: boolean; quiet?: boolean } | null>(null);
    const total = parts.reduce((sum, p) => sum + p.duration, 0);

    const report = useCallback(
      (seconds: number) => {
        setTime(seconds);
        onTime(seconds);
      },
      [onTime],
    );

    const seek = useCallback(
      (seconds: number, play: boolean | "try" = false) => {
        const el = audio.current;
        if (!el || !parts.length) return;
        const at = locate(parts, Math.min(Math.max(0, seconds), total));
        report(startOf(parts, at.index) + at.offset);
        if (at.index !== index) {
          pending.current = { offset: at.offset, play: Boolean(play) || !el.paused, quiet: play === "try" };
          setIndex(at.index);
          return;
        }
        el.currentTime = at.offset;
        if (play) void el.play().catch(() => play === true && setFailed(true));
      },
      [parts, total, index, report],
    );
    useImperativeHandle(ref, () => ({ seek }), [seek]);

    useEffect(() => {
      const el = audio.current;
      if (el) el.playbackRate = speed;
    }, [speed, index]);

    // The lock screen: the note's title, and its buttons.
    useEffect(() => {
      if (!("mediaSession" in navigator) || typeof MediaMetadata === "undefined") return;
      navigator.mediaSession.metadata = new MediaMetadata({ title, artist: "Voicedraft", album: "Voice notes" });
      const el = audio.current;
      const handlers: [MediaSessionAction, MediaSessionActionHandler][] = [
        ["play", () => void el?.play()],
        ["pause", () => el?.pause()],
        ["seekbackward", () => seek(time - 5)],
        ["seekforward", () => seek(time + 10)],
        ["seekto", (d) => d.seekTime !== undefined && seek(d.seekTime)],
      ];
      for (const [action, handler] of handlers) {
        try {
          navigator.mediaSession.setActionHandler(action, handler);
        } catch {
          // an action this browser does not know
        }
      }
      return () => {
        for (const [action] of handlers) {
          try {
            navigator.mediaSession.setActionHandler(action, null);
          } catch {
            // as above
          }
        }
      };
    }, [title, seek, time]);

    const toggle = () => {
      const el = audio.current;
      if (!el) return;
      if (el.paused) void el.play().catch(() => setFailed(true));
      else el.pause();
    };

    if (!parts.length) return null;
    return (
      <section className={styles.player} aria-label="Recording" data-testid="player" data-pin="top">
        <audio
          ref={audio}
          src={parts[index].url}
          preload="metadata"
          onLoadedMetadata={(e) => {
            const next = pending.current;
            pending.current = null;
            e.currentTarget.playbackRate = speed;
            if (next) {
              e.currentTarget.currentTime = next.offset;
              if (next.play) void e.currentTarget.play().catch(() => !next.quiet && setFailed(true));
            }
          }}
          onTimeUpdate={(e) => report(startOf(parts, index) + e.currentTarget.currentTime)}
          onPlay={() => {
            setPlaying(true);
            setFailed(false);
            onPlaying?.(true);
            if (!kept.current) void keepAudioOffline(parts.map((p) => p.url)).then((ok) => (kept.current = ok));
          }}
          onPause={() => {
            setPlaying(false);
            onPlaying?.(false);
          }}
          onEnded={() => {
            if (index < parts.length - 1) {
              pending.current = { offset: 0, play: true };
              setIndex(index + 1);
            } else {
              setPlaying(false);
              onPlaying?.(false);
            }
          }}
          onError={() => setFailed(true)}
        />
        <button type="button" className={styles.play} onClick={toggle} aria-label={playing ? "Pause" : "Play the recording"} data-testid="play">
          {playing ? <Pause size={22} aria-hidden="true" /> : <Play size={22} aria-hidden="true" />}
        </button>
        <span className={styles.time} data-testid="player-time">
          {clock(time)}
        </span>
        <input
          type="range"
          className={styles.seek}
          min={0}
          max={total || 1}
          step={0.1}
          value={Math.min(time, total)}
          onChange={(e) => seek(Number(e.target.value))}
          aria-label="Position in the recording"
          aria-valuetext={`${clock(time)} of ${clock(total)}`}
        />
        <span className={styles.time}>{clock(total)}</span>
        <button type="button" className={styles.control} onClick={() => seek(time - 5)} aria-label="Back 5 s" title="Back 5 seconds">
          <RotateCcw size={18} aria-hidden="true" />
        </button>
        <button
          type="button"
          className={styles.control}
          onClick={() => setSpeed(SPEEDS[(SPEEDS.indexOf(speed) + 1) % SPEEDS.length])}
          aria-label={`Speed ${speed}×; change`}
          data-testid="speed"
        >
          {speed}×
        </button>
        {failed && (
          <p className={styles.status} role="status">
            {navigator.onLine
              ? "The recording could not be played. Check the connection and try again."
              : "You are offline: a recording plays offline once you have played it here online."}
          </p>
        )}
      </section>
    );
  },
);

/**
 * The player's place while the recording is compressed and kept, just after a live recording's
 * Stop (the text comes first): the same row, so nothing moves when the player takes it.
 */
export function PreparingPlayer() {
  return (
    <div className={styles.player} role="status" data-testid="player-preparing">
      <button type="button" className={styles.play} disabled aria-label="Play (the recording is being prepared)">
        <Play size={22} aria-hidden="true" />
      </button>
      <p className={styles.time}>Preparing the recording…</p>
    </div>
  );
}
